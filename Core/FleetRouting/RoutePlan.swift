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

    /// A plan; the three arrays must have the same length and `waypointIndices` must be increasing indices into them.
    public init(points: [GeoPoint], cumulativeMeters: [Double], cumulativeSeconds: [Double], waypointIndices: [Int], isEstimate: Bool) {
        precondition(!points.isEmpty && points.count == cumulativeMeters.count && points.count == cumulativeSeconds.count,
                     "a route plan needs one distance and one time per point")
        precondition(waypointIndices.allSatisfy { points.indices.contains($0) }, "waypoint indices must point into the route")
        self.points = points
        self.cumulativeMeters = cumulativeMeters
        self.cumulativeSeconds = cumulativeSeconds
        self.waypointIndices = waypointIndices
        self.isEstimate = isEstimate
    }

    /// Total length in metres.
    public var distanceMeters: Double { cumulativeMeters[cumulativeMeters.count - 1] }

    /// Total driving time in seconds.
    public var durationSeconds: Double { cumulativeSeconds[cumulativeSeconds.count - 1] }

    /// Distance and time from the start to requested waypoint `index` (0 is the start).
    public func arrival(atWaypoint index: Int) -> (meters: Double, seconds: Double) {
        let point = waypointIndices[index]
        return (cumulativeMeters[point], cumulativeSeconds[point])
    }

    /// The points as Google's encoded polyline (precision 5), Fleet Engine's route format.
    public var encodedPolyline: String { Polyline.encode(points) }
}
