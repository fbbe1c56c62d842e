import FleetErrors
import FleetModel

/// The Consumer SDK's follow loop, for any followed model (a trip's, a shipment's): takes snapshots
/// from a source, merges them into the model, and tells its subscriber what changed, one event per
/// changed part. `TripFollower` and `ShipmentFollower` are this loop with their model and source.
///
/// - Events: each snapshot is diffed against the model before it; nothing is reported when nothing
///   changed, so a restarted source (after an outage, or a reconnected stream) never repeats an event.
/// - Errors, as the SDK guide sorts them (`FleetError.retryClass`): server and network errors are
///   reported as `error` events with `recovering: true` and retried with `Backoff`; client errors are
///   reported with the catalogue's cause and remedy and retried every `refreshSeconds` — or, with
///   `failFast`, end following.
/// - Stopping: when the model says following is over (`FollowedModel.ending`), when the deadline
///   (`deadlineSeconds`, real time) passes, or when `stop` is given.
///
/// `follow` blocks the calling thread; the subscriber is called on it.
public struct Follower<Model: FollowedModel>: Sendable {
    /// Delivers snapshots until `stop` is given (then returns) or a call fails (then throws); asks
    /// `request` for the request before each call; waits with `clock`. A source that returns while
    /// not stopped is a stream the server ended: reported as ABORTED and run again.
    public typealias Source = @Sendable (_ request: () -> Model.Request, _ clock: any FollowClock, _ stop: StopSignal,
                                         _ deliver: (Model.Snapshot) -> Void) throws -> Void

    /// The followed resource's name, sent as it is (the server checks it).
    public let name: String
    /// Where snapshots come from.
    public let source: Source
    /// When to stop and how to retry.
    public let configuration: FollowConfiguration
    /// Which events are reported; the others are computed but not delivered.
    public let reports: @Sendable (Model.Kind) -> Bool
    /// The time and the waits.
    public let clock: any FollowClock
    /// A random number in 0 ..< 1 for the backoff's jitter.
    public let random: @Sendable () -> Double

    /// A follower of `name`.
    public init(name: String, source: @escaping Source, configuration: FollowConfiguration,
                reports: @escaping @Sendable (Model.Kind) -> Bool, clock: any FollowClock,
                random: @escaping @Sendable () -> Double) {
        self.name = name
        self.source = source
        self.configuration = configuration
        self.reports = reports
        self.clock = clock
        self.random = random
    }

    /// Follows until the model says it is over, a client error ends it with `failFast`, the deadline
    /// passes, or `stop` is given; returns why it ended. The follower gives `stop` itself when it
    /// ends on its own.
    public func follow(stop: StopSignal = StopSignal(), onUpdate: (FollowUpdate<Model>) -> Void) -> FollowOutcome {
        let deadline = configuration.deadlineSeconds.map { FollowDeadline(seconds: $0, stop: stop) }
        var model = Model(name: name)
        var sent = model.request()
        var failures = 0
        var outcome: FollowOutcome?

        func finish(_ ending: FollowOutcome) {
            outcome = ending
            stop.stop()
        }

        func receive(_ snapshot: Model.Snapshot) {
            failures = 0
            let previous = model
            model = previous.merging(snapshot, answering: sent, observedAt: clock.now())
            let events = model.events(since: previous, at: model.observedAt ?? clock.now())
            if !events.isEmpty || previous.lastFailure != nil {
                onUpdate(FollowUpdate(model: model, events: events.filter { reports($0.kind) }))
            }
            guard !events.isEmpty, let ending = model.ending(configuration) else { return }
            finish(ending)
        }

        while !stop.isStopped {
            let failure: FleetError
            do {
                try source({
                    sent = model.request()
                    return sent
                }, clock, stop, receive)
                guard !stop.isStopped else { break }
                failure = FleetError(.streamAborted, detail: "the server ended the \(Model.noun)'s snapshot stream")
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
            let event = FollowEvent(kind: Model.Kind.error, name: name, time: clock.now(), value: .failure(reported))
            onUpdate(FollowUpdate(model: model, events: reports(.error) ? [event] : []))
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
