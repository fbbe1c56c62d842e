import Foundation

/// A doorbell one thread waits on and others ring: a timed wait that ends early when signalled.
/// A signal given while nobody waits is kept until the next wait consumes it.
public final class Wakeup: @unchecked Sendable {
    // The condition guards `signalled`; every access holds its lock.
    private let condition = NSCondition()
    private var signalled = false

    /// A doorbell that has not rung.
    public init() {}

    /// Rings: the current or next `wait` returns true.
    public func signal() {
        condition.lock()
        signalled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits up to `seconds` of real time; true when signalled (the signal is consumed), false on timeout.
    public func wait(seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if seconds > 0 {
            let deadline = Date(timeIntervalSinceNow: min(seconds, 86_400 * 365))
            while !signalled {
                if !condition.wait(until: deadline) { break }
            }
        }
        let wasSignalled = signalled
        signalled = false
        return wasSignalled
    }

    /// Consumes a pending signal without waiting; true when there was one.
    public func consume() -> Bool {
        wait(seconds: 0)
    }
}
