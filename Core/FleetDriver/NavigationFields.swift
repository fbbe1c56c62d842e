import FleetModel

/// What a navigating vehicle reports about its route: the remaining route to its next destination, that
/// destination, and the remaining distance and time.
public struct NavigationFields: Sendable, Hashable {
    /// The route still to drive to the end point, as an encoded polyline (`currentRouteSegment`).
    public var routeSegment: String
    /// Where the route ends (`currentRouteSegmentEndPoint`): the engine's next waypoint or stop.
    public var endPoint: Destination?
    /// Metres still to drive (`remainingDistanceMeters`).
    public var remainingDistanceMeters: Int32?
    /// Seconds still to drive (`remainingTimeSeconds`; a delivery vehicle's `remainingDuration`),
    /// estimated from the observed speed.
    public var remainingTimeSeconds: Int32?

    /// Navigation fields.
    public init(routeSegment: String, endPoint: Destination? = nil, remainingDistanceMeters: Int32? = nil,
                remainingTimeSeconds: Int32? = nil) {
        self.routeSegment = routeSegment
        self.endPoint = endPoint
        self.remainingDistanceMeters = remainingDistanceMeters
        self.remainingTimeSeconds = remainingTimeSeconds
    }
}
