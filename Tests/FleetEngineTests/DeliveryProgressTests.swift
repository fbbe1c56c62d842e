import FleetEngine
import FleetErrors
import FleetGeo
import FleetModel
import FleetRouting
import FleetTestSupport
import MemoryStore
import Testing

/// The distance and time of each leg of a delivery vehicle's stops, and from the vehicle to its next stop:
/// great-circle estimates without a router, along roads with one, planned once per change of the stops.
@Suite struct DeliveryProgressTests {
    let a = (48.11, 11.52)
    let b = (48.12, 11.54)

    static func estimate(_ from: (Double, Double), _ to: (Double, Double)) -> Double {
        Geodesy.distance(GeoPoint(latitude: from.0, longitude: from.1), GeoPoint(latitude: to.0, longitude: to.1))
            * SpeedModel.standard.detourFactor
    }

    @Test func withoutARouterLegsAreGreatCircleEstimatesAtTheDefaultSpeed() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        try f.createTask("t1")
        try f.createTask("t2")
        let vehicle = try f.setStops("dv1", [Fixture.stop(a, ["t1"]), Fixture.stop(b, ["t2"])])
        let speed = SpeedModel.standard.defaultMetersPerSecond(for: .auto)
        let first = Self.estimate(Fixture.depot, a), second = Self.estimate(a, b)
        let segments = vehicle.remainingVehicleJourneySegments
        #expect(abs(Double(try #require(segments[0].drivingDistanceMeters)) - first) <= 1)
        #expect(abs(Double(try #require(segments[1].drivingDistanceMeters)) - second) <= 1)
        #expect(abs(try #require(segments[1].drivingDuration).timeInterval - second / speed) < 1)
        #expect(segments[1].path == [Fixture.point(a.0, a.1), Fixture.point(b.0, b.1)], "from the stop before")
        #expect(segments[0].path.first == Fixture.point(Fixture.depot.0, Fixture.depot.1), "the first from the vehicle")
        #expect(abs(Double(try #require(vehicle.remainingDistanceMeters)) - first) <= 1)
        #expect(abs(try #require(vehicle.remainingDuration).timeInterval - first / speed) < 1)
    }

    @Test func aMoveShortensTheWayToTheNextStopAndLeavesTheMeasuredLegs() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        try f.createTask("t1")
        let before = try f.setStops("dv1", [Fixture.stop(a, ["t1"])])
        f.clock.advance(seconds: 30)
        let halfway = (48.105, 11.51)
        let after = try f.moveDeliveryVehicle("dv1", to: halfway.0, halfway.1)
        #expect(abs(Double(try #require(after.remainingDistanceMeters)) - Self.estimate(halfway, a)) <= 1)
        #expect(after.remainingVehicleJourneySegments[0].drivingDistanceMeters == before.remainingVehicleJourneySegments[0].drivingDistanceMeters,
                "the first leg is measured from where the vehicle was when the stop was added")
    }

    @Test func aVehicleAtItsStopHasNothingLeftToDrive() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        try f.createTask("t1")
        let arrived = try f.setStops("dv1", [Fixture.stop(a, ["t1"], .arrived)])
        #expect(arrived.remainingDistanceMeters == 0)
        #expect(arrived.remainingDuration == .zero)
    }

    @Test func theObservedSpeedTimesTheWay() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        try f.createTask("t1")
        try f.setStops("dv1", [Fixture.stop((48.30, 11.50), ["t1"])])
        var vehicle = DeliveryVehicle()
        for step in 1...60 {  // ten minutes at a reported 3 m/s, slower than any car's default
            f.clock.advance(seconds: 10)
            vehicle = try f.moveDeliveryVehicle("dv1", to: 48.10 + Double(step) * 0.00027, 11.50, speed: 3)
        }
        let meters = Double(try #require(vehicle.remainingDistanceMeters))
        let seconds = try #require(vehicle.remainingDuration).timeInterval
        #expect(meters / seconds < 4, "about the observed 3 m/s: \(meters / seconds)")
    }

    /// A stop no road reaches (a pedestrian zone): the leg to it is a great-circle estimate at the default speed,
    /// the legs before and after keep their roads, and the vehicle names the leg by its stop.
    @Test func aStopWithoutARoadEstimatesOnlyItsLeg() throws {
        let c = (48.11, 11.56)
        let router = LRouter()
        router.noRoadTo.withLock { $0 = GeoPoint(latitude: b.0, longitude: b.1) }
        let f = Fixture(router: router)
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        for id in ["t1", "t2", "t3"] { try f.createTask(id) }
        let vehicle = try f.setStops("dv1", [Fixture.stop(a, ["t1"]), Fixture.stop(b, ["t2"]), Fixture.stop(c, ["t3"])])
        #expect(vehicle.estimatedLegs.map(\.leg) == [1], "the leg to stop 1")
        #expect(vehicle.estimatedLegs.first?.cause == "ROUTE_NOT_FOUND")
        let segments = vehicle.remainingVehicleJourneySegments
        #expect(segments[1].path == [Fixture.point(a.0, a.1), Fixture.point(b.0, b.1)], "a straight line")
        #expect(abs(Double(try #require(segments[1].drivingDistanceMeters)) - Self.estimate(a, b)) <= 1)
        #expect(abs(try #require(segments[1].drivingDuration).timeInterval - Self.estimate(a, b) / (40 / 3.6)) < 0.5,
                "the category's default speed")
        // The legs on either side are the router's Ls.
        #expect(segments[2].path == [Fixture.point(b.0, b.1), Fixture.point(c.0, b.1), Fixture.point(c.0, c.1)])
        let south = Geodesy.distance(GeoPoint(latitude: b.0, longitude: b.1), GeoPoint(latitude: c.0, longitude: b.1))
        let east = Geodesy.distance(GeoPoint(latitude: c.0, longitude: b.1), GeoPoint(latitude: c.0, longitude: c.1))
        #expect(abs(Double(try #require(segments[2].drivingDistanceMeters)) - (south + east)) <= 1)
        #expect(segments[0].path.count == 3, "depot, corner, stop 0: \(segments[0].path)")
        #expect(try f.deliveryVehicle("dv1").estimatedLegs == vehicle.estimatedLegs, "kept with the vehicle")
    }

    @Test func withARouterTheLegsFollowTheRoadsPlannedOnce() throws {
        let router = LRouter()
        let f = Fixture(router: router)
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        try f.createTask("t1")
        try f.createTask("t2")
        let vehicle = try f.setStops("dv1", [Fixture.stop(a, ["t1"]), Fixture.stop(b, ["t2"])])
        #expect(router.count == 1, "one plan through the vehicle and every stop")
        let segments = vehicle.remainingVehicleJourneySegments
        // An L: north, then east.
        #expect(segments[1].path == [Fixture.point(a.0, a.1), Fixture.point(b.0, a.1), Fixture.point(b.0, b.1)])
        let north = Geodesy.distance(GeoPoint(latitude: a.0, longitude: a.1), GeoPoint(latitude: b.0, longitude: a.1))
        let east = Geodesy.distance(GeoPoint(latitude: b.0, longitude: a.1), GeoPoint(latitude: b.0, longitude: b.1))
        #expect(abs(Double(try #require(segments[1].drivingDistanceMeters)) - (north + east)) <= 1)
        #expect(abs(try #require(segments[1].drivingDuration).timeInterval - (north + east) / 10) < 0.5, "the router's time")
        #expect(vehicle.remainingDistanceMeters == segments[0].drivingDistanceMeters)
        #expect(try f.task("t1").journeySharingInfo?.lastLocationSnappable == true)

        // Along the first leg (north from the depot), updates only snap to it.
        var previous = try #require(vehicle.remainingDistanceMeters)
        for step in 1...5 {
            f.clock.advance(seconds: 10)
            let moved = try f.moveDeliveryVehicle("dv1", to: Fixture.depot.0 + Double(step) * 0.001, Fixture.depot.1)
            let remaining = try #require(moved.remainingDistanceMeters)
            #expect(remaining < previous)
            previous = remaining
        }
        #expect(router.count == 1, "no plan on any update along the leg")
        #expect(try f.task("t2").journeySharingInfo?.remainingVehicleJourneySegments[0].path.first?.latitude ?? 0 > 48.104,
                "the path to the next stop starts where the vehicle is")
    }

    @Test func aChangeOfStopsPlansAtOnceAndStrayingAtMostOncePerInterval() throws {
        let router = LRouter()
        let f = Fixture(router: router)
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        try f.createTask("t1")
        try f.createTask("t2")
        try f.setStops("dv1", [Fixture.stop(a, ["t1"]), Fixture.stop(b, ["t2"])])
        try f.setStops("dv1", [Fixture.stop(a, ["t1"], .enroute), Fixture.stop(b, ["t2"])])
        #expect(router.count == 1, "a state change keeps the places: no plan")
        try f.setStops("dv1", [Fixture.stop(b, ["t2"])])
        #expect(router.count == 2, "the first stop served: a new plan from where the vehicle is")
        // Far off the planned leg (found by the update that lands there): a new plan on the next update,
        // but never within minimumReplanSeconds (10 s) of the last plan.
        f.clock.advance(seconds: 1)
        try f.moveDeliveryVehicle("dv1", to: 48.05, 11.40)
        f.clock.advance(seconds: 1)
        try f.moveDeliveryVehicle("dv1", to: 48.051, 11.40)
        #expect(router.count == 2, "2 s after the last plan")
        f.clock.advance(seconds: 10)
        try f.moveDeliveryVehicle("dv1", to: 48.052, 11.40)
        #expect(router.count == 3, "the new plan starts where the vehicle is")
        f.clock.advance(seconds: 2)
        try f.moveDeliveryVehicle("dv1", to: 48.03, 11.30)
        f.clock.advance(seconds: 2)
        try f.moveDeliveryVehicle("dv1", to: 48.031, 11.30)
        #expect(router.count == 3, "within minimumReplanSeconds of the last plan")
        f.clock.advance(seconds: 20)
        try f.moveDeliveryVehicle("dv1", to: 48.02, 11.20)
        #expect(router.count == 4)
    }

    /// The stops the legs were measured for are kept with the vehicle, so that any engine on the store
    /// measures them again exactly when the places or their order change, whoever measured them last.
    /// (Each change comes from the engine that wrote last: a write from a stale copy runs again after
    /// its conflict, and its first run may plan for stops that were already replaced.)
    @Test func twoEnginesOnOneStoreMeasureTheLegsOncePerChangeOfPlaces() throws {
        let router = LRouter()
        var configuration = EngineConfiguration()
        configuration.router = router
        let store = MemoryStore()
        let f = Fixture(store: store, configuration: configuration)
        let other = Fixture(store: store, configuration: configuration)
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        try f.createTask("t1")
        try f.createTask("t2")
        try f.setStops("dv1", [Fixture.stop(a, ["t1"]), Fixture.stop(b, ["t2"])])
        #expect(router.count == 1)
        // The other engine decodes the stored vehicle: its location reports keep the legs.
        for step in 1...3 {
            try other.moveDeliveryVehicle("dv1", to: Fixture.depot.0 + Double(step) * 0.001, Fixture.depot.1)
            try f.moveDeliveryVehicle("dv1", to: Fixture.depot.0 + Double(step) * 0.001, Fixture.depot.1 + 0.0001)
        }
        #expect(router.count == 1, "no engine measures stops it did not see change")
        // The same places in the other order; the other engine's next report keeps the new legs.
        try f.setStops("dv1", [Fixture.stop(b, ["t2"]), Fixture.stop(a, ["t1"])])
        #expect(router.count == 2)
        try other.moveDeliveryVehicle("dv1", to: 48.104, 11.5)
        #expect(router.count == 2)
        // One place moved by a metre, by the other engine; this one's next report keeps its legs.
        let moved = try other.setStops("dv1", [Fixture.stop(b, ["t2"]), Fixture.stop((a.0 + 0.00001, a.1), ["t1"])])
        #expect(router.count == 3)
        #expect(moved.remainingVehicleJourneySegments[1].path.last == Fixture.point(a.0 + 0.00001, a.1))
        try f.moveDeliveryVehicle("dv1", to: 48.1041, 11.5)
        #expect(router.count == 3)
        // A state change keeps the places.
        try f.setStops("dv1", [Fixture.stop(b, ["t2"], .enroute), Fixture.stop((a.0 + 0.00001, a.1), ["t1"])])
        #expect(router.count == 3)
    }

    @Test func stopsChangedTwiceInOneInstantAreFollowedByTheLatestPlan() throws {
        let router = LRouter()
        let f = Fixture(router: router)
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        try f.createTask("t1")
        try f.createTask("t2")
        try f.setStops("dv1", [Fixture.stop(a, ["t1"])])
        let changed = try f.setStops("dv1", [Fixture.stop(b, ["t2"])])
        #expect(router.count == 2)
        #expect(changed.remainingDistanceMeters == changed.remainingVehicleJourneySegments[0].drivingDistanceMeters,
                "along the new first leg, to b")
        #expect(changed.remainingVehicleJourneySegments[0].path.last == Fixture.point(b.0, b.1))
    }

    @Test func aFailedPlanFallsBackToEstimatesAndIsTriedAgainLater() throws {
        let router = LRouter()
        router.failing.withLock { $0 = true }
        let f = Fixture(router: router)
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        try f.createTask("t1")
        let vehicle = try f.setStops("dv1", [Fixture.stop(a, ["t1"])])
        #expect(abs(Double(try #require(vehicle.remainingDistanceMeters)) - Self.estimate(Fixture.depot, a)) <= 1)
        router.failing.withLock { $0 = false }
        f.clock.advance(seconds: 1)
        try f.moveDeliveryVehicle("dv1", to: Fixture.depot.0, Fixture.depot.1)
        #expect(router.count == 1, "not before minimumReplanSeconds")
        f.clock.advance(seconds: 15)
        let planned = try f.moveDeliveryVehicle("dv1", to: Fixture.depot.0, Fixture.depot.1)
        #expect(router.count == 2)
        #expect(planned.remainingVehicleJourneySegments[0].path.count == 3, "the L")
    }

    @Test func theDriversRouteToTheNextStopIsFollowedAndOneToElsewhereIsNot() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        try f.createTask("t1")
        try f.setStops("dv1", [Fixture.stop(a, ["t1"])])
        let corner = GeoPoint(latitude: a.0, longitude: Fixture.depot.1)
        let depot = GeoPoint(latitude: Fixture.depot.0, longitude: Fixture.depot.1)
        let stop = GeoPoint(latitude: a.0, longitude: a.1)
        func send(_ points: [GeoPoint]) throws -> DeliveryVehicle {
            try f.engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
                deliveryVehicle: DeliveryVehicle(name: f.deliveryVehicleName("dv1"), currentRouteSegment: ProtoBytes(Array(Polyline.encode(points).utf8))),
                updateMask: FieldMask(["currentRouteSegment"])))
        }
        let followed = try send([depot, corner, stop])
        let along = Geodesy.distance(depot, corner) + Geodesy.distance(corner, stop)
        #expect(abs(Double(try #require(followed.remainingDistanceMeters)) - along) <= 2)
        #expect(try f.task("t1").journeySharingInfo?.lastLocationSnappable == true)
        let elsewhere = try send([depot, corner])
        #expect(abs(Double(try #require(elsewhere.remainingDistanceMeters)) - Self.estimate(Fixture.depot, a)) <= 1,
                "a route that ends away from the next stop is not used")
    }

    /// A router as Routino is: its route starts where it joins the roads (here 70 m south of the vehicle),
    /// its own distance figures are some percent shorter than its points' (4 % here), and its time is its
    /// own (8 m/s, slower than a car's default speed).
    final class RoadsAwayRouter: Router {
        var url: String { "test-roads-away" }

        func route(_ request: RouteRequest) throws(FleetError) -> RoutePlan {
            let start = request.waypoints[0]
            var points = [GeoPoint(latitude: start.latitude - 70 / 111_195, longitude: start.longitude)]
            var indices = [0]
            for next in request.waypoints.dropFirst() {
                points.append(next)
                indices.append(points.count - 1)
            }
            var meters = [0.0]
            for i in points.indices.dropFirst() { meters.append(meters[i - 1] + Geodesy.distance(points[i - 1], points[i]) * 0.96) }
            return RoutePlan(points: points, cumulativeMeters: meters, cumulativeSeconds: meters.map { $0 / 8 },
                             waypointIndices: indices, isEstimate: false)
        }
    }

    @Test func theFirstLegIsTheWayLeftToTheStopWhenTheStopIsAdded() throws {
        let f = Fixture(router: RoadsAwayRouter())
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        try f.createTask("t1")
        try f.createTask("t2")
        let vehicle = try f.setStops("dv1", [Fixture.stop(a, ["t1"]), Fixture.stop(b, ["t2"])])
        let segments = vehicle.remainingVehicleJourneySegments
        // Google: the first leg is measured "from the vehicle's location recorded at the time that this stop
        // was added", the remaining figures from its latest location: here the same place, so the same way.
        let remaining = try #require(vehicle.remainingDistanceMeters)
        #expect(segments[0].drivingDistanceMeters == remaining)
        #expect(segments[0].drivingDuration == vehicle.remainingDuration)
        // The way from the depot to the road is driven too: the leg is longer than the straight line to the stop.
        let depot = GeoPoint(latitude: Fixture.depot.0, longitude: Fixture.depot.1)
        let road = GeoPoint(latitude: Fixture.depot.0 - 70 / 111_195, longitude: Fixture.depot.1)
        let stopA = GeoPoint(latitude: a.0, longitude: a.1), stopB = GeoPoint(latitude: b.0, longitude: b.1)
        let way = Geodesy.distance(depot, road) + Geodesy.distance(road, stopA)
        #expect(abs(Double(remaining) - way) <= 2, "\(remaining) m, the way is \(way) m")
        // A later leg is as long as its path, as the remaining distance will be measured along it; its time is the router's.
        let second = Geodesy.distance(stopA, stopB)
        #expect(abs(Double(try #require(segments[1].drivingDistanceMeters)) - second) <= 1)
        #expect(abs(try #require(segments[1].drivingDuration).timeInterval - second * 0.96 / 8) < 0.5)

        // The van drives on: the remaining figures shrink; the leg stays as it was measured.
        f.clock.advance(seconds: 30)
        let moved = try f.moveDeliveryVehicle("dv1", to: road.latitude, road.longitude)
        #expect(try #require(moved.remainingDistanceMeters) < remaining)
        #expect(moved.remainingVehicleJourneySegments[0].drivingDistanceMeters == remaining)
    }
}
