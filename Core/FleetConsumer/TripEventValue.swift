import FleetModel

/// What an event carries, by kind of event.
public enum TripEventValue: Sendable, Hashable {
    /// `trip`: the parts that changed with their new values, in emission order, and the trip as the
    /// follower now knows it (`TripModel.trip`).
    case changes([ChangedPart], trip: Trip)
    /// `tripStatus`.
    case status(TripStatus?)
    /// `activeRouteRemainingDistance`: metres; nil when unknown.
    case distance(Int32?)
    /// `activeRoute`: the points; empty when there is no route.
    case route([LatLng])
    /// `vehicleLocation`: where the vehicle is, its heading, speed and accuracy; nil when unknown.
    case vehicle(VehicleFix?)
    /// `pickupLocation`, `dropoffLocation`: a point; nil when unknown.
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

/// One part of a followed trip that changed, with its new value: what the `trip` event lists.
public struct ChangedPart: Sendable, Hashable {
    /// Which part.
    public var kind: TripEventKind
    /// Its value now, as the part's own event carries it.
    public var value: TripEventValue

    /// A changed part.
    public init(kind: TripEventKind, value: TripEventValue) {
        self.kind = kind
        self.value = value
    }
}
