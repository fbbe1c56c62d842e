import FleetStore
import Synchronization

/// Something told when a record it observes is committed.
protocol ChangeObserver: AnyObject, Sendable {
    /// A record this observer follows changed. Called on the committing thread: return quickly.
    func recordChanged()
}

/// Something told of every committed record of one kind and provider (a provider's vehicles).
protocol ProviderChangeObserver: AnyObject, Sendable {
    /// These records of the observed kind and provider changed. Called on the committing thread:
    /// return quickly.
    func recordsChanged(_ keys: [RecordKey])
}

/// Tells observers when the records they follow change: the engine signals every key it commits, and
/// only the observers of those keys (or of their kind and provider) hear of it (no waking of everyone
/// on every commit).
final class ChangeNotifier: Sendable {
    private struct Scope: Hashable {
        var kind: RecordKind
        var provider: String
    }

    private struct State {
        var byKey: [RecordKey: [ObjectIdentifier: any ChangeObserver]] = [:]
        var byScope: [Scope: [ObjectIdentifier: any ProviderChangeObserver]] = [:]
        var isEmpty: Bool { byKey.isEmpty && byScope.isEmpty }
    }

    private let observers = Mutex(State())
    /// Whether anyone observes anything, kept beside `observers` so that a commit with no watcher
    /// (the common case) takes no lock shared by every writer: a `Mutex` is a priority-inheritance
    /// futex on Linux, and with 8 writers on 2 cores one taken on every commit can turn into a
    /// lock convoy (every acquire handed over through the kernel).
    private let isObserved = Atomic(false)

    /// Runs `change` on the observers and refreshes `isObserved`.
    private func changeObservers(_ change: (inout State) -> Void) {
        observers.withLock { state in
            change(&state)
            isObserved.store(!state.isEmpty, ordering: .sequentiallyConsistent)
        }
    }

    /// Starts telling `observer` of changes to `key`.
    func observe(_ key: RecordKey, by observer: any ChangeObserver) {
        changeObservers { $0.byKey[key, default: [:]][ObjectIdentifier(observer)] = observer }
    }

    /// Stops telling `observer` of changes to `key`.
    func stopObserving(_ key: RecordKey, by observer: any ChangeObserver) {
        changeObservers { state in
            state.byKey[key]?[ObjectIdentifier(observer)] = nil
            if state.byKey[key]?.isEmpty == true { state.byKey[key] = nil }
        }
    }

    /// Starts telling `observer` of changes to every record of `kind` under `provider`.
    func observe(_ kind: RecordKind, provider: String, by observer: any ProviderChangeObserver) {
        changeObservers { $0.byScope[Scope(kind: kind, provider: provider), default: [:]][ObjectIdentifier(observer)] = observer }
    }

    /// Stops telling `observer` of the records of `kind` under `provider`.
    func stopObserving(_ kind: RecordKind, provider: String, by observer: any ProviderChangeObserver) {
        let scope = Scope(kind: kind, provider: provider)
        changeObservers { state in
            state.byScope[scope]?[ObjectIdentifier(observer)] = nil
            if state.byScope[scope]?.isEmpty == true { state.byScope[scope] = nil }
        }
    }

    /// Tells the observers of `keys` that they changed (each observer once).
    func signal(_ keys: some Sequence<RecordKey>) {
        guard isObserved.load(ordering: .sequentiallyConsistent) else { return }
        let (told, scoped): ([any ChangeObserver], [(any ProviderChangeObserver, [RecordKey])]) = observers.withLock { state in
            guard !state.isEmpty else { return ([], []) }
            var found: [ObjectIdentifier: any ChangeObserver] = [:]
            var scoped: [ObjectIdentifier: (any ProviderChangeObserver, [RecordKey])] = [:]
            for key in keys {
                if let watching = state.byKey[key] {
                    found.merge(watching) { first, _ in first }
                }
                if !state.byScope.isEmpty, let watching = state.byScope[Scope(kind: key.kind, provider: key.provider)] {
                    for (id, observer) in watching { scoped[id, default: (observer, [])].1.append(key) }
                }
            }
            return (Array(found.values), Array(scoped.values))
        }
        for observer in told { observer.recordChanged() }
        for (observer, keys) in scoped { observer.recordsChanged(keys) }
    }
}
