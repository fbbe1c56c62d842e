import Foundation

/// A doorbell one thread waits on and others ring: a timed wait that ends early when rung.
/// A ring given while nobody waits is kept until the next wait consumes it, so a ring between
/// "check the work" and "wait" is never lost.
public final class Doorbell: @unchecked Sendable {
    // The condition guards `rung`; every access holds its lock.
    private let condition = NSCondition()
    private var rung = false

    /// A doorbell that has not rung.
    public init() {}

    /// Rings: the current or next `wait` returns true.
    public func signal() {
        condition.lock()
        rung = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits up to `seconds` of real time; true when rung (the ring is consumed), false on timeout.
    public func wait(seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if seconds > 0 {
            let deadline = Date(timeIntervalSinceNow: min(seconds, 86_400 * 365))
            while !rung {
                if !condition.wait(until: deadline) { break }
            }
        }
        let wasRung = rung
        rung = false
        return wasRung
    }

    /// Consumes a pending ring without waiting; true when there was one.
    public func consume() -> Bool {
        wait(seconds: 0)
    }
}
