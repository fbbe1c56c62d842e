import Dispatch

/// A counting semaphore: `signal` adds one, `wait` takes one, waiting while there is none. For
/// "start together" and "wait for N to finish" among threads, and for a signal given by a callback
/// that a thread waits for (a signal source registered, a stop requested).
public final class Semaphore: Sendable {
    private let semaphore: DispatchSemaphore

    /// A semaphore holding `value` (0: the first `wait` waits for a `signal`).
    public init(value: Int = 0) {
        // Made at 0 and signalled up: libdispatch traps when a semaphore is freed holding less than
        // the value it was made with, which a semaphore made at 1 and taken once would be.
        semaphore = DispatchSemaphore(value: 0)
        for _ in 0..<max(0, value) { semaphore.signal() }
    }

    /// Adds one, waking one waiter if any.
    public func signal() {
        semaphore.signal()
    }

    /// Takes one, waiting as long as it takes.
    public func wait() {
        semaphore.wait()
    }

    /// Takes one, waiting at most `timeout`; false when none came in time.
    public func wait(timeout: Duration) -> Bool {
        semaphore.wait(timeout: .now() + .nanoseconds(Self.nanoseconds(timeout))) == .success
    }

    /// `duration` in nanoseconds, clamped to zero and to a year.
    static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(0, Int(min(seconds, 86_400 * 365)) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}

/// A value one thread hands to another that waits for it: a result computed by a callback, a
/// completion, or a thread of its own. Given once, taken once.
public final class Handoff<Value> {
    // Written once by `give` before `given` is signalled, read by `take` after it waited for it:
    // the semaphore orders the two. Inlinable: a blocking write takes one per commit.
    @usableFromInline let given = DispatchSemaphore(value: 0)
    @usableFromInline var value: Value?

    /// Nothing given yet.
    public init() {}

    /// Hands `value` over, waking the taker. Call it once.
    @inlinable
    public func give(_ value: Value) {
        self.value = value
        given.signal()
    }

    /// Waits until the value is given and returns it. Call it once.
    @inlinable
    public func take() -> Value {
        given.wait()
        return value!
    }
}

extension Handoff: @unchecked Sendable where Value: Sendable {}
