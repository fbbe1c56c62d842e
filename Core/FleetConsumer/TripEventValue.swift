import FleetModel

/// What an event carries, by kind of event.
public enum TripEventValue: Sendable, Hashable {
    /// `trip`: the parts that changed, in emission order.
    case changes([TripEventKind])
    /// `tripStatus`.
    case status(TripStatus?)
    /// `activeRouteRemainingDistance`: metres; nil when unknown.
    case distance(Int32?)
    /// `activeRoute`: the points; empty when there is no route.
    case route([LatLng])
    /// `vehicleLocation`, `pickupLocation`, `dropoffLocation`: a point; nil when unknown.
    case location(LatLng?)
    /// `pickupETA`, `dropoffETA`: a time; nil when unknown.
    case eta(Timestamp?)
    /// `remainingWaypoints`: each waypoint's trip (this trip's ID, or none for another rider's), type,
    /// place, ETA, distance and duration; paths are left out.
    case waypoints([TripWaypoint])
    /// `intermediateDestinations`: their points, in order.
    case destinations([LatLng])
    /// `activeRouteTraffic`: nil when there is none.
    case traffic(ConsumableTrafficPolyline?)
    /// `vehicleStale`: whether the position is stale, its age in seconds, when it was received.
    case staleness(stale: Bool, ageSeconds: Double, since: Timestamp)
    /// `error`.
    case failure(FollowFailure)
}
