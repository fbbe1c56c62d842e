import FleetConcurrency
import FleetInterface
import FleetEngine
import Synchronization

/// The watches running on a journal transport, so that closing it, or a journal failure, ends them.
final class WatchRegistry: Sendable {
    private let active = Mutex<(next: Int, watches: [Int: Cancellation])>((0, [:]))

    /// Registers a watch; returns the token that removes it.
    func add(_ watch: Cancellation) -> Int {
        active.withLock { active in
            active.next += 1
            active.watches[active.next] = watch
            return active.next
        }
    }

    /// Forgets a watch that ended.
    func remove(_ token: Int) {
        _ = active.withLock { $0.watches.removeValue(forKey: token) }
    }

    /// Whether any watch runs.
    var isEmpty: Bool {
        active.withLock { $0.watches.isEmpty }
    }

    /// Cancels every registered watch.
    func cancelAll() {
        let watches = active.withLock { Array($0.watches.values) }
        for watch in watches { watch.cancel() }
    }
}
