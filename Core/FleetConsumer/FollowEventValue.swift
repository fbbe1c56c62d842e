import FleetModel

/// What an event carries, by kind of event.
public enum FollowEventValue: Sendable, Hashable {
    /// `trip`, `shipment`: the parts that changed with their new values, in emission order, and the
    /// followed thing as the follower now knows it.
    case changes([ChangedPart], snapshot: FollowedSnapshot)
    /// `tripStatus`.
    case status(TripStatus?)
    /// `activeRouteRemainingDistance`, `remainingDrivingDistance`: metres; nil when unknown.
    case distance(Int32?)
    /// `activeRoute`, `route`: the points; empty when there is no route.
    case route([LatLng])
    /// `vehicleLocation`: where the vehicle is, its heading, speed and accuracy; nil when unknown.
    case vehicle(VehicleFix?)
    /// `pickupLocation`, `dropoffLocation`, `plannedLocation`: a point; nil when unknown.
    case location(LatLng?)
    /// `pickupETA`, `dropoffETA`, `estimatedArrivalTime`, `estimatedTaskCompletionTime`: a time; nil when unknown.
    case eta(Timestamp?)
    /// `remainingWaypoints`: each waypoint's trip (this trip's ID, or none for another rider's), type,
    /// place, ETA, distance and duration; paths are left out.
    case waypoints([TripWaypoint])
    /// `intermediateDestinations`: their points, in order.
    case destinations([LatLng])
    /// `activeRouteTraffic`: nil when there is none.
    case traffic(ConsumableTrafficPolyline?)
    /// `remainingStopCount`: the stops until the shipment's, its own included; nil when not shown.
    case stops(Int32?)
    /// `taskState`.
    case taskState(DeliveryTask.State?)
    /// `taskOutcome`: the outcome and when it was set; nil outcome while there is none.
    case outcome(DeliveryTask.TaskOutcome?, at: Timestamp?)
    /// `targetTimeWindow`: nil when there is none.
    case window(TimeWindow?)
    /// `vehicleStale`: whether the position is stale, its age in seconds, when it was received.
    case staleness(stale: Bool, ageSeconds: Double, since: Timestamp)
    /// `error`.
    case failure(FollowFailure)
}

/// What a trip event carries.
public typealias TripEventValue = FollowEventValue

/// The followed thing as the follower knows it, carried by the update event.
public enum FollowedSnapshot: Sendable, Hashable {
    /// A trip (`TripModel.trip`).
    case trip(Trip)
    /// A shipment's tracking info (`ShipmentModel.info`).
    case taskTrackingInfo(TaskTrackingInfo)
}

/// One part of a followed thing that changed, with its new value: what the update event lists.
public struct ChangedPart: Sendable, Hashable {
    /// The part's event name (`tripStatus`, `remainingStopCount`).
    public var name: String
    /// Its value now, as the part's own event carries it.
    public var value: FollowEventValue

    /// A changed part.
    public init(name: String, value: FollowEventValue) {
        self.name = name
        self.value = value
    }

    /// A changed part of the kind of event `kind`.
    public init<Kind: FollowEventKind>(kind: Kind, value: FollowEventValue) {
        self.init(name: kind.rawValue, value: value)
    }
}
