import FleetInterface
import FleetModel

/// Follows one shipment as the Consumer SDK's shipment tracking does: receives its tracking info as it
/// changes from the transport's watch of the tracking ID (`TaskWatching.watchTaskTrackingInfo`: the
/// in-process engine, or the server's `:watch` event stream), or polls `GetTaskTrackingInfo` every
/// `configuration.refreshSeconds` without one — as a trip's follower does with its trip — and runs
/// `Follower`'s loop over the shipment model (the same events, errors, backoff, deadline and stop as
/// a trip's) until the task closes with an outcome.
///
/// `follow` blocks the calling thread; the subscriber is called on it.
public struct ShipmentFollower: Sendable {
    /// The followed tracking info's name (`providers/{provider}/taskTrackingInfo/{trackingId}`), sent as it is.
    public let trackingName: String
    /// The Fleet Engine calls.
    public let api: any FleetAPI
    /// The transport's watch, nil to poll. A server without the watch stream (UNIMPLEMENTED) is polled
    /// every `configuration.refreshSeconds` from then on.
    public let watcher: (any TaskWatching)?
    /// The events reported; the others are computed but not delivered. Default: all.
    public let events: Set<ShipmentEventKind>
    /// The polling interval (`refreshSeconds`), retries, deadline (`until` is a trip's and not used).
    public let configuration: FollowConfiguration
    /// The time and the waits.
    public let clock: any FollowClock
    /// A random number in 0 ..< 1 for the backoff's jitter.
    public let random: @Sendable () -> Double

    /// A follower of `trackingName` over `api`, watching through `watcher` when given.
    public init(trackingName: String, api: any FleetAPI, watcher: (any TaskWatching)? = nil,
                events: Set<ShipmentEventKind> = Set(ShipmentEventKind.allCases),
                configuration: FollowConfiguration = .init(), clock: any FollowClock = SystemFollowClock(),
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.trackingName = trackingName
        self.api = api
        self.watcher = watcher
        self.events = events
        self.configuration = configuration
        self.clock = clock
        self.random = random
    }

    /// Follows until the task closes with an outcome, fails with `failFast`, the deadline passes, or
    /// `stop` is given; returns why it ended.
    public func follow(stop: StopSignal = StopSignal(), onUpdate: (ShipmentUpdate) -> Void) -> FollowOutcome {
        let api = api, watcher = watcher, interval = configuration.refreshSeconds, events = events
        let support = WatchSupport()
        return Follower<ShipmentModel>(
            name: trackingName,
            source: { request, clock, stop, deliver in
                guard let watcher else {
                    return try PollingSource.poll(every: interval, clock: clock, stop: stop,
                                                  fetch: { try api.getTaskTrackingInfo(request()) }, deliver: deliver)
                }
                try WatchSource.snapshots(request: request, clock: clock, stop: stop, fallbackIntervalSeconds: interval, support: support,
                                          watch: { try watcher.watchTaskTrackingInfo($0, cancellation: $1, onUpdate: $2) },
                                          fetch: { try api.getTaskTrackingInfo($0) }, deliver: deliver)
            },
            configuration: configuration, reports: { events.contains($0) }, clock: clock, random: random
        ).follow(stop: stop, onUpdate: onUpdate)
    }
}
