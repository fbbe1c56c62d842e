/// One waypoint placed on a route by ``RouteWaypoints``.
public struct RouteWaypoint: Sendable, Hashable {
    /// The waypoint as given.
    public var position: GeoPoint
    /// Distance along the route to the point where the waypoint was snapped, metres; nil when the waypoint lies
    /// beyond the route (not within the snap threshold of the rest of the route), as later waypoints usually do:
    /// a vehicle's route segment normally ends at its next waypoint.
    public var alongRouteMeters: Double?
    /// Haversine distance from the waypoint to the route point it was snapped to (or to the nearest point looked at,
    /// for a waypoint beyond the route), metres.
    public var snapDistanceMeters: Double

    /// True when the waypoint was placed on the route.
    public var isOnRoute: Bool { alongRouteMeters != nil }

    /// Creates a placed waypoint.
    public init(position: GeoPoint, alongRouteMeters: Double?, snapDistanceMeters: Double) {
        self.position = position
        self.alongRouteMeters = alongRouteMeters
        self.snapDistanceMeters = snapDistanceMeters
    }
}
