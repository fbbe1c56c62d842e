import FleetGeo
import Testing

@Suite("Waypoints along a route")
struct RouteWaypointsTests {
    let grid = LocalGrid(origin: GeoPoint(latitude: -33.87, longitude: 151.21))

    @Test func remainingDistancesReachZeroInOrder() throws {
        // 3 km east; waypoints at 1 km (10 m to the side of the road), 2 km and the end.
        let route = try #require(Route(points: grid.densified([(0, 0), (3000, 0)], spacing: 100)))
        let waypoints = RouteWaypoints(route: route, positions: [grid.point(east: 1000, north: 10),
                                                                 grid.point(east: 2000, north: 0),
                                                                 grid.point(east: 3000, north: 0)])
        let along = waypoints.waypoints.compactMap(\.alongRouteMeters)
        try #require(along.count == 3)
        #expect(abs(along[0] - 1000) < 0.5 && abs(along[1] - 2000) < 0.5 && abs(along[2] - 3000) < 0.5)
        #expect(abs(waypoints.waypoints[0].snapDistanceMeters - 10) < 0.05)

        var progress = RouteProgress(route: route)
        var previous = [Double](repeating: .infinity, count: 3)
        for east in stride(from: 0.0, through: 3000, by: 50) {
            let match = progress.update(grid.point(east: east, north: 3))
            let remaining = waypoints.remainingMeters(afterTravelling: match.travelledMeters)
            for index in 0..<3 {
                let expected = max(0, along[index] - east)
                #expect(abs(remaining[index] - expected) < 0.5, "waypoint \(index) at \(east) m")
                #expect(remaining[index] <= previous[index])
            }
            previous = remaining
        }
        #expect(previous == [0, 0, 0])
        #expect(waypoints.nextWaypointIndex(afterTravelling: route.totalMeters) == nil)
        #expect(waypoints.nextWaypointIndex(afterTravelling: 1500) == 1)
    }

    @Test func waypointsBeyondTheRouteChainFromItsEnd() throws {
        // The route ends at the first waypoint (as a vehicle's route segment does); the next one is 1 km north of
        // the end and 1 km further east of that.
        let route = try #require(Route(points: grid.densified([(0, 0), (2000, 0)], spacing: 100)))
        let waypoints = RouteWaypoints(route: route, positions: [grid.point(east: 2000, north: 0),
                                                                 grid.point(east: 2000, north: 1000),
                                                                 grid.point(east: 3000, north: 1000)])
        #expect(waypoints.waypoints.map(\.isOnRoute) == [true, false, false])
        let remaining = waypoints.remainingMeters(afterTravelling: 500, detourFactor: 1.3)
        #expect(abs(remaining[0] - 1500) < 0.5)
        #expect(abs(remaining[1] - (1500 + 1300)) < 1)
        #expect(abs(remaining[2] - (1500 + 2600)) < 2)
    }

    @Test func waypointAtACrossingGoesToTheFirstPassNotBeforeThePreviousWaypoint() throws {
        // The route crosses itself at (200, 0), at 200 m and at 900 m along.
        let corners: [(Double, Double)] = [(0, 0), (400, 0), (400, 150), (200, 150), (200, -150), (0, -150)]
        let route = try #require(Route(points: grid.densified(corners, spacing: 20)))
        let crossing = grid.point(east: 200, north: 0)
        // Alone, a waypoint at the crossing is reached on the first pass.
        let alone = RouteWaypoints(route: route, positions: [crossing, grid.point(east: 0, north: -150)])
        #expect(abs((alone.waypoints[0].alongRouteMeters ?? 0) - 200) < 0.5)
        // After a waypoint at 300 m, it can only be the second pass.
        let after = RouteWaypoints(route: route, positions: [grid.point(east: 300, north: 0), crossing,
                                                             grid.point(east: 0, north: -150)])
        let along = after.waypoints.compactMap(\.alongRouteMeters)
        try #require(along.count == 3)
        #expect(abs(along[0] - 300) < 0.5)
        #expect(abs(along[1] - 900) < 0.5)
        #expect(abs(along[2] - route.totalMeters) < 0.5)
        // Two waypoints at one spot (drop off one rider, pick up the next) share it.
        let shared = RouteWaypoints(route: route, positions: [crossing, crossing, grid.point(east: 0, north: -150)])
        #expect(shared.waypoints[0].alongRouteMeters == shared.waypoints[1].alongRouteMeters)
    }

    @Test func lastWaypointOfALoopIsTheEndNotTheStart() throws {
        let corners: [(Double, Double)] = [(0, 0), (300, 0), (300, 300), (0, 300), (0, 0)]
        let route = try #require(Route(points: grid.densified(corners, spacing: 50)))
        let waypoints = RouteWaypoints(route: route, positions: [grid.point(east: 0, north: 0)])
        #expect(abs((waypoints.waypoints[0].alongRouteMeters ?? 0) - 1200) < 0.5)
        #expect(abs(waypoints.remainingMeters(afterTravelling: 0)[0] - 1200) < 0.5)
    }
}
