import FleetEngine
import FleetModel
import Foundation
import JournalTransport
import Testing

/// `fleet-admin stats` and `replay` run as binaries.
@Suite struct StatsReplayTests {
    @Test(arguments: AdminTransport.allCases)
    func statsCountsStatesStatusesAndStaleVehicles(transport: AdminTransport) throws {
        let fleet = try AdminFleet(transport)
        try fleet.succeed(["vehicles", "create", "fresh", "--capacity", "4", "--state", "online", "--location", "52.52,13.40"])
        try fleet.succeed(["vehicles", "create", "silent", "--capacity", "4", "--state", "online"])
        try fleet.succeed(["vehicles", "create", "parked", "--capacity", "4", "--category", "taxi"])
        try fleet.succeed(["trips", "create", "t1", "--pickup", "52.52,13.40", "--vehicle", "fresh"])
        try fleet.succeed(["trips", "create", "t2", "--pickup", "52.52,13.40"])
        try fleet.succeed(["trips", "cancel", "t2"])

        let table = try fleet.succeed(["stats"])
        #expect(table == """
        Vehicles: 3

        STATE    COUNT
        OFFLINE      1
        ONLINE       2

        CATEGORY  COUNT
        AUTO          2
        TAXI          1

        Stale (online, no location for over 5m00s): 1
          silent

        Trips: 2 (1 active)

        STATUS    COUNT
        NEW           1
        CANCELED      1

        """)
        let json = try JSON.parse(try fleet.succeed(["stats", "--json"]))
        #expect(json["vehicles"]?["byState"] == ["OFFLINE": 1, "ONLINE": 2])
        #expect(json["vehicles"]?["stale"]?["vehicles"] == ["silent"])
        #expect(json["trips"]?["byStatus"] == ["NEW": 1, "CANCELED": 1])
        #expect(json["trips"]?["active"] == 1)
        let line = try fleet.succeed(["stats", "--jsonl", "--stale-after", "0s"])
        #expect(line.split(separator: "\n").count == 1)
    }

    @Test(arguments: AdminTransport.allCases)
    func replayMakesAJournalsCallsAgain(transport: AdminTransport) throws {
        let fleet = try AdminFleet(transport)
        let path = fleet.path("recorded.jsonl")
        let clock = ManualClock()
        let journal = try JournalTransport(path: path, clock: clock, durable: false)
        _ = try journal.createVehicle(CreateVehicleRequest(parent: "providers/demo", vehicleId: "v1", vehicle: Vehicle(
            vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 4, vehicleType: VehicleType(category: .auto))))
        clock.advance(seconds: 5)
        _ = try journal.createTrip(CreateTripRequest(parent: "providers/demo", tripId: "t1", trip: Trip(
            vehicleId: "v1", tripType: .exclusive, pickupPoint: TerminalLocation(point: LatLng(latitude: 52.52, longitude: 13.40)))))
        clock.advance(seconds: 5)
        _ = try journal.updateTrip(UpdateTripRequest(name: "providers/demo/trips/t1", trip: Trip(tripStatus: .enrouteToPickup),
                                                     updateMask: ["tripStatus"]))
        journal.close()

        let result = try fleet.run(["replay", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.output.hasPrefix("Replayed 3 records of \(path) into "))
        let trip = try fleet.json(Trip.self, ["trips", "get", "t1"])
        #expect(trip.tripStatus == .enrouteToPickup)
        #expect(trip.vehicleId == "v1")
        #expect(try fleet.json(Vehicle.self, ["vehicles", "get", "v1"]).currentTrips == ["t1"])

        let again = try fleet.run(["replay", path])
        #expect(again.status == 16, "the first record fails the second time: \(again)")
        #expect(again.error.unwrapped.contains("record 1 (CreateVehicle)"))
        let resumed = try fleet.run(["replay", path, "--from", "4", "--json"])
        #expect(try JSON.parse(resumed.output) == ["applied": 0, "skipped": 3])
    }

    @Test func replayIntoAnotherStoreReproducesTheRecordedTimes() throws {
        let fleet = try AdminFleet(.memory)
        let path = fleet.path("recorded.jsonl")
        let journal = try JournalTransport(path: path, clock: ManualClock(), durable: false)
        _ = try journal.createVehicle(CreateVehicleRequest(parent: "providers/demo", vehicleId: "v1", vehicle: Vehicle(
            vehicleState: .online, supportedTripTypes: [.exclusive], lastLocation: VehicleLocation(location: LatLng(latitude: 1, longitude: 2)),
            maximumCapacity: 4, vehicleType: VehicleType(category: .auto))))
        journal.close()
        let copy = "sqlite:" + fleet.path("copy.db")
        let result = try fleet.runBare(["replay", path, "--to", "memory", "--store", copy])
        #expect(result.status == 0, "\(result)")
        let shown = try fleet.runBare(["--store", copy, "--provider", "demo", "vehicles", "get", "v1", "--json"])
        let vehicle = try Vehicle(jsonString: shown.output)
        #expect(vehicle.lastLocation?.serverTime == ManualClock().now(), "the engine ran at the record's time")
    }
}
