import FleetModel
import Foundation
import Testing

/// `fleet-admin trips …` run as a binary, over every transport.
@Suite struct TripCommandTests {
    private func fleetWithCar(_ transport: AdminTransport) throws -> AdminFleet {
        let fleet = try AdminFleet(transport)
        try fleet.succeed(["vehicles", "create", "car-1", "--capacity", "4", "--state", "online", "--location", "52.52,13.40"])
        return fleet
    }

    @Test(arguments: AdminTransport.allCases)
    func aTripGoesFromCreateToComplete(transport: AdminTransport) throws {
        let fleet = try fleetWithCar(transport)
        let created = try fleet.succeed(["trips", "create", "trip-1", "--pickup", "52.521,13.401", "--dropoff", "52.50,13.45", "--passengers", "2"])
        #expect(created.value(of: "Status") == "NEW", "\(created)")
        #expect(created.value(of: "Vehicle") == "-")
        #expect(created.value(of: "Pickup") == "52.52100,13.40100")
        #expect(created.value(of: "Passengers") == "2")

        let assigned = try fleet.json(Trip.self, ["trips", "assign", "trip-1", "car-1"])
        #expect(assigned.vehicleId == "car-1")
        #expect(try fleet.json(Vehicle.self, ["vehicles", "get", "car-1"]).currentTrips == ["trip-1"])

        for (word, status) in [("enroute-to-pickup", TripStatus.enrouteToPickup), ("ARRIVED_AT_PICKUP", .arrivedAtPickup),
                               ("Enroute to dropoff", .enrouteToDropoff)] {
            #expect(try fleet.json(Trip.self, ["trips", "status", "trip-1", word]).tripStatus == status)
        }
        let done = try fleet.json(Trip.self, ["trips", "complete", "trip-1"])
        #expect(done.tripStatus == .complete)
        #expect(try fleet.json(Vehicle.self, ["vehicles", "get", "car-1"]).currentTrips == [], "a finished trip leaves its vehicle")
        #expect(try fleet.succeed(["trips", "delete", "trip-1"]) == "Deleted providers/demo/trips/trip-1\n")
    }

    @Test(arguments: AdminTransport.allCases)
    func intermediateStopsAndImpliedIndexes(transport: AdminTransport) throws {
        let fleet = try fleetWithCar(transport)
        let trip = try fleet.json(Trip.self, ["trips", "create", "trip-2", "--pickup", "52.52,13.40", "--stop", "52.51,13.42",
                                             "--stop", "52.505,13.43", "--dropoff", "52.50,13.45", "--vehicle", "car-1"])
        #expect(trip.intermediateDestinations.count == 2)
        #expect(trip.vehicleId == "car-1")
        try fleet.succeed(["trips", "status", "trip-2", "enroute-to-pickup"])
        try fleet.succeed(["trips", "status", "trip-2", "arrived-at-pickup"])
        var moved = try fleet.json(Trip.self, ["trips", "status", "trip-2", "enroute-to-intermediate-destination"])
        #expect(moved.intermediateDestinationIndex == 0)
        moved = try fleet.json(Trip.self, ["trips", "status", "trip-2", "arrived-at-intermediate-destination"])
        #expect(moved.intermediateDestinationIndex == 0)
        moved = try fleet.json(Trip.self, ["trips", "status", "trip-2", "enroute-to-intermediate-destination"])
        #expect(moved.intermediateDestinationIndex == 1, "the next stop after an arrival")
        moved = try fleet.json(Trip.self, ["trips", "status", "trip-2", "arrived-at-intermediate-destination", "--index", "1"])
        #expect(moved.tripStatus == .arrivedAtIntermediateDestination)
        let shown = try fleet.succeed(["trips", "get", "trip-2"])
        #expect(shown.contains("Stops:             0: 52.51000,13.42000\n                   1: 52.50500,13.43000 (current)\n"), "\(shown)")
    }

    @Test(arguments: AdminTransport.allCases)
    func listSearchAndTheirFormats(transport: AdminTransport) throws {
        let fleet = try fleetWithCar(transport)
        try fleet.succeed(["trips", "create", "a", "--pickup", "52.52,13.40", "--dropoff", "52.50,13.45", "--vehicle", "car-1"])
        try fleet.succeed(["trips", "create", "b", "--pickup", "52.53,13.41", "--type", "shared"])
        try fleet.succeed(["trips", "create", "c", "--pickup", "52.54,13.42"])
        try fleet.succeed(["trips", "cancel", "c"])

        let table = try fleet.succeed(["trips", "list"]).split(separator: "\n").map(String.init)
        #expect(table == [
            "ID  STATUS    TYPE       VEHICLE  PICKUP             DROPOFF            ETA",
            "a   NEW       EXCLUSIVE  car-1    52.52000,13.40000  52.50000,13.45000  -",
            "b   NEW       SHARED     -        52.53000,13.41000  -                  -",
            "c   CANCELED  EXCLUSIVE  -        52.54000,13.42000  -                  -",
        ])
        let active = try fleet.succeed(["trips", "list", "--active", "--jsonl", "--page-size", "1"])
            .split(separator: "\n").map { try Trip(jsonString: String($0)).name }
        #expect(active == ["providers/demo/trips/a", "providers/demo/trips/b"])
        let ofCar = try #require(try JSON.parse(try fleet.succeed(["trips", "list", "--vehicle", "car-1", "--json"])).arrayValue)
        #expect(ofCar.count == 1)
        let ofCarTrip = try Trip(json: ofCar[0])
        #expect(ofCarTrip.name == "providers/demo/trips/a")
        #expect(ofCarTrip.etaToFirstWaypoint != nil, "a vehicle's trips come with their ETA")
        let stale = try fleet.succeed(["trips", "search", "--stale-for", "1h", "--jsonl"])
        #expect(stale == "", "nothing is an hour old")
    }

    @Test(arguments: AdminTransport.allCases)
    func updateFromFlagsAndFromAJSONBody(transport: AdminTransport) throws {
        let fleet = try fleetWithCar(transport)
        try fleet.succeed(["trips", "create", "t", "--pickup", "52.52,13.40", "--dropoff", "52.50,13.45", "--attributes", "vip=yes"])
        let updated = try fleet.json(Trip.self, ["trips", "update", "t", "--dropoff", "52.49,13.46", "--vehicle", "car-1",
                                                 "--status", "enroute-to-pickup"])
        #expect(updated.dropoffPoint?.point == LatLng(latitude: 52.49, longitude: 13.46))
        #expect(updated.tripStatus == .enrouteToPickup)
        #expect(updated.attributes.first?.key == "vip")
        let body = #"{"attributes":[{"key":"note","stringValue":"ring twice"}]}"#
        let fromBody = try fleet.json(Trip.self, ["trips", "update", "t", "--json-body", "-"], input: .text(body))
        #expect(fromBody.attributes.map(\.key) == ["note"])
        #expect(fromBody.tripStatus == .enrouteToPickup)
    }

    @Test(arguments: AdminTransport.allCases)
    func failuresExplainThemselvesAndExitWithTheirCode(transport: AdminTransport) throws {
        let fleet = try fleetWithCar(transport)
        let unknown = try fleet.run(["trips", "assign", "ghost", "car-1"])
        #expect(unknown.status == 15, "\(unknown)")
        #expect(unknown.error.hasPrefix("fleet-admin: NOT_FOUND: "))
        #expect(unknown.error.unwrapped.contains("gRPC 5, HTTP 404"))
        #expect(unknown.error.unwrapped.contains("Remedy: "))

        let malformed = try fleet.run(["trips", "create", "t", "--pickup", "north"])
        #expect(malformed.status == 2)
        #expect(malformed.error == "fleet-admin: --pickup: 'north' is not LAT,LNG in decimal degrees (like 52.52,13.40)\nSee 'fleet-admin trips create --help'.\n")

        let outOfRange = try fleet.run(["trips", "create", "t", "--pickup", "95,13.40"])
        #expect(outOfRange.status == 13)
        #expect(outOfRange.error.unwrapped.contains("INVALID_ARGUMENT"))
        #expect(outOfRange.error.unwrapped.contains("Field: trip.pickupPoint.point.latitude"))

        try fleet.succeed(["trips", "create", "t", "--pickup", "52.52,13.40", "--vehicle", "car-1"])
        let illegal = try fleet.run(["trips", "complete", "t"])
        #expect(illegal.status == 19)
        #expect(illegal.error.unwrapped.contains("NEW → COMPLETE: allowed next: ENROUTE_TO_PICKUP, CANCELED"))
        let busy = try fleet.run(["vehicles", "delete", "car-1"])
        #expect(busy.status == 19)
        let twice = try fleet.run(["trips", "create", "t", "--pickup", "52.52,13.40"])
        #expect(twice.status == 16)
        let badStatus = try fleet.run(["trips", "status", "t", "flying"])
        #expect(badStatus.status == 2)
        #expect(badStatus.error.hasPrefix("fleet-admin: <status>: 'flying' is not one of new, enroute-to-pickup,"))
    }
}
