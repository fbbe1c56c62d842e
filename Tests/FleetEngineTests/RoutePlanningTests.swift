import FleetEngine
import FleetErrors
import FleetGeo
import FleetModel
import FleetRouting
import FleetTestSupport
import Synchronization
import Testing

/// The engine plans routes on roads for vehicles with trips whose drivers send none.
@Suite struct RoutePlanningTests {
    // The vehicle starts at (52.50, 13.40); the pickup is 0.01° north and 0.02° east; the dropoff further east.
    let pickup = (52.51, 13.42)
    let dropoff = (52.51, 13.46)

    func fixture(_ router: LRouter) -> Fixture {
        Fixture(router: router)
    }

    @Test func aVehicleWithATripGetsARoadRouteAndRoadDistances() throws {
        let router = LRouter()
        let f = fixture(router)
        try f.createVehicle("v1", at: (52.50, 13.40))
        try f.createTrip("t1", pickup: pickup, dropoff: dropoff, vehicle: "v1")
        #expect(router.count == 1, "assigning the trip plans the route")
        let vehicle = try f.vehicle("v1")
        let points = try Polyline.decode(try #require(vehicle.currentRouteSegment))
        #expect(points.count == 5, "start, corner, pickup, corner, dropoff")
        let trip = try f.trip("t1")
        // The L: 0.01° north (~1112 m) then 0.02° east (~1354 m); a straight line times 1.3 would be ~2270 m.
        let distance = Double(try #require(trip.remainingDistanceMeters))
        #expect(abs(distance - 2466) < 15, "along the planned roads: \(distance) m")
        #expect(trip.lastLocationSnappable == true)
        #expect(!trip.route.isEmpty, "the rider sees the planned route")
    }

    @Test func updatesAlongThePlanOnlySnapToIt() throws {
        let router = LRouter()
        let f = fixture(router)
        try f.createVehicle("v1", at: (52.50, 13.40))
        try f.createTrip("t1", pickup: pickup, dropoff: dropoff, vehicle: "v1")
        var previous = Int32.max
        for step in 1...9 {
            f.clock.advance(seconds: 10)
            try f.move("v1", to: 52.50 + Double(step) * 0.001, 13.40)
            let distance = try #require(try f.trip("t1").remainingDistanceMeters)
            #expect(distance < previous)
            previous = distance
        }
        #expect(router.count == 1, "no plan on any update along the route")
    }

    @Test func aVehicleThatStraysIsPlannedAgainButNeverOnEveryUpdate() throws {
        let router = LRouter()
        let f = fixture(router)
        try f.createVehicle("v1", at: (52.50, 13.40))
        try f.createTrip("t1", pickup: pickup, dropoff: dropoff, vehicle: "v1")
        f.clock.advance(seconds: 10)
        try f.move("v1", to: 52.50, 13.405)  // ~340 m east of the planned road north: off route
        #expect(router.count == 1, "the update that finds it astray snaps; the next one plans")
        f.clock.advance(seconds: 10)
        try f.move("v1", to: 52.50, 13.406)
        #expect(router.count == 2)
        let points = try Polyline.decode(try #require(try f.vehicle("v1").currentRouteSegment))
        #expect(Geodesy.distance(points[0], GeoPoint(latitude: 52.50, longitude: 13.406)) < 1, "the new plan starts where the vehicle is")
        // Astray again at once (1 s later): no plan before minimumReplanSeconds.
        for _ in 0..<3 {
            f.clock.advance(seconds: 1)
            try f.move("v1", to: 52.49, 13.406)
        }
        #expect(router.count == 2)
        f.clock.advance(seconds: 10)
        try f.move("v1", to: 52.49, 13.407)
        #expect(router.count == 3)
    }

    @Test func theDriversRouteWins() throws {
        let router = LRouter()
        let f = fixture(router)
        try f.createVehicle("v1", at: (52.50, 13.40))
        try f.createTrip("t1", pickup: pickup, dropoff: dropoff, vehicle: "v1")
        let drivers = Polyline.encode([GeoPoint(latitude: 52.50, longitude: 13.40), GeoPoint(latitude: 52.51, longitude: 13.42)])
        _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName("v1"), vehicle: Vehicle(currentRouteSegment: drivers),
                                                            updateMask: ["currentRouteSegment"]))
        for step in 1...3 {
            f.clock.advance(seconds: 20)
            try f.move("v1", to: 52.50 + Double(step) * 0.0001, 13.40 + Double(step) * 0.0002)
        }
        try f.move("v1", to: 52.40, 13.40)  // far off the driver's route: still the driver's to fix
        f.clock.advance(seconds: 20)
        try f.move("v1", to: 52.40, 13.401)
        #expect(router.count == 1)
        #expect(try f.vehicle("v1").currentRouteSegment == drivers)
    }

    @Test func aChangeOfWaypointsPlansAtOnceAndTheEndOfTheTripDropsThePlan() throws {
        let router = LRouter()
        let f = fixture(router)
        try f.createVehicle("v1", at: (52.50, 13.40))
        try f.createTrip("t1", pickup: pickup, dropoff: dropoff, vehicle: "v1")
        try f.setStatus("t1", .enrouteToPickup)
        try f.move("v1", to: pickup.0, pickup.1)
        try f.setStatus("t1", .arrivedAtPickup)
        try f.setStatus("t1", .enrouteToDropoff)
        #expect(router.count == 2, "the pickup done, the route to the dropoff is planned")
        let points = try Polyline.decode(try #require(try f.vehicle("v1").currentRouteSegment))
        #expect(Geodesy.distance(try #require(points.last), GeoPoint(latitude: dropoff.0, longitude: dropoff.1)) < 1)
        try f.move("v1", to: dropoff.0, dropoff.1)
        try f.setStatus("t1", .complete)
        #expect(try f.vehicle("v1").currentRouteSegment == nil, "no waypoints, no plan")
    }

    @Test func whenTheRouterFailsTheEstimatesStayAndItIsAskedAgainLater() throws {
        let router = LRouter()
        router.failing.withLock { $0 = true }
        let f = fixture(router)
        try f.createVehicle("v1", at: (52.50, 13.40))
        try f.createTrip("t1", pickup: pickup, dropoff: dropoff, vehicle: "v1")
        #expect(router.count == 1)
        let trip = try f.trip("t1")
        #expect(trip.remainingDistanceMeters != nil, "a great-circle estimate")
        #expect(trip.lastLocationSnappable == false)
        f.clock.advance(seconds: 5)
        try f.move("v1", to: 52.5001, 13.40)
        #expect(router.count == 1, "not before minimumReplanSeconds")
        router.failing.withLock { $0 = false }
        f.clock.advance(seconds: 10)
        try f.move("v1", to: 52.5002, 13.40)
        #expect(router.count == 2)
        #expect(try f.vehicle("v1").currentRouteSegment != nil)
    }

    /// A trip through a pedestrian zone (an intermediate destination no road reaches): the legs to the pickup and
    /// from the zone to the dropoff keep their roads; only the leg into the zone is a straight line, and the
    /// vehicle says which and why, and the log once.
    @Test func aLegWithoutARoadIsEstimatedAndTheOthersKeepTheirRoads() throws {
        let zone = (52.52, 13.44)
        let router = LRouter()
        router.noRoadTo.withLock { $0 = GeoPoint(latitude: zone.0, longitude: zone.1) }
        let lines = Mutex<[String]>([])
        var configuration = EngineConfiguration()
        configuration.router = router
        configuration.log = { line in lines.withLock { $0.append(line) } }
        let f = Fixture(configuration: configuration)
        try f.createVehicle("v1", at: (52.50, 13.40))
        try f.createTrip("t1", pickup: pickup, dropoff: dropoff, vehicle: "v1", intermediates: [zone])
        let vehicle = try f.vehicle("v1")
        #expect(vehicle.estimatedLegs.map(\.leg) == [1], "the leg to waypoint 1, the zone")
        #expect(vehicle.estimatedLegs.first?.cause == "ROUTE_NOT_FOUND")
        #expect(vehicle.estimatedLegs.first?.reason?.contains("no motorcar route") == true)
        let points = try Polyline.decode(try #require(vehicle.currentRouteSegment, "the road legs are planned"))
        let expected = [(52.50, 13.40), (52.51, 13.40), pickup, zone, (52.51, 13.44), dropoff]
        #expect(points.count == expected.count, "L, straight, L: \(points)")
        for (point, place) in zip(points, expected) {
            #expect(Geodesy.distance(point, GeoPoint(latitude: place.0, longitude: place.1)) < 1)
        }
        // The L legs' road distances (~1112 m north or south, ~1354 m east); the zone's leg is the straight line drawn.
        let legs = vehicle.waypoints.map { Double($0.distanceMeters ?? 0) }
        #expect(abs(legs[0] - 2466) < 15, "\(legs)")
        #expect(abs(legs[2] - 2466) < 15, "\(legs)")
        let straight = Geodesy.distance(GeoPoint(latitude: pickup.0, longitude: pickup.1), GeoPoint(latitude: zone.0, longitude: zone.1))
        #expect(abs(legs[1] - straight) < 15, "\(legs)")
        let logged = lines.withLock { $0 }
        #expect(logged.count == 1, "\(logged)")
        #expect(logged.first?.contains("providers/test-project/vehicles/v1") == true)
        #expect(logged.first?.contains("waypoint 2 (trip t1 INTERMEDIATE_DESTINATION_WAYPOINT_TYPE)") == true, "\(logged)")
        #expect(logged.first?.contains("ROUTE_NOT_FOUND") == true)

        // Updates along the plan neither plan nor log again; once the zone is served, every leg is on roads.
        for step in 1...3 {
            f.clock.advance(seconds: 10)
            try f.move("v1", to: 52.50 + Double(step) * 0.001, 13.40)
        }
        #expect(lines.withLock { $0.count } == 1)
        #expect(router.count == 4, "the whole route, then each of its three legs")
        router.noRoadTo.withLock { $0 = nil }
        try f.setStatus("t1", .enrouteToPickup)
        try f.move("v1", to: pickup.0, pickup.1)
        try f.setStatus("t1", .arrivedAtPickup)
        try f.setStatus("t1", .enrouteToIntermediateDestination, index: 0)
        #expect(try f.vehicle("v1").estimatedLegs.isEmpty)
        #expect(lines.withLock { $0.last?.contains("every leg of its route is on roads again") } == true)
    }

    @Test func withoutARouterNothingIsPlanned() throws {
        let f = Fixture()
        try f.createVehicle("v1", at: (52.50, 13.40))
        try f.createTrip("t1", pickup: pickup, dropoff: dropoff, vehicle: "v1")
        #expect(try f.vehicle("v1").currentRouteSegment == nil)
    }

    /// Vehicle "diagonal" is nearer as the crow flies (~900 m) but ~1,280 m away by the L router's roads;
    /// "south" is ~1,060 m away both ways.
    func searchFleet(_ f: Fixture) throws -> SearchVehiclesRequest {
        try f.createVehicle("diagonal", at: (52.504, 13.411))
        try f.createVehicle("south", at: (52.5005, 13.42))
        return SearchVehiclesRequest(parent: f.parent, pickupPoint: Fixture.terminal(52.51, 13.42), pickupRadiusMeters: 2000,
                                     count: 2, minimumCapacity: 1, tripTypes: [.exclusive],
                                     vehicleTypes: [VehicleType(category: .auto)], orderBy: .pickupPointEta)
    }

    @Test func searchVehiclesRanksByRoadETAs() throws {
        let router = LRouter()
        let f = fixture(router)
        let request = try searchFleet(f)
        let matches = try f.engine.searchVehicles(request).matches
        #expect(matches.map { $0.vehicle?.name?.split(separator: "/").last.map(String.init) } == ["south", "diagonal"])
        let south = try #require(matches.first)
        #expect(abs(Double(try #require(south.vehiclePickupDistanceMeters)) - 1056) < 5, "the road distance")
        #expect(abs(Double(try #require(matches.last?.vehiclePickupDistanceMeters)) - 1276) < 10)
        #expect(router.count == 2)
        _ = try f.engine.searchVehicles(request)
        #expect(router.count == 2, "the same search again is answered from the cache")

        // Without a router the great-circle estimate ranks them the other way round.
        let plain = Fixture()
        let estimated = try plain.engine.searchVehicles(try searchFleet(plain)).matches
        #expect(estimated.first?.vehicle?.name?.hasSuffix("/diagonal") == true)
    }

    @Test func searchRoutesOnlyTheCandidatesThatCanMakeTheAnswer() throws {
        let router = LRouter()
        let f = fixture(router)
        try f.createVehicle("near", at: (52.5095, 13.42))
        for i in 0..<30 { try f.createVehicle("far-\(i)", at: (52.495 - Double(i) * 0.0001, 13.42)) }
        let matches = try f.engine.searchVehicles(SearchVehiclesRequest(
            parent: f.parent, pickupPoint: Fixture.terminal(52.51, 13.42), pickupRadiusMeters: 3000, count: 1, minimumCapacity: 1,
            tripTypes: [.exclusive], vehicleTypes: [VehicleType(category: .auto)], orderBy: .pickupPointEta)).matches
        #expect(matches.first?.vehicle?.name?.hasSuffix("/near") == true)
        #expect(router.count == 1, "the nearest vehicle's road route beats every other's lower bound: one route")
    }
}
