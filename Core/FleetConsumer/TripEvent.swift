import FleetModel

/// One event of a followed trip: a part of the trip model that changed, the update that lists them,
/// or a failed refresh.
public struct TripEvent: Sendable, Hashable {
    /// Which event.
    public var kind: TripEventKind
    /// The followed trip's name.
    public var tripName: String
    /// When the follower observed it (its clock, not the server's).
    public var time: Timestamp
    /// What it carries.
    public var value: TripEventValue

    /// An event.
    public init(kind: TripEventKind, tripName: String, time: Timestamp, value: TripEventValue) {
        self.kind = kind
        self.tripName = tripName
        self.time = time
        self.value = value
    }
}
