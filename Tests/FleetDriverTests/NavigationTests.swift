import FleetDriver
import FleetErrors
import FleetGeo
import FleetLocation
import FleetModel
import FleetRouting
import Synchronization
import Testing

@Suite("Navigation: the route sent ends at the engine's waypoint")
struct NavigationTests {
    static let route = [Places.dam, Places.east(500), Geodesy.destination(from: Places.east(500), bearing: 0, meters: 500),
                        Geodesy.destination(from: Places.east(500), bearing: 0, meters: 1000)]

    @Test("The given route is cut where it passes the waypoint, which becomes its last point")
    func cutsAtWaypoint() throws {
        let waypoint = Geodesy.destination(from: Geodesy.destination(from: Places.east(500), bearing: 0, meters: 300), bearing: 90, meters: 20)
        let leg = Navigator.legPoints(route: Self.route, from: Places.east(100), to: waypoint, toleranceMeters: 50)
        #expect(leg.last == waypoint)
        #expect(Geodesy.distance(leg[0], Places.east(100)) < 0.5)
        #expect(leg.contains(Places.east(500)))
        #expect(!leg.contains(Self.route[3]), "the route beyond the waypoint is dropped")
    }

    @Test("A waypoint far from the route is appended after the nearest point; one behind the vehicle gets a straight line")
    func farAndBehind() {
        let far = Geodesy.destination(from: Self.route[3], bearing: 90, meters: 400)
        let leg = Navigator.legPoints(route: Self.route, from: Places.dam, to: far, toleranceMeters: 50)
        #expect(leg.last == far)
        #expect(leg.count >= 3)
        let behind = Navigator.legPoints(route: Self.route, from: Self.route[3], to: Places.east(100), toleranceMeters: 50)
        #expect(behind == [Self.route[3], Places.east(100)])
        #expect(Navigator.legPoints(route: nil, from: Places.dam, to: far, toleranceMeters: 50) == [Places.dam, far])
    }

    static let pickup = Geodesy.destination(from: Places.east(500), bearing: 0, meters: 300)

    /// A vehicle with a trip whose pickup lies on `route` and whose drop-off is the route's end.
    static func vehicleWithTrip(on server: FaultyEngine) throws -> VehicleName {
        let vehicle = try server.createVehicle()
        let dropoff = Self.route[3]
        _ = try server.createTrip(CreateTripRequest(parent: "providers/demo", tripId: "trip-1", trip: Trip(
            vehicleId: vehicle.vehicleID, tripType: .exclusive,
            pickupPoint: TerminalLocation(point: LatLng(latitude: pickup.latitude, longitude: pickup.longitude)),
            dropoffPoint: TerminalLocation(point: LatLng(latitude: dropoff.latitude, longitude: dropoff.longitude)))))
        return vehicle
    }

    @Test("The reporter sends route segment, end point, remaining distance and time, never the waypoints (the provider's)")
    func reporterNavigates() throws {
        let server = FaultyEngine()
        let vehicle = try Self.vehicleWithTrip(on: server)
        let time = ManualTimeSource(start: 1_800_000_000)
        let pickup = Self.pickup
        let engineWaypoints = try server.vehicle(vehicle).waypoints
        try #require(engineWaypoints.count == 2)

        let reporter = VehicleReporter(api: server, vehicle: .vehicle(vehicle), policy: ReporterPolicy(jitterSeed: 1), time: time,
                                       navigator: Navigator(route: Self.route, category: .auto))
        reporter.submit(Places.sample(Places.east(100), at: time.now()))
        #expect(reporter.tick() == .succeeded)
        let request = try #require(server.requests.last)
        #expect(request.updateMask?.paths == ["vehicleState", "lastLocation", "currentRouteSegment", "currentRouteSegmentEndPoint",
                                              "remainingDistanceMeters", "remainingTimeSeconds"])
        let body = try #require(request.vehicle)
        let segment = try Polyline.decode(try #require(body.currentRouteSegment))
        #expect(Geodesy.distance(try #require(segment.last), pickup) < 1, "the route ends at the engine's pickup waypoint")
        #expect(body.currentRouteSegmentEndPoint?.tripId == "trip-1")
        #expect(body.currentRouteSegmentEndPoint?.waypointType == .pickupWaypointType)
        let remaining = Double(try #require(body.remainingDistanceMeters))
        #expect(abs(remaining - 700) < 5, "400 m east then 300 m north, got \(remaining)")
        #expect((body.remainingTimeSeconds ?? 0) > 0)
        #expect(body.waypoints.isEmpty)
        #expect(try server.vehicle(vehicle).waypoints.map(\.tripId) == engineWaypoints.map(\.tripId))
        #expect(try server.vehicle(vehicle).currentRouteSegment != nil)

        // Moving along the same leg: only the location and the remaining figures change.
        time.advance(by: 10)
        reporter.submit(Places.sample(Places.east(200), at: time.now()))
        #expect(reporter.tick() == .succeeded)
        #expect(server.requests.last?.updateMask?.paths == ["lastLocation", "remainingDistanceMeters", "remainingTimeSeconds"])
    }

    /// On a running clock every reading is later than the one before: the waypoints must still be read when
    /// first due, so that the route reaches the engine (it once never did outside tests).
    @Test("On a running clock the waypoints are read and the route goes out with the first update")
    func routeGoesOutOnARunningClock() throws {
        let server = FaultyEngine()
        let vehicle = try Self.vehicleWithTrip(on: server)
        let time = ManualTimeSource(start: 1_800_000_000, step: 0.001)
        let reporter = VehicleReporter(api: server, vehicle: .vehicle(vehicle), policy: ReporterPolicy(jitterSeed: 1), time: time,
                                       navigator: Navigator(route: Self.route, category: .auto))
        for step in 0..<5 {
            reporter.submit(Places.sample(Places.east(100 + Double(step) * 20), at: time.now()))
            time.set(try #require(reporter.nextWakeTime))
            #expect(reporter.tick() == .succeeded)
        }
        let withRoute = server.requests.filter { $0.updateMask?.paths.contains("currentRouteSegment") == true }
        #expect(withRoute.count >= 1, "a route went out: \(server.requests.map { $0.updateMask?.paths ?? [] })")
        #expect(server.requests.first?.updateMask?.paths.contains("currentRouteSegment") == true, "with the first update")
        #expect(try server.vehicle(vehicle).currentRouteSegment != nil)
    }

    @Test("No route is sent before the engine's waypoints are read: the first update carrying one ends at the next waypoint",
          arguments: [
              (failedReads: 1, refreshSeconds: 30.0),  // the first read fails: a location-only update, the route after the next read
              (failedReads: 2, refreshSeconds: 30.0),
              (failedReads: 0, refreshSeconds: 0.0),   // no periodic refresh: still read once before planning
          ])
    func firstRouteEndsAtTheEnginesWaypoint(failedReads: Int, refreshSeconds: Double) throws {
        let server = FaultyEngine()
        let vehicle = try Self.vehicleWithTrip(on: server)
        for _ in 0..<failedReads { server.failNextGetVehicle(FleetError(.serverUnavailable)) }
        let time = ManualTimeSource(start: 1_800_000_000)
        let reporter = VehicleReporter(api: server, vehicle: .vehicle(vehicle), policy: ReporterPolicy(waypointRefreshSeconds: refreshSeconds, jitterSeed: 1),
                                       time: time, navigator: Navigator(route: Self.route, category: .auto))
        reporter.submit(Places.sample(Places.east(100), at: time.now()))
        #expect(reporter.tick() == .succeeded)
        for _ in 0..<failedReads {
            let request = try #require(server.requests.last)
            #expect(request.updateMask?.paths.contains("currentRouteSegment") == false, "no route before the waypoints are read")
            time.set(try #require(reporter.nextWakeTime, "the waypoints are read again at the next interval"))
            reporter.tick()
        }
        #expect(server.requests.count == (failedReads > 0 ? 2 : 1), "one location-only update, then the one with the route")
        let first = try #require(server.requests.first { $0.updateMask?.paths.contains("currentRouteSegment") == true })
        let segment = try Polyline.decode(try #require(first.vehicle?.currentRouteSegment))
        #expect(Geodesy.distance(try #require(segment.last), Self.pickup) < 1,
                "the route ends at the engine's pickup waypoint, not at the end of --route")
        #expect(first.vehicle?.currentRouteSegmentEndPoint?.tripId == "trip-1")
        #expect(first.vehicle?.currentRouteSegmentEndPoint?.waypointType == .pickupWaypointType)
        #expect(try server.vehicle(vehicle).currentRouteSegmentEndPoint?.waypointType == .pickupWaypointType)
    }

    /// A router that goes north (or south) first, then east (or west): a detour a straight line would miss.
    final class CornerRouter: Router {
        let calls = Mutex(0)
        var url: String { "test-corner" }
        func route(_ request: RouteRequest) throws(FleetError) -> RoutePlan {
            calls.withLock { $0 += 1 }
            let (from, to) = (request.waypoints[0], request.waypoints[request.waypoints.count - 1])
            let points = [from, GeoPoint(latitude: to.latitude, longitude: from.longitude), to]
            let first = Geodesy.distance(points[0], points[1])
            let meters = [0, first, first + Geodesy.distance(points[1], points[2])]
            return RoutePlan(points: points, cumulativeMeters: meters, cumulativeSeconds: meters.map { $0 / 10 },
                             waypointIndices: [0, 2], isEstimate: false)
        }
    }

    @Test("Without --route, a router plans the leg to the waypoint on roads; without a router it is a straight line")
    func routerPlansTheLeg() throws {
        let server = FaultyEngine()
        let vehicle = try Self.vehicleWithTrip(on: server)
        let time = ManualTimeSource(start: 1_800_000_000)
        let router = CornerRouter()
        let reporter = VehicleReporter(api: server, vehicle: .vehicle(vehicle), policy: ReporterPolicy(jitterSeed: 1), time: time,
                                       navigator: Navigator(route: nil, category: .auto, router: router))
        reporter.submit(Places.sample(Places.east(100), at: time.now()))
        #expect(reporter.tick() == .succeeded)
        let body = try #require(server.requests.last?.vehicle)
        let segment = try Polyline.decode(try #require(body.currentRouteSegment))
        #expect(segment.count == 3, "the corner route, not a straight line: \(segment)")
        #expect(Geodesy.distance(try #require(segment.last), Self.pickup) < 1)
        // The pickup is 400 m east and 300 m north of the vehicle: 700 m by the corner, 500 m straight.
        #expect(abs(Double(try #require(body.remainingDistanceMeters)) - 700) < 5)
        #expect(router.calls.withLock { $0 } == 1)

        // Along the planned leg, no new plan.
        time.advance(by: 10)
        reporter.submit(Places.sample(Geodesy.destination(from: Places.east(100), bearing: 0, meters: 100), at: time.now()))
        #expect(reporter.tick() == .succeeded)
        #expect(router.calls.withLock { $0 } == 1)
    }

    /// A router that finds no road route anywhere.
    struct NoRouteRouter: Router {
        var url: String { "test-no-route" }
        func route(_ request: RouteRequest) throws(FleetError) -> RoutePlan {
            throw FleetError(.routeNotFound, detail: "no road joins the points")
        }
    }

    @Test("A leg the router finds no road route for is the straight line, and says why")
    func aLegWithoutARoadRouteSaysWhy() throws {
        let target = Destination(point: Places.east(500))
        var routed = Navigator(route: nil, category: .auto, router: CornerRouter())
        routed.setDestinations([target])
        _ = routed.fields(at: Places.sample(Geodesy.destination(from: Places.dam, bearing: 0, meters: 300), at: 1_800_000_000), now: 1_800_000_000)
        #expect(routed.plannedLeg?.points.count == 3 && routed.plannedLeg?.roadError == nil)

        var unrouted = Navigator(route: nil, category: .auto, router: NoRouteRouter())
        unrouted.setDestinations([target])
        _ = unrouted.fields(at: Places.sample(Places.dam, at: 1_800_000_000), now: 1_800_000_000)
        let leg = try #require(unrouted.plannedLeg)
        #expect(leg.points == [Places.dam, Places.east(500)], "the straight line")
        #expect(leg.roadError?.code == .notFound, "\(String(describing: leg.roadError))")

        var plain = Navigator(route: nil, category: .auto)
        plain.setDestinations([target])
        _ = plain.fields(at: Places.sample(Places.dam, at: 1_800_000_000), now: 1_800_000_000)
        #expect(plain.plannedLeg != nil && plain.plannedLeg?.roadError == nil, "no router: a straight line, no error")
    }
}
