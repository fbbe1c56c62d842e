import FleetModel

/// What a follower keeps up to date (a trip's model, a shipment's): merged from snapshots, diffed
/// into events, and asked whether following is over. `Follower` runs the same loop over any of them.
public protocol FollowedModel: Sendable, Hashable {
    /// What the server answers (`Trip`, `TaskTrackingInfo`).
    associatedtype Snapshot: Sendable
    /// What the follower asks (`GetTripRequest`, `GetTaskTrackingInfoRequest`).
    associatedtype Request: Sendable
    /// Its events.
    associatedtype Kind: FollowEventKind

    /// What it is, in closing lines: `trip`, `shipment`.
    static var noun: String { get }
    /// An empty model, before any snapshot.
    init(name: String)
    /// The followed resource's name, sent as it is.
    var name: String { get }
    /// When the last snapshot was received (the follower's clock); nil before the first.
    var observedAt: Timestamp? { get }
    /// The last refresh failure, until a refresh succeeds again.
    var lastFailure: FollowFailure? { get set }
    /// The state to name in closing lines (`ENROUTE_TO_PICKUP`, `OPEN`); nil before the first snapshot.
    var statusName: String? { get }
    /// When the server received the vehicle's position; nil without one.
    var vehicleLocationTime: Timestamp? { get }

    /// The request to send next (carrying what the model already holds, where the API allows).
    func request() -> Request
    /// The model after a snapshot that answered `request`.
    func merging(_ snapshot: Snapshot, answering request: Request, observedAt: Timestamp) -> Self
    /// The events that take a subscriber from `previous` to this model: nothing when nothing
    /// changed, else the update event followed by one event per changed part, in order.
    func events(since previous: Self, at time: Timestamp) -> [FollowEvent<Kind>]
    /// Why following ends now that the model is this, with `configuration`; nil to go on.
    func ending(_ configuration: FollowConfiguration) -> FollowOutcome?
    /// Whether the vehicle is expected to report (a trip or task under way).
    var expectsVehicleReports: Bool { get }
}

extension FollowedModel {
    /// Seconds since the vehicle's position was received, at `now`; nil without a position time.
    public func vehicleLocationAge(at now: Timestamp) -> Double? {
        guard let time = vehicleLocationTime else { return nil }
        return max(0, now.timeIntervalSince1970 - time.timeIntervalSince1970)
    }

    /// Whether the vehicle's position is older than `staleAfterSeconds` at `now`, while it is
    /// expected to report (an ended trip's or a delivered shipment's vehicle is not).
    public func isVehicleStale(at now: Timestamp, staleAfterSeconds: Double) -> Bool {
        guard expectsVehicleReports, let age = vehicleLocationAge(at: now) else { return false }
        return age > staleAfterSeconds
    }
}
