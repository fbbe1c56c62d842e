import FleetStore
import Synchronization

/// Something told when a record it observes is committed.
protocol ChangeObserver: AnyObject, Sendable {
    /// A record this observer follows changed. Called on the committing thread: return quickly.
    func recordChanged()
}

/// Tells observers when the records they follow change: the engine signals every key it commits, and
/// only the observers of those keys hear of it (no waking of everyone on every commit).
final class ChangeNotifier: Sendable {
    private let observers = Mutex<[RecordKey: [ObjectIdentifier: any ChangeObserver]]>([:])

    /// Starts telling `observer` of changes to `key`.
    func observe(_ key: RecordKey, by observer: any ChangeObserver) {
        observers.withLock { $0[key, default: [:]][ObjectIdentifier(observer)] = observer }
    }

    /// Stops telling `observer` of changes to `key`.
    func stopObserving(_ key: RecordKey, by observer: any ChangeObserver) {
        observers.withLock { observers in
            observers[key]?[ObjectIdentifier(observer)] = nil
            if observers[key]?.isEmpty == true { observers[key] = nil }
        }
    }

    /// Tells the observers of `keys` that they changed (each observer once).
    func signal(_ keys: some Sequence<RecordKey>) {
        let told: [any ChangeObserver] = observers.withLock { observers in
            guard !observers.isEmpty else { return [] }
            var found: [ObjectIdentifier: any ChangeObserver] = [:]
            for key in keys {
                guard let watching = observers[key] else { continue }
                found.merge(watching) { first, _ in first }
            }
            return Array(found.values)
        }
        for observer in told { observer.recordChanged() }
    }
}
