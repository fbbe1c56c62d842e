import FleetStore
import Foundation
import Synchronization

/// Wakes threads waiting for a record to change: the engine signals every key it commits.
final class ChangeNotifier: Sendable {
    private let generations = Mutex<[RecordKey: UInt64]>([:])
    private let condition = NSCondition()

    /// The change count of a key (0 before any change in this process).
    func generation(of key: RecordKey) -> UInt64 {
        generations.withLock { $0[key] ?? 0 }
    }

    /// Marks keys changed and wakes every waiter.
    func signal(_ keys: some Sequence<RecordKey>) {
        generations.withLock { g in
            for key in keys { g[key, default: 0] &+= 1 }
        }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes every waiter without a change (cancellation).
    func wakeAll() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until one of `keys` moves past the generation given with it, `timeout` seconds pass,
    /// or `stop` says so.
    func wait(for keys: [(key: RecordKey, generation: UInt64)], timeout: Double, stop: () -> Bool) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while keys.allSatisfy({ generation(of: $0.key) == $0.generation }) && !stop() {
            if !condition.wait(until: deadline) { return }
        }
    }
}
