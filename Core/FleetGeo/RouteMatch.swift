/// Where one location update falls on the route: the answer of ``RouteProgress/update(_:heading:)``.
///
/// On route, the position fields describe the location snapped onto the route. Off route, they keep describing the
/// last position matched on the route (progress is not lost while the vehicle detours), and ``offRouteMeters``
/// is the distance to the nearest point of the whole route.
public struct RouteMatch: Sendable, Hashable {
    /// The location that was matched, as reported.
    public var location: GeoPoint
    /// Index of the matched segment (from `points[segmentIndex]` to `points[segmentIndex + 1]`).
    public var segmentIndex: Int
    /// How far along that segment the match lies, 0...1.
    public var fraction: Double
    /// The matched point on the route.
    public var snappedPoint: GeoPoint
    /// Distance along the route from its start to the matched point, metres.
    public var travelledMeters: Double
    /// Distance along the route from the matched point to the route's end, metres.
    public var remainingMeters: Double
    /// Haversine distance from the location to the route, metres (to the matched point when on route, to the
    /// nearest point of the route when off route).
    public var offRouteMeters: Double
    /// True when no point of the route lies within the off-route threshold of the location.
    public var isOffRoute: Bool
    /// True when this update needed the O(n) search over the whole route (first fix, lost, or off route).
    public var usedFullSearch: Bool

    /// Creates a match.
    public init(location: GeoPoint, segmentIndex: Int, fraction: Double, snappedPoint: GeoPoint,
                travelledMeters: Double, remainingMeters: Double, offRouteMeters: Double,
                isOffRoute: Bool, usedFullSearch: Bool) {
        self.location = location
        self.segmentIndex = segmentIndex
        self.fraction = fraction
        self.snappedPoint = snappedPoint
        self.travelledMeters = travelledMeters
        self.remainingMeters = remainingMeters
        self.offRouteMeters = offRouteMeters
        self.isOffRoute = isOffRoute
        self.usedFullSearch = usedFullSearch
    }
}
