import FleetModel

/// What a navigating vehicle reports about its route: the remaining route to its next waypoint, that
/// waypoint, and the remaining distance and time.
public struct NavigationFields: Sendable, Hashable {
    /// The route still to drive to the end point, as an encoded polyline (`currentRouteSegment`).
    public var routeSegment: String
    /// The waypoint the route ends at (`currentRouteSegmentEndPoint`): the engine's next waypoint.
    public var endPoint: TripWaypoint?
    /// Metres still to drive (`remainingDistanceMeters`).
    public var remainingDistanceMeters: Int32?
    /// Seconds still to drive (`remainingTimeSeconds`), estimated from the observed speed.
    public var remainingTimeSeconds: Int32?

    /// Navigation fields.
    public init(routeSegment: String, endPoint: TripWaypoint? = nil, remainingDistanceMeters: Int32? = nil,
                remainingTimeSeconds: Int32? = nil) {
        self.routeSegment = routeSegment
        self.endPoint = endPoint
        self.remainingDistanceMeters = remainingDistanceMeters
        self.remainingTimeSeconds = remainingTimeSeconds
    }
}
