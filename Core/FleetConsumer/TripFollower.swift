import FleetInterface
import FleetErrors
import FleetModel

/// Follows one trip as the Consumer SDK does: takes snapshots from a source, merges them into the
/// trip model, and tells its subscriber what changed, one event per changed part.
///
/// - Events: each snapshot is diffed against the model before it; nothing is reported when nothing
///   changed, so a restarted source (after an outage, or a reconnected stream) never repeats an event.
/// - Errors, as the SDK guide sorts them (`FleetError.retryClass`): server and network errors are
///   reported as `error` events with `recovering: true` and retried with `Backoff`; client errors are
///   reported with the catalogue's cause and remedy and retried every `refreshSeconds` — or, with
///   `failFast`, end following.
/// - Stopping: when the trip is COMPLETE or CANCELED, when it reaches `until`, when the deadline
///   (`deadlineSeconds`, real time) passes, or when `stop` is given.
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
        let deadline = configuration.deadlineSeconds.map { FollowDeadline(seconds: $0, stop: stop) }
        var model = TripModel(tripName: tripName)
        var sent = TripVersions()
        var failures = 0
        var outcome: FollowOutcome?

        func finish(_ ending: FollowOutcome) {
            outcome = ending
            stop.stop()
        }

        func receive(_ trip: Trip) {
            failures = 0
            let previous = model
            model = previous.merging(trip, sent: sent, observedAt: clock.now())
            let events = model.events(since: previous, at: model.observedAt ?? clock.now())
            if !events.isEmpty || previous.lastFailure != nil {
                onUpdate(TripUpdate(model: model, events: events.filter { configuration.events.contains($0.kind) }))
            }
            guard let status = model.status, !events.isEmpty else { return }
            if TripLifecycle.isTerminal(status) {
                finish(.tripEnded(status))
            } else if let until = configuration.until, TripProgress.hasReached(status, until) {
                finish(.untilReached(status))
            }
        }

        while !stop.isStopped {
            let failure: FleetError
            do {
                try source.snapshots(request: {
                    sent = model.versions
                    return sent.request(for: tripName)
                }, clock: clock, stop: stop, deliver: receive)
                guard !stop.isStopped else { break }
                failure = FleetError(.streamAborted, detail: "the server ended the trip's snapshot stream")
            } catch let error as FleetError {
                failure = error
            } catch {
                failure = FleetError(code: .unknown, message: "\(error)")
            }
            guard !stop.isStopped else { break }

            failures += 1
            let recovering = failure.retryClass.isRetryable
            let giveUp = !recovering && configuration.failFast
            // A server over its rate limit says how long to wait (Retry-After): never sooner.
            let wait = max(failure.retryAfterSeconds ?? 0, recovering
                ? configuration.backoff.delay(afterFailures: failures, random: random())
                : configuration.refreshSeconds)
            let reported = FollowFailure(error: failure, retryInSeconds: giveUp ? nil : wait, attempt: failures)
            model.lastFailure = reported
            let event = TripEvent(kind: .error, tripName: tripName, time: clock.now(), value: .failure(reported))
            onUpdate(TripUpdate(model: model, events: configuration.events.contains(.error) ? [event] : []))
            if giveUp {
                finish(.failed(failure))
                break
            }
            clock.sleep(seconds: wait, stop: stop)
        }
        if outcome == nil, deadline?.hasPassed == true { return .deadlinePassed }
        return outcome ?? .stopped
    }
}
