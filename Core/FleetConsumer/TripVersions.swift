import FleetModel

/// The versions of the large parts of a trip the follower already holds. Sent back in `GetTrip`, they
/// let the server leave out what has not changed since (the Consumer SDK's way of not downloading the
/// route again on every refresh).
public struct TripVersions: Sendable, Hashable {
    /// `currentRouteSegmentVersion`: when the route to the next waypoint last changed.
    public var route: Timestamp?
    /// `currentRouteSegmentTrafficVersion`: when the traffic on that route last changed.
    public var traffic: Timestamp?
    /// `remainingWaypointsRouteVersion`: when the paths and traffic to the remaining waypoints last changed.
    public var waypointsRoute: Timestamp?

    /// Versions; nil means "not held": the server sends that part whatever its version.
    public init(route: Timestamp? = nil, traffic: Timestamp? = nil, waypointsRoute: Timestamp? = nil) {
        self.route = route
        self.traffic = traffic
        self.waypointsRoute = waypointsRoute
    }

    /// The request the follower sends: the journey-sharing view, the route as an encoded polyline,
    /// and these versions, so the server omits a part whose version is not newer.
    public func request(for tripName: String) -> GetTripRequest {
        GetTripRequest(name: tripName, view: .journeySharingV1s, currentRouteSegmentVersion: route,
                       routeFormatType: .encodedPolylineType, currentRouteSegmentTrafficVersion: traffic,
                       remainingWaypointsRouteVersion: waypointsRoute)
    }

    /// Whether the server left out a part because it had not changed: the part came back empty while
    /// its version is set and not newer than the one sent (`sent`, nil when none was sent).
    static func isOmitted(isEmpty: Bool, version: Timestamp?, sent: Timestamp?) -> Bool {
        guard isEmpty, let version, let sent else { return false }
        return version <= sent
    }
}
