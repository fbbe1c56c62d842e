/// A vehicle's remaining waypoints placed, once, along its route, so that the distance to each of them follows
/// from one number: how far the vehicle has travelled along the route.
///
/// Waypoints are snapped in order, each one at or after the previous one along the route: on the part of the route
/// from the previous waypoint on, the earliest point within a few metres of the nearest one wins, so a waypoint at
/// a spot the route passes twice goes to the pass reached first, except that the last waypoint goes to the route's
/// end when the end is close to it (routes are planned to end there). A waypoint farther than the snap threshold
/// from the rest of the route is beyond the route, and so is every waypoint after it: their distances chain from
/// the route's end in straight lines times the detour factor.
public struct RouteWaypoints: Sendable {
    /// The waypoints in order, with where they fell on the route.
    public let waypoints: [RouteWaypoint]
    /// The route's length, metres.
    public let routeTotalMeters: Double
    /// The route's last point, where waypoints beyond the route are measured from.
    public let routeEnd: GeoPoint

    /// Waypoints within this distance of the nearest route point count as equally near; the earliest is taken.
    static let tieToleranceMeters = 5.0

    /// Places `positions` along `route`, in order. `snapThresholdMeters` is how far from the route a waypoint may
    /// be (a pickup across the street from where the car stops) and still be on it.
    public init(route: Route, positions: [GeoPoint], snapThresholdMeters: Double = 100) {
        routeTotalMeters = route.totalMeters
        routeEnd = route.end
        var placed: [RouteWaypoint] = []
        placed.reserveCapacity(positions.count)
        var fromSegment = 0
        var fromFraction = 0.0
        var beyondRoute = false
        for (offset, position) in positions.enumerated() {
            if beyondRoute {
                placed.append(RouteWaypoint(position: position, alongRouteMeters: nil,
                                            snapDistanceMeters: Geodesy.distance(position, route.end)))
                continue
            }
            let isLast = offset == positions.count - 1
            let endDistance = Geodesy.distance(position, route.end)
            if isLast && endDistance <= snapThresholdMeters {
                placed.append(RouteWaypoint(position: position, alongRouteMeters: route.totalMeters,
                                            snapDistanceMeters: endDistance))
                continue
            }
            let (segment, fraction, distance) = Self.snap(position, onto: route,
                                                          fromSegment: fromSegment, fromFraction: fromFraction)
            if distance > snapThresholdMeters {
                beyondRoute = true
                placed.append(RouteWaypoint(position: position, alongRouteMeters: nil, snapDistanceMeters: distance))
                continue
            }
            placed.append(RouteWaypoint(position: position,
                                        alongRouteMeters: route.meters(onSegment: segment, fraction: fraction),
                                        snapDistanceMeters: distance))
            fromSegment = segment
            fromFraction = fraction
        }
        waypoints = placed
    }

    /// Remaining distance to each waypoint after travelling `travelledMeters` along the route, in order: 0 for
    /// waypoints reached or passed, the along-route distance for the others, and for waypoints beyond the route the
    /// distance to the route's end plus straight lines (times `detourFactor`) from there through the waypoints.
    public func remainingMeters(afterTravelling travelledMeters: Double,
                                detourFactor: Double = SpeedModel.standard.detourFactor) -> [Double] {
        var result: [Double] = []
        result.reserveCapacity(waypoints.count)
        let toRouteEnd = max(0, routeTotalMeters - travelledMeters)
        var previousBeyond = routeEnd
        var beyondMeters = 0.0
        for waypoint in waypoints {
            if let along = waypoint.alongRouteMeters {
                result.append(max(0, along - travelledMeters))
            } else {
                beyondMeters += Geodesy.distance(previousBeyond, waypoint.position) * detourFactor
                previousBeyond = waypoint.position
                result.append(toRouteEnd + beyondMeters)
            }
        }
        return result
    }

    /// Index of the first waypoint not yet reached after travelling `travelledMeters`, or nil when all are.
    public func nextWaypointIndex(afterTravelling travelledMeters: Double) -> Int? {
        waypoints.firstIndex { waypoint in
            guard let along = waypoint.alongRouteMeters else { return true }
            return along > travelledMeters
        }
    }

    /// The earliest point of the route at or after (`fromSegment`, `fromFraction`) within the tie tolerance of the
    /// nearest such point, refined to the nearest point of the run of segments that follows it within the tolerance
    /// (so the snap does not stop at a vertex before the true nearest point on a straight road). Distances are the
    /// segment frames' local ones for the choice and haversine for the answer. O(n) per waypoint, once per route.
    private static func snap(_ position: GeoPoint, onto route: Route, fromSegment: Int,
                             fromFraction: Double) -> (segment: Int, fraction: Double, distance: Double) {
        let frames = route.frames
        /// The nearest point of segment `index`, not before the starting point.
        func nearest(_ index: Int) -> (fraction: Double, distance: Double) {
            let (fraction, distance) = frames[index].nearest(to: position)
            guard index == fromSegment, fraction < fromFraction else { return (fraction, distance) }
            let start = route.point(onSegment: index, fraction: fromFraction)
            return (fromFraction, Geodesy.distance(position, start))
        }
        var minimum = Double.infinity
        for index in fromSegment..<frames.count {
            minimum = min(minimum, nearest(index).distance)
        }
        let acceptable = minimum + tieToleranceMeters
        var index = fromSegment
        while index < frames.count - 1 && nearest(index).distance > acceptable { index += 1 }
        var best = (segment: index, fraction: nearest(index).fraction, distance: nearest(index).distance)
        var next = index + 1
        while next < frames.count {
            let candidate = nearest(next)
            guard candidate.distance <= acceptable else { break }
            if candidate.distance < best.distance { best = (next, candidate.fraction, candidate.distance) }
            next += 1
        }
        let snapped = route.point(onSegment: best.segment, fraction: best.fraction)
        return (best.segment, best.fraction, Geodesy.distance(position, snapped))
    }
}
