import FleetModel
import FleetBackoff

/// How a follower behaves: which events it reports, when it stops, how it retries.
public struct FollowConfiguration: Sendable, Hashable {
    /// The default refresh interval: the Consumer SDK's 5 s.
    public static let defaultRefreshSeconds: Double = 5
    /// The shortest refresh interval accepted: 1 s.
    public static let minimumRefreshSeconds: Double = 1
    /// The age past which the vehicle's position is flagged stale, by default: the Consumer pages'
    /// three missed reports at the Driver SDK's usual 5–10 s interval.
    public static let defaultStaleAfterSeconds = 30.0

    /// The trip events reported; the others are computed but not delivered. Default: all. (A
    /// shipment follower takes its own, `ShipmentFollower.events`.)
    public var events: Set<TripEventKind>
    /// Stop once the trip has reached (or passed) this status; nil: only when it ends.
    public var until: TripStatus?
    /// Stop at the first client error (one that needs action) instead of retrying at `refreshSeconds`.
    public var failFast: Bool
    /// Seconds between retries after a client error (and the polling interval, for the executable).
    public var refreshSeconds: Double
    /// How retries after server and network errors are spaced.
    public var backoff: Backoff
    /// Stop after this many seconds of real time when following has not ended by itself
    /// (`FollowOutcome.deadlinePassed`); nil: no deadline.
    public var deadlineSeconds: Double?

    /// A configuration; the defaults report every event, stop when the trip ends, retry client errors
    /// every 5 s, and set no deadline.
    public init(events: Set<TripEventKind> = Set(TripEventKind.allCases), until: TripStatus? = nil,
                failFast: Bool = false, refreshSeconds: Double = FollowConfiguration.defaultRefreshSeconds,
                backoff: Backoff = Backoff(), deadlineSeconds: Double? = nil) {
        self.events = events
        self.until = until
        self.failFast = failFast
        self.refreshSeconds = refreshSeconds
        self.backoff = backoff
        self.deadlineSeconds = deadlineSeconds
    }
}
