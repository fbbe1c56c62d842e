import FleetEngine
import FleetGeo
import FleetLearning
import FleetModel
import FleetTestSupport
import Testing

/// SearchVehicles ordered by ETA times the candidates' road routes with what the fleet learned, as their trips would.
@Suite struct LearnedSearchTests {
    let pickup = (52.51, 13.42)

    /// The street north from (52.5005, 13.42) to the pickup, learned at 2 m/s at every hour of the week.
    func slowStreet() -> [PieceObservation] {
        LearnedRoads.everyHour(along: [GeoPoint(latitude: 52.5, longitude: 13.42), GeoPoint(latitude: 52.511, longitude: 13.42)],
                               metersPerSecond: 2)
    }

    /// "street" is 1,056 m from the pickup up the slow street; "around" 1,684 m by the L router's roads elsewhere.
    func search(_ f: Fixture) throws -> [VehicleMatch] {
        try f.createVehicle("street", at: (52.5005, 13.42))
        try f.createVehicle("around", at: (52.504, 13.405))
        return try f.engine.searchVehicles(SearchVehiclesRequest(
            parent: f.parent, pickupPoint: Fixture.terminal(pickup.0, pickup.1), pickupRadiusMeters: 2000, count: 2,
            minimumCapacity: 1, tripTypes: [.exclusive], vehicleTypes: [VehicleType(category: .auto)],
            orderBy: .pickupPointEta)).matches
    }

    func names(_ matches: [VehicleMatch]) -> [String] {
        matches.compactMap { $0.vehicle?.name?.split(separator: "/").last.map(String.init) }
    }

    @Test func aLearnedSlowStreetPutsTheVehicleOnItSecondAndItsETAIsTheTrips() throws {
        let plain = Fixture(router: LRouter())
        #expect(names(try search(plain)) == ["street", "around"], "by road distance at the default speed")

        let f = Fixture(router: LRouter())
        try f.engine.learnedTimesStorage.add(slowStreet(), provider: f.provider)
        let matches = try search(f)
        #expect(names(matches) == ["around", "street"])
        let street = try #require(matches.last)
        let now = f.clock.now().timeIntervalSince1970
        let searched = try #require(street.vehiclePickupEta).timeIntervalSince1970 - now
        // 1,056 m at 2 m/s is 528 s; the vehicle's own pace (the default 11 m/s) weighs in over the first 250 m.
        #expect(searched > 440 && searched < 540, "\(searched) s")
        #expect(street.vehiclePickupDistanceMeters.map { abs(Double($0) - 1056) < 5 } == true)
        let waypointETA = try #require(street.vehicleTripsWaypoints.last?.eta).timeIntervalSince1970 - now
        #expect(abs(waypointETA - searched) < 0.01)

        // Ordered by distance, the learned times change nothing.
        let byDistance = try f.engine.searchVehicles(SearchVehiclesRequest(
            parent: f.parent, pickupPoint: Fixture.terminal(pickup.0, pickup.1), pickupRadiusMeters: 2000, count: 2,
            minimumCapacity: 1, tripTypes: [.exclusive], vehicleTypes: [VehicleType(category: .auto)],
            orderBy: .pickupPointDistance)).matches
        #expect(names(byDistance) == ["street", "around"])

        // The trip then assigned to it shows the same pickup ETA.
        try f.createTrip("t1", pickup: pickup, dropoff: (52.51, 13.45), vehicle: "street")
        let trip = try f.trip("t1")
        let shown = try #require(trip.pickupTime).timeIntervalSince1970 - now
        #expect(abs(shown - searched) < 3, "trip \(shown) s, search \(searched) s")

    }

    @Test func withLearnedETAsOffTheSearchKeepsTheDefaultSpeed() throws {
        var off = EngineConfiguration()
        off.router = LRouter()
        off.learnedETAs = nil
        let f = Fixture(configuration: off)
        try f.engine.learnedTimesStorage.add(slowStreet(), provider: f.provider)
        #expect(names(try search(f)) == ["street", "around"])
    }
}
