import Dispatch
import FleetErrors
import FleetInterface
import FleetModel
import FleetStore
import Synchronization

extension Engine {
    /// Starts watching every vehicle of `provider` without holding a thread: `onUpdate` gets all of
    /// them at once (`isInitial` true, possibly empty), then each vehicle that changed or was deleted,
    /// on a shared queue, in order, until it returns false or the observation is cancelled.
    ///
    /// Watches of the same provider share one feed: a vehicle is read once per change for all of them,
    /// only the vehicles committed are read (not the whole fleet), and an unchanged vehicle is not sent.
    /// Over a store other processes share, the feed also lists the fleet again every second.
    public func observeVehicles(provider: String,
                                onUpdate: @escaping @Sendable (_ changes: [VehicleChange], _ isInitial: Bool) -> Bool) throws -> VehicleObservation {
        _ = try ProviderName(parsing: "providers/\(provider)", field: "parent")
        let observation = VehicleObservation(onUpdate: onUpdate)
        vehicleFeeds.attach(observation, provider: provider, engine: self)
        return observation
    }
}

/// Every vehicles watch of one provider.
final class VehicleFeed: ProviderChangeObserver {
    let provider: String
    private let engine: Engine
    private let state = Mutex(State())

    private struct State {
        var observations: [ObjectIdentifier: VehicleObservation] = [:]
        /// Watchers that still need the whole fleet.
        var newcomers: [ObjectIdentifier: VehicleObservation] = [:]
        var dirty: Set<RecordKey> = []
        var relistAll = false
        var isRefreshing = false
        /// The JSON last sent of each vehicle, by ID.
        var sent: [String: String] = [:]
    }

    init(provider: String, engine: Engine) {
        self.provider = provider
        self.engine = engine
    }

    func add(_ observation: VehicleObservation) {
        state.withLock { state in
            state.observations[ObjectIdentifier(observation)] = observation
            state.newcomers[ObjectIdentifier(observation)] = observation
        }
        schedule()
    }

    /// Removes a watcher; true when none are left.
    func remove(_ observation: VehicleObservation) -> Bool {
        state.withLock { state in
            state.observations[ObjectIdentifier(observation)] = nil
            state.newcomers[ObjectIdentifier(observation)] = nil
            return state.observations.isEmpty
        }
    }

    func recordsChanged(_ keys: [RecordKey]) {
        state.withLock { $0.dirty.formUnion(keys) }
        schedule()
    }

    /// Looks at the whole fleet again (other processes' commits do not signal this one).
    func relist() {
        state.withLock { $0.relistAll = true }
        schedule()
    }

    private func schedule() {
        let start = state.withLock { state -> Bool in
            guard !state.isRefreshing else { return false }
            state.isRefreshing = true
            return true
        }
        if start { engine.vehicleFeeds.queue.async { self.refreshUntilClean() } }
    }

    private func refreshUntilClean() {
        while true {
            let work = state.withLock { state -> (dirty: Set<RecordKey>, all: Bool, newcomers: [VehicleObservation])? in
                if state.dirty.isEmpty && !state.relistAll && state.newcomers.isEmpty {
                    state.isRefreshing = false
                    return nil
                }
                defer {
                    state.dirty = []
                    state.relistAll = false
                    state.newcomers = [:]
                }
                return (state.dirty, state.relistAll, Array(state.newcomers.values))
            }
            guard let work else { return }
            refresh(dirty: work.dirty, all: work.all, newcomers: work.newcomers)
        }
    }

    private func refresh(dirty: Set<RecordKey>, all: Bool, newcomers: [VehicleObservation]) {
        var changes: [VehicleChange] = []
        var fleet: [VehicleChange]?
        if all || !newcomers.isEmpty {
            // The whole fleet: to greet newcomers, and to notice what other processes changed.
            var everyone: [VehicleChange] = []
            var seen = Set<String>()
            do {
                try engine.forEachRecord(.vehicle, provider: provider) { stored in
                    let vehicle = try engine.records.vehicle(stored).vehicle.forResponse
                    let name = "providers/\(provider)/vehicles/\(stored.key.id)"
                    everyone.append(VehicleChange(name: name, vehicle: vehicle, json: vehicle.jsonString()))
                    seen.insert(stored.key.id)
                }
            } catch {
                // The store failed (busy, closing): greet the newcomers and look again in a second,
                // rather than tell them of an empty fleet.
                engine.vehicleFeeds.queue.asyncAfter(deadline: .now() + 1) { [weak self] in
                    guard let self else { return }
                    self.state.withLock { state in
                        for observation in newcomers where state.observations[ObjectIdentifier(observation)] != nil {
                            state.newcomers[ObjectIdentifier(observation)] = observation
                        }
                        state.dirty.formUnion(dirty)
                        state.relistAll = state.relistAll || all
                    }
                    self.schedule()
                }
                return
            }
            fleet = everyone
            let previously = state.withLock { $0.sent }
            for change in everyone where previously[Self.id(of: change.name)] != change.json { changes.append(change) }
            for id in previously.keys where !seen.contains(id) {
                changes.append(VehicleChange(name: "providers/\(provider)/vehicles/\(id)", vehicle: nil, json: nil))
            }
        } else {
            let previously = state.withLock { $0.sent }
            for key in dirty.sorted() {
                let name = "providers/\(provider)/vehicles/\(key.id)"
                if let stored = try? engine.loadVehicle(key) {
                    let vehicle = stored.vehicle.forResponse
                    let json = vehicle.jsonString()
                    if previously[key.id] != json { changes.append(VehicleChange(name: name, vehicle: vehicle, json: json)) }
                } else if previously[key.id] != nil {
                    changes.append(VehicleChange(name: name, vehicle: nil, json: nil))
                }
            }
        }
        let (watchers, greeted) = state.withLock { state -> ([VehicleObservation], Set<ObjectIdentifier>) in
            for change in changes { state.sent[Self.id(of: change.name)] = change.json }
            return (Array(state.observations.values), Set(newcomers.map(ObjectIdentifier.init)))
        }
        for observation in watchers where !observation.isCancelled.load(ordering: .acquiring) {
            let keep: Bool
            if greeted.contains(ObjectIdentifier(observation)) {
                keep = observation.onUpdate(fleet ?? [], true)
            } else if !changes.isEmpty {
                keep = observation.onUpdate(changes, false)
            } else {
                keep = true
            }
            if !keep { observation.cancel() }
        }
    }

    private static func id(of name: String) -> String {
        String(name[name.index(after: name.lastIndex(of: "/")!)...])
    }
}

/// The engine's vehicles feeds, one per watched provider, and the timer that lists the fleets again
/// over a store other processes share.
final class VehicleFeeds: Sendable {
    let queue = DispatchQueue(label: "fleet.vehicle-feeds", attributes: .concurrent)
    let pollSeconds: Double
    private let state = Mutex(State())

    private struct State {
        var feeds: [String: VehicleFeed] = [:]
        var poller: (any DispatchSourceTimer)?
    }

    init(pollSeconds: Double) {
        self.pollSeconds = pollSeconds
    }

    deinit {
        state.withLock { $0.poller?.cancel() }
    }

    func attach(_ observation: VehicleObservation, provider: String, engine: Engine) {
        let feed = state.withLock { state -> VehicleFeed in
            let feed = state.feeds[provider] ?? {
                let feed = VehicleFeed(provider: provider, engine: engine)
                state.feeds[provider] = feed
                engine.changes.observe(.vehicle, provider: provider, by: feed)
                return feed
            }()
            if state.poller == nil && engine.store.isSharedWithOtherProcesses { state.poller = startPoller() }
            return feed
        }
        observation.setDetach { [weak self, weak feed, weak observation] in
            guard let self, let feed, let observation else { return }
            self.detach(observation, from: feed, engine: engine)
        }
        feed.add(observation)
    }

    private func detach(_ observation: VehicleObservation, from feed: VehicleFeed, engine: Engine) {
        let closed = state.withLock { state -> Bool in
            guard feed.remove(observation), state.feeds[feed.provider] === feed else { return false }
            state.feeds[feed.provider] = nil
            if state.feeds.isEmpty {
                state.poller?.cancel()
                state.poller = nil
            }
            return true
        }
        if closed { engine.changes.stopObserving(.vehicle, provider: feed.provider, by: feed) }
    }

    /// Number of open feeds (for tests).
    var count: Int { state.withLock { $0.feeds.count } }

    private func startPoller() -> any DispatchSourceTimer {
        pollTimer(every: pollSeconds, on: queue) { [weak self] in
            guard let self else { return }
            for feed in self.state.withLock({ Array($0.feeds.values) }) { feed.relist() }
        }
    }
}
