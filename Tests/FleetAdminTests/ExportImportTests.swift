@testable import fleet_admin
import FleetModel
import FleetOperator
import Foundation
import Testing

/// `fleet-admin export` and `import` run as binaries, over every transport.
@Suite struct ExportImportTests {
    /// A fleet with vehicles and trips in every kind of status.
    private func populated(_ transport: AdminTransport) throws -> AdminFleet {
        let fleet = try AdminFleet(transport)
        try fleet.succeed(["vehicles", "create", "car-1", "--capacity", "4", "--state", "online", "--location", "52.52,13.40",
                           "--attributes", "wheelchair=yes"])
        try fleet.succeed(["vehicles", "create", "car-2", "--capacity", "2", "--type", "exclusive,shared", "--back-to-back"])
        try fleet.succeed(["trips", "create", "done", "--pickup", "52.52,13.40", "--dropoff", "52.50,13.45", "--vehicle", "car-1"])
        for status in ["enroute-to-pickup", "arrived-at-pickup", "enroute-to-dropoff", "complete"] {
            try fleet.succeed(["trips", "status", "done", status])
        }
        try fleet.succeed(["trips", "create", "riding", "--pickup", "52.52,13.40", "--stop", "52.51,13.42", "--dropoff", "52.50,13.45",
                           "--vehicle", "car-1", "--passengers", "2"])
        for status in ["enroute-to-pickup", "arrived-at-pickup", "enroute-to-intermediate-destination"] {
            try fleet.succeed(["trips", "status", "riding", status])
        }
        try fleet.succeed(["trips", "create", "dropped", "--pickup", "52.53,13.41", "--vehicle", "car-2"])
        try fleet.succeed(["trips", "cancel", "dropped"])
        try fleet.succeed(["trips", "create", "waiting", "--pickup", "52.54,13.42", "--attributes", "vip=yes"])
        return fleet
    }

    @Test(arguments: AdminTransport.allCases)
    func anExportImportsIntoAnEmptyFleetWithStatusesRestored(transport: AdminTransport) throws {
        let source = try populated(transport)
        let file = source.path("fleet.jsonl")
        let exported = try source.run(["export", "--output", file])
        #expect(exported.status == 0, "\(exported)")
        #expect(exported.output == "")
        #expect(exported.error == "Exported 2 vehicles and 4 trips of providers/demo to \(file).\n")
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 6)
        let records = try lines.enumerated().map { try FleetRecordLine(line: String($1), lineNumber: $0 + 1, source: "fleet.jsonl") }
        guard case .vehicle(let first)? = records.first else { Issue.record("vehicles come first"); return }
        #expect(first.name == "providers/demo/vehicles/car-1")

        let target = try AdminFleet(transport, provider: "copy")
        let imported = try target.run(["import", file])
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.output == "Imported 2 vehicles and 4 trips into providers/copy (0 already there, skipped).\n")

        let before = try #require(try JSON.parse(try source.succeed(["trips", "list", "--json"])).arrayValue).map { try Trip(json: $0) }
        let after = try #require(try JSON.parse(try target.succeed(["trips", "list", "--json"])).arrayValue).map { try Trip(json: $0) }
        #expect(after.map { CellText.id(fromName: $0.name) } == ["done", "dropped", "riding", "waiting"])
        #expect(after.map(\.tripStatus) == before.map(\.tripStatus))
        #expect(after.map(\.vehicleId) == before.map(\.vehicleId))
        #expect(after.map(\.intermediateDestinationIndex) == before.map(\.intermediateDestinationIndex))
        #expect(after.map(\.numberOfPassengers) == before.map(\.numberOfPassengers))
        #expect(after.map(\.attributes) == before.map(\.attributes))

        let car = try target.json(Vehicle.self, ["vehicles", "get", "car-1"])
        #expect(car.currentTrips == ["riding"], "only the active trip is on the vehicle")
        #expect(car.attributes.first?.key == "wheelchair")
        #expect(car.lastLocation?.location == LatLng(latitude: 52.52, longitude: 13.40))
        #expect(try target.json(Vehicle.self, ["vehicles", "get", "car-2"]).backToBackEnabled == true)
    }

    @Test(arguments: AdminTransport.allCases)
    func importingTwiceFailsUnlessSkippingExisting(transport: AdminTransport) throws {
        let source = try populated(transport)
        let export = try source.succeed(["export"])
        #expect(export.split(separator: "\n").count == 6, "to standard output by default")
        let again = try source.run(["import", "-"], input: .text(export))
        #expect(again.status == 16, "\(again)")
        #expect(again.error.unwrapped.contains("Imported 0 vehicles and 0 trips before the failure"))
        #expect(again.error.unwrapped.contains("ALREADY_EXISTS"))
        let skipped = try source.run(["import", "--skip-existing", "-", "--json"], input: .text(export))
        #expect(skipped.status == 0, "\(skipped)")
        let counts = try JSON.parse(skipped.output)
        #expect(counts == ["vehicles": 0, "trips": 0, "skipped": 6])
    }

    @Test func aBrokenLineIsNamed() throws {
        let fleet = try AdminFleet(.memory)
        let file = try fleet.write("bad.jsonl", #"{"kind":"vehicle","resource":{"name":"providers/x/vehicles/v","vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":1,"vehicleType":{"category":"AUTO"}}}"# + "\n\n{\"kind\":\"bus\",\"resource\":{}}\n")
        let result = try fleet.run(["import", file])
        #expect(result.status == 13, "\(result)")
        #expect(result.error.unwrapped.contains("\(file) line 3: kind \"bus\" is neither vehicle nor trip"))
        #expect(result.error.unwrapped.contains("Imported 1 vehicles and 0 trips before the failure"))
        let missing = try fleet.run(["import", fleet.path("nothing.jsonl")])
        #expect(missing.status == 13)
        #expect(missing.error.unwrapped.contains("cannot open"))
    }

    @Test func aCancelledTripWhoseVehicleIsGoneIsRestoredWithoutIt() throws {
        let fleet = try AdminFleet(.memory)
        let pickup = #""pickupPoint":{"point":{"latitude":52.5,"longitude":13.4}}"#
        let cancelled = #"{"kind":"trip","resource":{"name":"providers/x/trips/gone","vehicleId":"scrapped","tripStatus":"CANCELED","tripType":"EXCLUSIVE","#
            + pickup + "}}"
        let imported = try fleet.run(["import", "-"], input: .text(cancelled + "\n"))
        #expect(imported.status == 0, "\(imported)")
        let trip = try fleet.json(Trip.self, ["trips", "get", "gone"])
        #expect(trip.tripStatus == .canceled)
        #expect(trip.vehicleId == nil)

        let completed = #"{"kind":"trip","resource":{"name":"providers/x/trips/done","vehicleId":"scrapped","tripStatus":"COMPLETE","tripType":"EXCLUSIVE","#
            + pickup + "}}"
        let failed = try fleet.run(["import", "-"], input: .text(completed + "\n"))
        #expect(failed.status == 15, "a completed trip needs its vehicle: \(failed)")
    }
}
