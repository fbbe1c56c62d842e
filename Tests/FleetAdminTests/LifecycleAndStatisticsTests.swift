@testable import fleet_admin
import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import FleetOperator
import MemoryStore
import FleetCLI
import Testing

/// The status paths import walks, statistics, export lines and paging.
@Suite struct LifecycleAndStatisticsTests {
    static let reachable: [(TripStatus, Int32?)] = [
        (.new, nil), (.enrouteToPickup, nil), (.arrivedAtPickup, nil), (.enrouteToIntermediateDestination, 1),
        (.arrivedAtIntermediateDestination, 1), (.enrouteToDropoff, nil), (.complete, nil), (.canceled, nil),
    ]

    @Test(arguments: reachable.indices)
    func everyPathIsLegalAndEndsWhereItShould(index: Int) throws {
        let (target, targetIndex) = Self.reachable[index]
        let steps = TripStatusPath.steps(to: target, index: targetIndex)
        var status = TripStatus.new
        var current: Int32?
        for step in steps {
            try TripLifecycle.validate(from: status, fromIndex: current, to: step.status, toIndex: step.index ?? current,
                                       intermediateCount: 2, hasVehicle: true)
            status = step.status
            if let next = step.index { current = next }
        }
        #expect(status == target)
        if targetIndex != nil { #expect(current == targetIndex) }
    }

    @Test func pathsInWords() {
        #expect(TripStatusPath.steps(to: .complete, index: nil).map(\.description)
                == ["ENROUTE_TO_PICKUP", "ARRIVED_AT_PICKUP", "ENROUTE_TO_DROPOFF", "COMPLETE"])
        #expect(TripStatusPath.steps(to: .arrivedAtIntermediateDestination, index: 2).map(\.description).suffix(2)
                == ["ENROUTE_TO_INTERMEDIATE_DESTINATION[2]", "ARRIVED_AT_INTERMEDIATE_DESTINATION[2]"])
        #expect(TripStatusPath.steps(to: .new, index: nil).isEmpty)
    }

    @Test func impliedIndexes() {
        let arrived = Trip(tripStatus: .arrivedAtIntermediateDestination, intermediateDestinationIndex: 1)
        #expect(TripStatusPath.impliedIndex(moving: arrived, to: .enrouteToIntermediateDestination) == 2)
        #expect(TripStatusPath.impliedIndex(moving: arrived, to: .arrivedAtIntermediateDestination) == 1)
        #expect(TripStatusPath.impliedIndex(moving: Trip(tripStatus: .arrivedAtPickup), to: .enrouteToIntermediateDestination) == 0)
        #expect(TripStatusPath.impliedIndex(moving: arrived, to: .enrouteToDropoff) == nil)
    }

    @Test func statisticsCountStaleOnlineVehicles() {
        func vehicle(_ id: String, _ state: VehicleState, locatedAt seconds: Int64?) -> Vehicle {
            Vehicle(name: "providers/p/vehicles/\(id)", vehicleState: state,
                    lastLocation: seconds.map { VehicleLocation(location: LatLng(latitude: 1, longitude: 1), serverTime: Timestamp(seconds: $0)) },
                    vehicleType: VehicleType(category: .auto))
        }
        var statistics = FleetStatistics(now: 1000, staleAfter: 300)
        statistics.add(vehicle("fresh", .online, locatedAt: 800))
        statistics.add(vehicle("old", .online, locatedAt: 600))
        statistics.add(vehicle("never", .online, locatedAt: nil))
        statistics.add(vehicle("parked", .offline, locatedAt: nil))
        statistics.add(Trip(tripStatus: .complete))
        statistics.add(Trip(tripStatus: .enrouteToDropoff))
        #expect(statistics.staleVehicles == ["old", "never"])
        #expect(statistics.vehiclesByState == ["ONLINE": 3, "OFFLINE": 1])
        #expect(statistics.activeTrips == 1)
        #expect(statistics.json["vehicles"]?["stale"]?["after"] == "300s")
        #expect(statistics.lines(style: .plain).contains("Stale (online, no location for over 5m00s): 2"))
        #expect(FleetStatistics.ordered(["Z", "ONLINE", "A", "OFFLINE"], by: ["OFFLINE", "ONLINE"]) == ["OFFLINE", "ONLINE", "A", "Z"])
    }

    @Test func exportLinesRoundTrip() throws {
        let vehicle = FleetRecordLine.vehicle(Vehicle(name: "providers/p/vehicles/v", vehicleState: .online))
        #expect(vehicle.text == #"{"kind":"vehicle","resource":{"name":"providers/p/vehicles/v","vehicleState":"ONLINE"}}"#)
        #expect(try FleetRecordLine(line: vehicle.text, lineNumber: 1, source: "f") == vehicle)
        let trip = FleetRecordLine.trip(Trip(name: "providers/p/trips/t", tripStatus: .complete))
        #expect(try FleetRecordLine(line: trip.text, lineNumber: 2, source: "f") == trip)
        let notObject = #expect(throws: FleetError.self) { try FleetRecordLine(line: "[1]", lineNumber: 3, source: "f") }
        #expect(notObject?.message.contains("f line 3: expected {\"kind\"") == true)
        #expect(notObject?.code == .invalidArgument)
        let unknownField = #expect(throws: FleetError.self) {
            try FleetRecordLine(line: #"{"kind":"trip","resource":{"bogus":1}}"#, lineNumber: 4, source: "f")
        }
        #expect(unknownField?.message.contains("f line 4: Invalid JSON payload received. Unknown name \"bogus\" at 'resource'") == true)
    }

    @Test func thePagerFollowsEveryPageAndDrawsProgressAfterTheFirst() throws {
        let engine = Engine(store: MemoryStore())
        for id in ["a", "b", "c"] {
            _ = try engine.createVehicle(CreateVehicleRequest(parent: "providers/p", vehicleId: id, vehicle: Vehicle(
                vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 1, vehicleType: VehicleType(category: .auto))))
        }
        let terminal = CapturedOutput(isTerminal: true)
        var pages: [[String]] = []
        let request = ListVehiclesRequest(parent: "providers/p", pageSize: 1, vehicleTypeCategories: [.auto])
        try FleetPager(api: engine, progress: ProgressReporter(label: "L", output: terminal)).vehicles(request) { page in
            pages.append(page.map { CellText.id(fromName: $0.name) })
        }
        #expect(pages == [["a"], ["b"], ["c"]])
        #expect(terminal.text.contains("L ["))
        #expect(terminal.text.contains("]  2/3"))
        #expect(terminal.text.hasSuffix("\r\u{1B}[K"), "cleared at the end")
        var limited: [String] = []
        try FleetPager(api: engine, progress: nil).vehicles(request, limit: 2) { limited += $0.compactMap(\.name) }
        #expect(limited.count == 2)
    }
}
