import Dispatch
import FleetErrors
import FleetInterface
import FleetModel
import FleetStore
import Synchronization

/// Every watch of one request (same trip, same view and versions): the trip is read and compared
/// once per change, and the same snapshot handed to each watcher, in order.
///
/// A feed observes its trip and the trip's vehicle. On a change it schedules one refresh on the
/// shared queue; changes arriving meanwhile are folded into a single further refresh, so a busy trip
/// costs one read per refresh however many watch it and however often it changes. A read that fails
/// for a retryable reason (the store unreachable during a failover) ends no watch: the feed reads
/// again a poll later.
final class TripFeed: ChangeObserver {
    let request: GetTripRequest
    let tripKey: RecordKey
    private let engine: Engine
    private let state = Mutex(State())

    private struct State {
        var observations: [ObjectIdentifier: TripObservation] = [:]
        var vehicleKey: RecordKey?
        var last: Trip?
        var isRefreshing = false
        var isDirty = false
    }

    init(request: GetTripRequest, tripKey: RecordKey, engine: Engine) {
        self.request = request
        self.tripKey = tripKey
        self.engine = engine
    }

    var isEmpty: Bool { state.withLock { $0.observations.isEmpty } }

    func add(_ observation: TripObservation) {
        state.withLock { $0.observations[ObjectIdentifier(observation)] = observation }
    }

    /// Removes a watcher; true when none are left.
    func remove(_ observation: TripObservation) -> Bool {
        state.withLock { state in
            state.observations[ObjectIdentifier(observation)] = nil
            return state.observations.isEmpty
        }
    }

    /// The keys the feed observes now.
    var observedKeys: [RecordKey] {
        state.withLock { state in [tripKey] + (state.vehicleKey.map { [$0] } ?? []) }
    }

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
                if state.isDirty { return true }
                state.isRefreshing = false
                return false
            }
            if !again { return }
        }
    }

    /// Reads the trip once and hands it to the watchers that have not seen this state.
    private func refresh() {
        let observations = state.withLock { Array($0.observations.values) }
        guard !observations.isEmpty else { return }
        let trip: Trip
        do {
            trip = try engine.getTrip(request)
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
        let (changed, vehicleMove) = state.withLock { state -> (Bool, (old: RecordKey?, new: RecordKey?)) in
            let changed = state.last.map { !$0.sameState(as: trip) } ?? true
            state.last = trip
            let vehicleKey = trip.vehicleId.flatMap { id in
                id.isEmpty ? nil : RecordKey(.vehicle, provider: tripKey.provider, id: id)
            }
            defer { state.vehicleKey = vehicleKey }
            return (changed, (state.vehicleKey, vehicleKey))
        }
        if vehicleMove.old != vehicleMove.new {
            if let old = vehicleMove.old { engine.changes.stopObserving(old, by: self) }
            if let new = vehicleMove.new { engine.changes.observe(new, by: self) }
        }
        let snapshot = TripSnapshot(trip)
        for observation in observations where !observation.isCancelled.load(ordering: .acquiring) {
            let first = !observation.hasInitial.exchange(true, ordering: .acquiringAndReleasing)
            guard changed || first else { continue }
            if !observation.onUpdate(snapshot) { observation.cancel() }
        }
    }
}

extension Trip {
    /// Equal but for the time left to the next waypoint, which changes with the clock alone.
    func sameState(as other: Trip) -> Bool {
        var a = self, b = other
        a.remainingTimeToFirstWaypoint = nil
        b.remainingTimeToFirstWaypoint = nil
        return a == b
    }
}

/// The engine's open feeds, one per watched request, and — over a store other processes share — the
/// timer that re-reads them so that those processes' changes are seen too, and the store's own news of
/// their commits where it has any (PostgreSQL's notifications wake a feed within milliseconds; the
/// timer stays for what a reconnecting store missed). Every change made in this process, the journal
/// transport's replays included, wakes its feeds at once.
final class TripFeeds: Sendable {
    /// Where refreshes run: a concurrent queue, so feeds refresh in parallel (each one in order).
    let queue = DispatchQueue(label: "fleet.trip-feeds", attributes: .concurrent)
    /// How often every feed is re-read when nothing in this process signalled.
    let pollSeconds: Double
    private let state = Mutex(State())

    private struct State {
        var feeds: [GetTripRequest: TripFeed] = [:]
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
    /// brings the watcher its first snapshot.
    func attach(_ observation: TripObservation, request: GetTripRequest, tripKey: RecordKey, engine: Engine) {
        var key = request
        key.header = nil
        let feed = state.withLock { state -> TripFeed in
            let feed = state.feeds[key] ?? {
                let feed = TripFeed(request: key, tripKey: tripKey, engine: engine)
                state.feeds[key] = feed
                engine.changes.observe(tripKey, by: feed)
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
            self.detach(observation, from: feed, engine: engine)
        }
        feed.recordChanged()
    }

    private func detach(_ observation: TripObservation, from feed: TripFeed, engine: Engine) {
        let closed = state.withLock { state -> Bool in
            guard feed.remove(observation), state.feeds[feed.request] === feed else { return false }
            state.feeds[feed.request] = nil
            if state.feeds.isEmpty {
                state.poller?.cancel()
                state.poller = nil
                state.storeChanges?.cancel()
                state.storeChanges = nil
            }
            return true
        }
        if closed {
            for key in feed.observedKeys { engine.changes.stopObserving(key, by: feed) }
        }
    }

    /// Number of open feeds (for tests and metrics).
    var count: Int { state.withLock { $0.feeds.count } }

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
