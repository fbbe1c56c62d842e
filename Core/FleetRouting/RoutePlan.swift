import FleetGeo

/// A planned route: the points to drive, with the distance and time from the start to each, and where
/// each requested waypoint is reached.
///
/// Distances and times are cumulative, so the remainder from any point is a subtraction, which is what
/// an engine serving remaining distance and ETAs along the route needs.
public struct RoutePlan: Sendable, Hashable {
    /// The route's points in driving order (at least one per requested waypoint). A road route starts
    /// and ends where the router joined the roads, which may be some metres from the points asked for.
    public let points: [GeoPoint]
    /// Metres driven from the first point to each point (`cumulativeMeters[0] == 0`, never decreasing).
    public let cumulativeMeters: [Double]
    /// Seconds driven from the first point to each point (`cumulativeSeconds[0] == 0`, never decreasing).
    public let cumulativeSeconds: [Double]
    /// For each requested waypoint, the index in `points` where the route reaches it (first 0, last `points.count - 1`).
    public let waypointIndices: [Int]
    /// True when the plan is a great-circle estimate rather than a route along roads: show it as approximate.
    public let isEstimate: Bool
    /// The legs of a road plan that no road covers, each a great-circle estimate with the router's reason
    /// (``Router/routeLegs(_:model:)``); empty when every leg is on roads, and for the `straight` router's
    /// plans, which are estimates by choice.
    public let estimatedLegs: [EstimatedLeg]

    /// A plan; the three arrays must have the same length and `waypointIndices` must be increasing indices into them.
    public init(points: [GeoPoint], cumulativeMeters: [Double], cumulativeSeconds: [Double], waypointIndices: [Int], isEstimate: Bool,
                estimatedLegs: [EstimatedLeg] = []) {
        precondition(!points.isEmpty && points.count == cumulativeMeters.count && points.count == cumulativeSeconds.count,
                     "a route plan needs one distance and one time per point")
        precondition(waypointIndices.allSatisfy { points.indices.contains($0) }, "waypoint indices must point into the route")
        self.points = points
        self.cumulativeMeters = cumulativeMeters
        self.cumulativeSeconds = cumulativeSeconds
        self.waypointIndices = waypointIndices
        self.isEstimate = isEstimate
        self.estimatedLegs = estimatedLegs
    }

    /// The great-circle estimate through the request's waypoints: each leg the great-circle distance times
    /// `model`'s detour factor, driven at the category's default speed; the waypoints are the route's points.
    /// What the `straight` router answers, and what a road plan uses for a leg no road covers.
    public static func greatCircle(_ request: RouteRequest, model: SpeedModel = .standard) -> RoutePlan {
        let speed = model.defaultMetersPerSecond(for: request.category)
        var meters: [Double] = [0]
        var seconds: [Double] = [0]
        meters.reserveCapacity(request.waypoints.count)
        seconds.reserveCapacity(request.waypoints.count)
        for index in request.waypoints.indices.dropFirst() {
            let leg = Geodesy.distance(request.waypoints[index - 1], request.waypoints[index]) * model.detourFactor
            meters.append(meters[index - 1] + leg)
            seconds.append(seconds[index - 1] + leg / speed)
        }
        return RoutePlan(points: request.waypoints, cumulativeMeters: meters, cumulativeSeconds: seconds,
                         waypointIndices: Array(request.waypoints.indices), isEstimate: true)
    }

    /// Total length in metres.
    public var distanceMeters: Double { cumulativeMeters[cumulativeMeters.count - 1] }

    /// Total driving time in seconds.
    public var durationSeconds: Double { cumulativeSeconds[cumulativeSeconds.count - 1] }

    /// Whether leg `index` (from requested waypoint `index` to the next) is a great-circle estimate.
    public func isEstimated(leg index: Int) -> Bool {
        isEstimate || estimatedLegs.contains { $0.leg == index }
    }

    /// Distance and time from the start to requested waypoint `index` (0 is the start).
    public func arrival(atWaypoint index: Int) -> (meters: Double, seconds: Double) {
        let point = waypointIndices[index]
        return (cumulativeMeters[point], cumulativeSeconds[point])
    }

    /// The points as Google's encoded polyline (precision 5), Fleet Engine's route format.
    public var encodedPolyline: String { Polyline.encode(points) }
}

/// A leg of a road plan that the router could not route (no road near one of its ends, or none joining
/// them for the vehicle's category): the plan drives it as a great-circle estimate and says why here.
public struct EstimatedLeg: Sendable, Hashable {
    /// Which leg: 0 runs from the request's first waypoint to its second.
    public let leg: Int
    /// The router's error cause (`ROUTE_NOT_FOUND`, `POINT_OFF_MAP`; see `error-explain`).
    public let cause: String
    /// The router's message: which point or which pair, and on which map.
    public let reason: String

    public init(leg: Int, cause: String, reason: String) {
        self.leg = leg
        self.cause = cause
        self.reason = reason
    }
}
