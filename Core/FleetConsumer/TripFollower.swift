import FleetInterface
import FleetModel

/// Follows one trip as the Consumer SDK does: `Follower`'s loop over the trip model, with snapshots
/// from a `TripSnapshotSource` (polling GetTrip, or a watch), stopping when the trip is COMPLETE or
/// CANCELED or reaches `until`.
///
/// `follow` blocks the calling thread; the subscriber is called on it.
public struct TripFollower: Sendable {
    /// The followed trip's name, sent as it is (the server checks it).
    public let tripName: String
    /// Where snapshots come from.
    public let source: any TripSnapshotSource
    /// What to report and when to stop.
    public let configuration: FollowConfiguration
    /// The time and the waits.
    public let clock: any FollowClock
    /// A random number in 0 ..< 1 for the backoff's jitter.
    public let random: @Sendable () -> Double

    /// A follower of `tripName` (`providers/{provider}/trips/{trip}`).
    public init(tripName: String, source: any TripSnapshotSource, configuration: FollowConfiguration = .init(),
                clock: any FollowClock = SystemFollowClock(),
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.tripName = tripName
        self.source = source
        self.configuration = configuration
        self.clock = clock
        self.random = random
    }

    /// Follows until the trip ends, reaches `until`, fails with `failFast`, the deadline passes, or
    /// `stop` is given; returns why it ended. The follower gives `stop` itself when it ends on its own.
    public func follow(stop: StopSignal = StopSignal(), onUpdate: (TripUpdate) -> Void) -> FollowOutcome {
        let source = source, events = configuration.events
        return Follower<TripModel>(
            name: tripName,
            source: { request, clock, stop, deliver in try source.snapshots(request: request, clock: clock, stop: stop, deliver: deliver) },
            configuration: configuration, reports: { events.contains($0) }, clock: clock, random: random
        ).follow(stop: stop, onUpdate: onUpdate)
    }
}
