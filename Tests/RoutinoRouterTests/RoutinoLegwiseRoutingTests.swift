import FleetErrors
import FleetGeo
import FleetRouting
import RoutinoRouter
import FleetTestSupport
import Testing

/// The same on Routino's roads: a stop far from every road of the Helsinki map.
@Suite(.enabled(if: HelsinkiMap.directory != nil, "\(HelsinkiMap.missing)"))
struct RoutinoLegwiseRoutingTests {
    @Test func aStopFarFromAnyRoadEstimatesOnlyTheLegsToAndFromIt() throws {
        let router = try RoutinoRouter(directory: HelsinkiMap.directory!)
        let from = GeoPoint(latitude: 60.16675, longitude: 24.94956)
        let via = GeoPoint(latitude: 60.17088, longitude: 24.94496)
        let offMap = GeoPoint(latitude: 60.30, longitude: 24.94)
        let to = GeoPoint(latitude: 60.17493, longitude: 24.94008)
        // Today's whole-route answer: the far point fails the request.
        #expect(throws: FleetError.self) { try router.route(RouteRequest(waypoints: [from, via, offMap, to])) }

        let plan = try router.routeLegs(RouteRequest(waypoints: [from, via, offMap, to]))
        #expect(!plan.isEstimate)
        #expect(plan.estimatedLegs.map(\.leg) == [1, 2], "the legs to and from the far point")
        #expect(plan.estimatedLegs.allSatisfy { $0.cause == ErrorCause.pointOffMap.id && $0.reason.contains("60.3") })
        let road = try router.route(RouteRequest(from: from, to: via))
        #expect(Array(plan.points[plan.waypointIndices[0]...plan.waypointIndices[1]]) == road.points)
        #expect(abs(plan.arrival(atWaypoint: 1).meters - road.distanceMeters) < 1e-6)
        #expect(abs(plan.arrival(atWaypoint: 1).seconds - road.durationSeconds) < 1e-6)
        let straight = Geodesy.distance(via, offMap) * 1.3
        let toFar = plan.arrival(atWaypoint: 2).meters - plan.arrival(atWaypoint: 1).meters
        // From where the road leg ended (some metres from the via) to the far point, 1.3 times the great circle.
        #expect(abs(toFar - straight) < 0.02 * straight, "\(toFar) against \(straight)")
        #expect(plan.points[plan.waypointIndices[2]] == offMap)
    }
}
