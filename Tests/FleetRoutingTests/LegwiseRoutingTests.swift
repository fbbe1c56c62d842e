import FleetErrors
import FleetGeo
import FleetRouting
import StraightRouter
import FleetTestSupport
import Testing

/// A plan whose legs cannot all be routed keeps the road legs and estimates only the others, saying why.
struct LegwiseRoutingTests {
    let start = GeoPoint(latitude: 52.50, longitude: 13.40)
    let pickup = GeoPoint(latitude: 52.51, longitude: 13.42)
    let pedestrianZone = GeoPoint(latitude: 52.52, longitude: 13.44)
    let dropoff = GeoPoint(latitude: 52.51, longitude: 13.46)

    /// Distance and time of leg `index` of `plan`.
    func leg(_ plan: RoutePlan, _ index: Int) -> (meters: Double, seconds: Double) {
        let a = plan.arrival(atWaypoint: index), b = plan.arrival(atWaypoint: index + 1)
        return (b.meters - a.meters, b.seconds - a.seconds)
    }

    @Test func theLegWithoutARoadIsEstimatedAndTheOthersKeepTheirRoads() throws {
        let router = LRouter()
        router.noRoadTo.withLock { $0 = pedestrianZone }
        let request = RouteRequest(waypoints: [start, pickup, pedestrianZone, dropoff], category: .auto)
        let plan = try router.routeLegs(request)
        #expect(!plan.isEstimate)
        #expect(plan.estimatedLegs.map(\.leg) == [1])
        #expect(plan.estimatedLegs.first?.cause == ErrorCause.routeNotFound.id)
        #expect(plan.estimatedLegs.first?.reason.contains("no motorcar route") == true)
        #expect(plan.isEstimated(leg: 1) && !plan.isEstimated(leg: 0) && !plan.isEstimated(leg: 2))

        // The road legs are the router's own, point for point, metre for metre.
        let first = try router.route(RouteRequest(from: start, to: pickup))
        let last = try router.route(RouteRequest(from: pedestrianZone, to: dropoff))
        #expect(Array(plan.points[plan.waypointIndices[0]...plan.waypointIndices[1]]) == first.points)
        #expect(Array(plan.points[plan.waypointIndices[2]...plan.waypointIndices[3]]) == last.points)
        #expect(abs(leg(plan, 0).meters - first.distanceMeters) < 1e-6)
        #expect(abs(leg(plan, 0).seconds - first.durationSeconds) < 1e-6)
        #expect(abs(leg(plan, 2).meters - last.distanceMeters) < 1e-6)
        #expect(abs(leg(plan, 2).seconds - last.durationSeconds) < 1e-6)

        // The estimated leg is what the straight router says of it: a straight line, 1.3 times the great circle, at 40 km/h.
        let straight = try StraightRouter().route(RouteRequest(from: pickup, to: pedestrianZone, category: .auto))
        #expect(Array(plan.points[plan.waypointIndices[1]...plan.waypointIndices[2]]) == [pickup, pedestrianZone])
        #expect(abs(leg(plan, 1).meters - straight.distanceMeters) < 1e-6)
        #expect(abs(leg(plan, 1).seconds - straight.durationSeconds) < 1e-6)
        #expect(abs(plan.distanceMeters - first.distanceMeters - straight.distanceMeters - last.distanceMeters) < 1e-6)
    }

    @Test func aPlanOnRoadsAsksTheRouterOnce() throws {
        let router = LRouter()
        let plan = try router.routeLegs(RouteRequest(waypoints: [start, pickup, pedestrianZone, dropoff]))
        #expect(router.count == 1)
        #expect(plan == (try router.route(RouteRequest(waypoints: [start, pickup, pedestrianZone, dropoff]))))
        #expect(plan.estimatedLegs.isEmpty)
    }

    @Test func whenNoLegHasARoadThePlanIsAnEstimateThatSaysWhy() throws {
        let router = LRouter()
        router.noRoadTo.withLock { $0 = pickup }
        let plan = try router.routeLegs(RouteRequest(from: start, to: pickup))
        #expect(plan.isEstimate)
        #expect(plan.estimatedLegs.map(\.leg) == [0])
        #expect(abs(plan.distanceMeters - Geodesy.distance(start, pickup) * 1.3) < 1e-6)
    }

    @Test func otherFailuresAreNotHiddenAsEstimates() throws {
        let router = LRouter()
        router.failing.withLock { $0 = true }
        let error = try #require(throws: FleetError.self) { try router.routeLegs(RouteRequest(from: start, to: pickup)) }
        #expect(error.code == .notFound && error.cause == nil, "no cause that says no road: \(error)")
        #expect(router.count == 1)
    }
}
