import FleetModel

extension TripModel {
    /// The parts of the trip that differ from `previous`, in emission order (`TripEventKind` order;
    /// never `trip` or `error`).
    public func changes(since previous: TripModel) -> [TripEventKind] {
        TripEventKind.parts.filter { value(of: $0) != previous.value(of: $0) }
    }

    /// The value of one part of the trip as its event carries it; nil for `trip` and `error`.
    public func value(of kind: TripEventKind) -> TripEventValue? {
        switch kind {
        case .tripStatus: .status(status)
        case .activeRouteRemainingDistance: .distance(remainingDistanceMeters)
        case .activeRoute: .route(activeRoute)
        case .vehicleLocation: .vehicle(vehicle)
        case .pickupLocation: .location(pickupLocation?.point)
        case .dropoffLocation: .location(dropoffLocation?.point)
        case .pickupETA: .eta(pickupETA)
        case .dropoffETA: .eta(dropoffETA)
        case .remainingWaypoints: .waypoints(remainingWaypoints.map(\.withoutPaths))
        case .intermediateDestinations: .destinations(intermediateDestinations.compactMap(\.point))
        case .activeRouteTraffic: .traffic(activeRouteTraffic)
        case .trip, .error, .vehicleStale: nil
        }
    }

    /// The events that take a subscriber from `previous` to this model: nothing when nothing changed,
    /// else `trip` (the changed parts with their values, and the trip) followed by one event per
    /// changed part, in order.
    public func events(since previous: TripModel, at time: Timestamp) -> [TripEvent] {
        guard let trip else { return [] }
        return FollowEvent.updateEvents(name: tripName, at: time, snapshot: .trip(trip),
                                        changed: changes(since: previous).compactMap { kind in value(of: kind).map { (kind, $0) } })
    }
}

extension TripWaypoint {
    /// The waypoint without its path and traffic: what the `remainingWaypoints` event shows.
    var withoutPaths: TripWaypoint {
        var stripped = self
        stripped.pathToWaypoint = []
        stripped.encodedPathToWaypoint = nil
        stripped.trafficToWaypoint = nil
        return stripped
    }
}
