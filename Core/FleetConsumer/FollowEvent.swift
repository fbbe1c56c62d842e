import FleetModel

/// One event of a followed trip or shipment: a part that changed, the update that lists them, a
/// stale vehicle, or a failed refresh.
public struct FollowEvent<Kind: FollowEventKind>: Sendable, Hashable {
    /// Which event.
    public var kind: Kind
    /// The followed resource's name (`providers/p/trips/t`, `providers/p/taskTrackingInfo/x`).
    public var name: String
    /// When the follower observed it (its clock, not the server's).
    public var time: Timestamp
    /// What it carries.
    public var value: FollowEventValue

    /// An event.
    public init(kind: Kind, name: String, time: Timestamp, value: FollowEventValue) {
        self.kind = kind
        self.name = name
        self.time = time
        self.value = value
    }
}

/// An event of a followed trip.
public typealias TripEvent = FollowEvent<TripEventKind>
/// An event of a followed shipment.
public typealias ShipmentEvent = FollowEvent<ShipmentEventKind>

extension FollowEvent where Kind == TripEventKind {
    /// A trip's event.
    public init(kind: TripEventKind, tripName: String, time: Timestamp, value: FollowEventValue) {
        self.init(kind: kind, name: tripName, time: time, value: value)
    }

    /// The followed trip's name.
    public var tripName: String { name }
}

extension FollowEvent {
    /// The events of one update: nothing when nothing changed, else the update event (the changed
    /// parts with their values, and the snapshot) followed by one event per changed part, in order.
    static func updateEvents(name: String, at time: Timestamp, snapshot: FollowedSnapshot,
                             changed: [(Kind, FollowEventValue)]) -> [FollowEvent] {
        guard !changed.isEmpty else { return [] }
        let parts = changed.map { ChangedPart(kind: $0.0, value: $0.1) }
        return [FollowEvent(kind: .update, name: name, time: time, value: .changes(parts, snapshot: snapshot))]
            + changed.map { FollowEvent(kind: $0.0, name: name, time: time, value: $0.1) }
    }
}
