import Dispatch
import FleetErrors
import FleetInterface
import FleetModel
import FleetStore
import Synchronization

/// One kind of watch, by the request a watcher makes (`GetTripRequest`, `GetTaskRequest`,
/// `GetTaskTrackingInfoRequest`): which record it names, how its feed reads the answer (as the matching
/// Get call), which other records that answer was read from, and what of it counts as a change.
protocol WatchedRequest: Hashable, Sendable {
    /// What the watch delivers: the Get call's answer.
    associatedtype Message: ProtoMessage
    /// What of an answer is compared to tell a change: two answers with equal states are the same
    /// answer to a watcher (what the clock alone changes is left out).
    associatedtype State: Equatable & Sendable

    /// The request as watchers share a feed: without its header, which does not change the answer.
    var feedRequest: Self { get }

    /// Checks the request as its Get call would and returns the key of the record it names, which its
    /// feed follows from the start.
    /// - Throws: what the Get call would (a bad name, NOT_FOUND).
    func watchedKey(in engine: Engine) throws -> RecordKey

    /// Reads the answer, as the Get call returns it.
    func read(from engine: Engine) throws -> WatchedAnswer<Self>
}

/// One read of a watched request.
struct WatchedAnswer<Request: WatchedRequest> {
    /// The answer, as the Get call returns it.
    var message: Request.Message
    /// What a watcher is told of: a new state is a change.
    var state: Request.State
    /// The records the answer was read from besides the one the request names (the trip's vehicle, the
    /// shipment's tasks and their vehicles): a commit of any of them may change it.
    var dependencies: Set<RecordKey>
}

/// Every watch of one request (same record, same view): the answer is read and compared once per
/// change, and the same snapshot handed to each watcher, in order.
///
/// A feed observes the record its request names and the records its last answer was read from. On a
/// change it schedules one refresh on the shared queue; changes arriving meanwhile are folded into a
/// single further refresh, so a busy record costs one read per refresh however many watch it and
/// however often it changes. When a read finds new records to follow, the feed reads once more after
/// following them, so a commit to one of them between the read and the following is not missed. A
/// read that fails for a retryable reason (the store unreachable during a failover) ends no watch: the
/// feed reads again a poll later.
final class WatchFeed<Request: WatchedRequest>: ChangeObserver {
    let request: Request
    /// The record the request names.
    let key: RecordKey
    private let engine: Engine
    private let state = Mutex(State())

    private struct State {
        var observations: [ObjectIdentifier: WatchObservation<Request.Message>] = [:]
        var dependencies: Set<RecordKey> = []
        var last: Request.State?
        var isRefreshing = false
        var isDirty = false
        var isClosed = false
    }

    init(request: Request, key: RecordKey, engine: Engine) {
        self.request = request
        self.key = key
        self.engine = engine
    }

    func add(_ observation: WatchObservation<Request.Message>) {
        state.withLock { $0.observations[ObjectIdentifier(observation)] = observation }
    }

    /// Removes a watcher; true when none are left.
    func remove(_ observation: WatchObservation<Request.Message>) -> Bool {
        state.withLock { state in
            state.observations[ObjectIdentifier(observation)] = nil
            return state.observations.isEmpty
        }
    }

    /// Starts following the named record.
    func open() {
        engine.changes.observe(key, by: self)
    }

    /// Stops following every record, for good: a refresh still under way follows nothing new.
    /// (The notifier is told under the feed's lock, which its own lock never waits for.)
    func close() {
        state.withLock { state in
            state.isClosed = true
            engine.changes.stopObserving(key, by: self)
            for key in state.dependencies { engine.changes.stopObserving(key, by: self) }
            state.dependencies = []
        }
    }

    /// Whether a read is under way or due (a commit this feed follows has not yet been read).
    var isRefreshing: Bool { state.withLock { $0.isRefreshing } }

    func recordChanged() {
        let start = state.withLock { state -> Bool in
            if state.isRefreshing {
                state.isDirty = true
                return false
            }
            state.isRefreshing = true
            return true
        }
        if start { engine.feeds.queue.async { self.refreshUntilClean() } }
    }

    private func refreshUntilClean() {
        while true {
            state.withLock { $0.isDirty = false }
            refresh()
            let again = state.withLock { state -> Bool in
                if state.isDirty && !state.isClosed { return true }
                state.isRefreshing = false
                return false
            }
            if !again { return }
        }
    }

    /// Reads the answer once and hands it to the watchers that have not seen this state.
    private func refresh() {
        let observations = state.withLock { Array($0.observations.values) }
        guard !observations.isEmpty else { return }
        let answer: WatchedAnswer<Request>
        do {
            answer = try request.read(from: engine)
        } catch {
            let failure = error as? FleetError ?? FleetError(.internalFault, detail: "\(error)")
            // The store is unreachable for now (a database failover): the watchers wait, and the
            // feed reads again a poll later, delivering what changed meanwhile once it can.
            if failure.retryClass == .retryable {
                engine.feeds.queue.asyncAfter(deadline: .now() + Engine.watchPollSeconds) { [weak self] in self?.recordChanged() }
                return
            }
            for observation in observations { observation.end(with: failure) }
            return
        }
        let changed = state.withLock { state -> Bool in
            let changed = state.last.map { $0 != answer.state } ?? true
            state.last = answer.state
            guard !state.isClosed else { return changed }
            let dependencies = answer.dependencies.subtracting([key])
            for gone in state.dependencies.subtracting(dependencies) { engine.changes.stopObserving(gone, by: self) }
            let added = dependencies.subtracting(state.dependencies)
            for new in added { engine.changes.observe(new, by: self) }
            state.dependencies = dependencies
            if !added.isEmpty { state.isDirty = true }
            return changed
        }
        let snapshot = WatchSnapshot(answer.message)
        for observation in observations where !observation.isCancelled.load(ordering: .acquiring) {
            let first = !observation.hasInitial.exchange(true, ordering: .acquiringAndReleasing)
            guard changed || first else { continue }
            if !observation.onUpdate(snapshot) { observation.cancel() }
        }
    }
}

/// A feed as the engine's registry of them holds it, whatever it watches.
protocol OpenWatchFeed: ChangeObserver {
    var isRefreshing: Bool { get }
    func close()
}

extension WatchFeed: OpenWatchFeed {}

/// The engine's open feeds, one per watched request (trips, tasks and tracking IDs alike), and — over a
/// store other processes share — the timer that re-reads them so that those processes' changes are
/// seen too, and the store's own news of their commits where it has any (PostgreSQL's notifications
/// wake a feed within milliseconds; the timer stays for what a reconnecting store missed). Every change
/// made in this process, the journal transport's replays included, wakes its feeds at once.
final class WatchFeeds: Sendable {
    /// Where refreshes run: a concurrent queue, so feeds refresh in parallel (each one in order).
    let queue = DispatchQueue(label: "fleet.watch-feeds", attributes: .concurrent)
    /// How often every feed is re-read when nothing in this process signalled.
    let pollSeconds: Double
    private let state = Mutex(State())

    private struct State {
        /// By request (each feed's `request`, of whichever watched type).
        var feeds: [AnyHashable: any OpenWatchFeed] = [:]
        var poller: (any DispatchSourceTimer)?
        /// The store's own news of other processes' commits, when it has any (PostgreSQL).
        var storeChanges: (any StoreChangeObservation)?
    }

    init(pollSeconds: Double) {
        self.pollSeconds = pollSeconds
    }

    deinit {
        state.withLock {
            $0.poller?.cancel()
            $0.storeChanges?.cancel()
        }
    }

    /// Adds a watcher to the feed of `request` (opening it if needed) and schedules a read, which
    /// brings the watcher its first snapshot. `key` is the record the request names.
    func attach<Request: WatchedRequest>(_ observation: WatchObservation<Request.Message>, request: Request, key: RecordKey, engine: Engine) {
        let shared = request.feedRequest
        let feed = state.withLock { state -> WatchFeed<Request> in
            let feed = state.feeds[AnyHashable(shared)] as? WatchFeed<Request> ?? {
                let feed = WatchFeed(request: shared, key: key, engine: engine)
                state.feeds[AnyHashable(shared)] = feed
                feed.open()
                return feed
            }()
            feed.add(observation)
            if state.poller == nil && engine.store.isSharedWithOtherProcesses {
                state.poller = startPoller()
                state.storeChanges = engine.store.observeChanges { [weak engine] keys in engine?.changes.signal(keys) }
            }
            return feed
        }
        observation.setDetach { [weak self, weak feed, weak observation] in
            guard let self, let feed, let observation else { return }
            self.detach(observation, from: feed)
        }
        feed.recordChanged()
    }

    private func detach<Request: WatchedRequest>(_ observation: WatchObservation<Request.Message>, from feed: WatchFeed<Request>) {
        let closed = state.withLock { state -> Bool in
            let id = AnyHashable(feed.request)
            guard feed.remove(observation), state.feeds[id] === feed else { return false }
            state.feeds[id] = nil
            if state.feeds.isEmpty {
                state.poller?.cancel()
                state.poller = nil
                state.storeChanges?.cancel()
                state.storeChanges = nil
            }
            return true
        }
        if closed { feed.close() }
    }

    /// Number of open feeds (for tests and metrics).
    var count: Int { state.withLock { $0.feeds.count } }

    /// Whether no feed is reading: a write's feeds are reading from its commit (before the write returns)
    /// until they have delivered the change or found that it changes nothing they show (for tests).
    var isIdle: Bool { state.withLock { $0.feeds.values.allSatisfy { !$0.isRefreshing } } }

    /// Whether the feeds are being re-read on a timer (only over a store other processes share).
    var isPolling: Bool { state.withLock { $0.poller != nil } }

    private func startPoller() -> any DispatchSourceTimer {
        pollTimer(every: pollSeconds, on: queue) { [weak self] in
            guard let self else { return }
            for feed in self.state.withLock({ Array($0.feeds.values) }) { feed.recordChanged() }
        }
    }
}

/// A running timer that calls `tick` every `seconds` on `queue`: how feeds over a store other processes
/// share look again for changes those processes made.
func pollTimer(every seconds: Double, on queue: DispatchQueue, tick: @escaping @Sendable () -> Void) -> any DispatchSourceTimer {
    let timer = DispatchSource.makeTimerSource(queue: queue)
    let interval = DispatchTimeInterval.milliseconds(Int(seconds * 1000))
    timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
    timer.setEventHandler(handler: tick)
    timer.resume()
    return timer
}
