/// The knobs of ``RouteProgress``. The defaults suit road vehicles reporting every 5–60 s with GPS accurate to
/// about 10 m.
public struct RouteMatchingOptions: Sendable, Hashable {
    /// A location farther than this from every acceptable segment is off route. 50 m covers GPS error in urban
    /// canyons (typically 10–30 m) plus the width of a large road.
    public var offRouteThresholdMeters: Double = 50
    /// How far ahead of the last match (along the route) the incremental search looks before falling back to the
    /// full search. 1 km covers 60 s at 60 km/h, the Driver SDK's longest reporting interval in town.
    public var windowMeters: Double = 1000
    /// Most segments the incremental search examines, whatever their length; bounds the cost on dense routes.
    public var windowSegments: Int = 256
    /// Added to a segment's distance when the vehicle's heading differs from the segment's direction by more than
    /// 90°, so the carriageway driven in the right direction wins on roads that fold back.
    public var headingPenaltyMeters: Double = 50
    /// Segments whose (penalised) distance is within this of the best are treated as equally good, and the one
    /// earliest along the route, counted forward from the last match, is preferred: on a route that crosses itself the
    /// vehicle stays on the pass it is driving.
    public var preferenceToleranceMeters: Double = 20
    /// After choosing the earliest good segment, the best one within this many metres further along the route is
    /// taken, so a match never lags a vertex behind on a straight road.
    public var refinementMeters: Double = 100
    /// Without a reported heading, the direction of movement since the last update is used once the vehicle has
    /// moved at least this far (shorter moves are mostly GPS noise).
    public var minimumMovementForHeadingMeters: Double = 10

    /// The defaults described on each property.
    public init() {}

    /// The defaults with another off-route threshold.
    public init(offRouteThresholdMeters: Double) {
        self.offRouteThresholdMeters = offRouteThresholdMeters
    }
}
