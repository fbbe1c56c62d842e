@testable import fleet_admin
import FleetCLI
import FleetModel
import Testing

/// Flags to request bodies and update masks.
@Suite struct RequestFlagsTests {
    @Test func vehicleFlagsNameTheirPathsAndOverrideABody() throws {
        let arguments = ParsedArguments(commandPath: ["fleet-admin", "vehicles", "update"],
                                        values: ["state": ["ONLINE"], "type": [], "capacity": ["6"], "category": [], "location": ["1,2"],
                                                 "attributes": ["a=b"]],
                                        flags: ["back-to-back": false, "no-back-to-back": true])
        let flags = try VehicleFlags(arguments)
        #expect(flags.paths == ["vehicleState", "maximumCapacity", "lastLocation", "attributes", "backToBackEnabled"])
        let body = Vehicle(vehicleState: .offline, supportedTripTypes: [.shared], maximumCapacity: 2, backToBackEnabled: true)
        let merged = flags.applied(to: body)
        #expect(merged.vehicleState == .online)
        #expect(merged.supportedTripTypes == [.shared], "fields without a flag keep the body's value")
        #expect(merged.maximumCapacity == 6)
        #expect(merged.lastLocation == VehicleLocation(location: LatLng(latitude: 1, longitude: 2)))
        #expect(merged.backToBackEnabled == false)
    }

    @Test func bothBackToBackFlagsAreAUsageError() {
        let arguments = ParsedArguments(commandPath: ["fleet-admin", "vehicles", "update"],
                                        values: ["state": [], "type": [], "capacity": [], "category": [], "location": [], "attributes": []],
                                        flags: ["back-to-back": true, "no-back-to-back": true])
        #expect(throws: UsageError.self) { try VehicleFlags(arguments) }
    }

    @Test func createDefaultsOnlyWhatNeitherBodyNorFlagsGive() {
        let none = VehicleFlags().vehicleToCreate(body: nil)
        #expect(none.vehicleState == .offline)
        #expect(none.supportedTripTypes == [.exclusive])
        #expect(none.vehicleType == VehicleType(category: .auto))
        #expect(none.maximumCapacity == nil, "no default capacity")
        let body = Vehicle(vehicleState: .online, supportedTripTypes: [.shared], vehicleType: VehicleType(category: .truck))
        var capacity = VehicleFlags()
        capacity.capacity = 3
        let fromBody = capacity.vehicleToCreate(body: body)
        #expect(fromBody == Vehicle(vehicleState: .online, supportedTripTypes: [.shared], maximumCapacity: 3, vehicleType: VehicleType(category: .truck)))
    }

    @Test func tripFlagsNameTheirPaths() throws {
        var flags = TripFlags()
        flags.pickup = LatLng(latitude: 1, longitude: 2)
        flags.stops = [LatLng(latitude: 3, longitude: 4)]
        flags.vehicle = ""
        flags.status = .enrouteToIntermediateDestination
        flags.index = 0
        #expect(flags.paths == ["vehicleId", "tripStatus", "pickupPoint", "intermediateDestinations", "intermediateDestinationIndex"])
        let trip = flags.applied(to: Trip(vehicleId: "old", tripType: .shared))
        #expect(trip.vehicleId == "", "'' unassigns")
        #expect(trip.tripType == .shared)
        #expect(trip.intermediateDestinations == [TerminalLocation(point: LatLng(latitude: 3, longitude: 4))])
        #expect(TripFlags().tripToCreate(body: nil).tripType == .exclusive)
        #expect(TripFlags().tripToCreate(body: Trip(tripType: .shared)).tripType == .shared)
    }

    @Test func tripFlagsReadOnlyWhatTheCommandDeclares() throws {
        let arguments = ParsedArguments(commandPath: ["fleet-admin", "trips", "create"],
                                        values: ["pickup": ["1,2"], "dropoff": [], "stop": [], "type": ["SHARED"], "vehicle": [],
                                                 "attributes": [], "passengers": ["3"]])
        let flags = try TripFlags(arguments)
        #expect(flags.passengers == 3)
        #expect(flags.type == .shared)
        #expect(flags.status == nil)
    }

    @Test func masksAreCamelCasedAndMalformedOnesAreUsageErrors() throws {
        let given = ParsedArguments(commandPath: ["fleet-admin", "vehicles", "update"], values: ["mask": ["vehicle_state, maximumCapacity"]])
        #expect(try MaskFlag(given).paths == ["vehicleState", "maximumCapacity"])
        let bad = ParsedArguments(commandPath: ["fleet-admin", "vehicles", "update"], values: ["mask": ["a,,b"]])
        #expect(throws: UsageError("--mask: 'a,,b' is not a comma-separated list of field names (like vehicleState,maximumCapacity)", commandPath: ["fleet-admin", "vehicles", "update"])) {
            try MaskFlag(bad)
        }
        #expect(MaskFlag.unique(["a", "b", "a"]) == ["a", "b"])
    }

    @Test func outputFormats() throws {
        func format(json: Bool, jsonl: Bool) throws -> OutputFormat {
            OutputFormat(try OutputGroup(ParsedArguments(commandPath: ["fleet-admin"], flags: ["json": json, "jsonl": jsonl, "no-color": false])).format)
        }
        #expect(try format(json: false, jsonl: false) == .table)
        #expect(try format(json: true, jsonl: false) == .json)
        #expect(try format(json: false, jsonl: true) == .jsonLines)
        #expect(throws: UsageError.self) { try format(json: true, jsonl: true) }
    }
}
