import Foundation

/// State shared by threads behind one lock, which a thread can wait on until it reaches a condition
/// ("no request in flight", "every stream has its event", "the writer thread has stopped").
///
/// Changes made through `update` wake every waiter to look again, so no wait can miss the change
/// that satisfies it: a waiter checks its condition and sleeps under the same lock the change takes.
/// `withLock` changes nothing a waiter waits for, and wakes nobody.
public final class WaitableState<State> {
    // The condition guards `state`; every access holds its lock.
    private let condition = NSCondition()
    private var state: State

    /// Shared state starting at `initial`.
    public init(_ initial: State) {
        state = initial
    }

    /// Reads or changes the state under the lock without waking waiters: for reads, and for changes
    /// no waiter waits for.
    public func withLock<Value>(_ body: (inout State) throws -> Value) rethrows -> Value {
        condition.lock()
        defer { condition.unlock() }
        return try body(&state)
    }

    /// Changes the state under the lock, then wakes every waiter to check its condition again (also
    /// when `body` throws, after whatever it changed).
    @discardableResult
    public func update<Value>(_ body: (inout State) throws -> Value) rethrows -> Value {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&state)
    }

    /// Wakes every waiter to check its condition again: after a change made under `withLock` that
    /// turned out to concern them, so that the hot path of a change that does not wakes nobody.
    public func wakeWaiters() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `ready` holds for the state, or until `deadline` (nil: no deadline); true when it
    /// holds, false on timeout.
    @discardableResult
    public func wait(until ready: (State) -> Bool, deadline: ContinuousClock.Instant? = nil) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return sleep(until: ready, deadline: deadline)
    }

    /// Waits up to `timeout` until `ready` holds for the state; true when it holds, false on timeout.
    @discardableResult
    public func wait(until ready: (State) -> Bool, timeout: Duration) -> Bool {
        wait(until: ready, deadline: .now + timeout)
    }

    /// Waits until `ready` holds or `deadline` passes, then runs `body` under the same lock hold, with
    /// whether `ready` held: so a thread can take what it waited for before another does. Changes
    /// `body` makes wake the other waiters, as `update` does.
    public func wait<Value>(until ready: (State) -> Bool, deadline: ContinuousClock.Instant? = nil,
                            then body: (inout State, _ isReady: Bool) throws -> Value) rethrows -> Value {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        let isReady = sleep(until: ready, deadline: deadline)
        return try body(&state, isReady)
    }

    /// Sleeps on the condition until `ready` holds or `deadline` passes. Called with the lock held.
    private func sleep(until ready: (State) -> Bool, deadline: ContinuousClock.Instant?) -> Bool {
        while !ready(state) {
            guard let deadline else {
                condition.wait()
                continue
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            // NSCondition waits on the wall clock: wait for what is left, at most a year.
            let seconds = remaining / .seconds(1)
            _ = condition.wait(until: Date(timeIntervalSinceNow: min(seconds, 86_400 * 365)))
        }
        return true
    }
}

extension WaitableState: @unchecked Sendable where State: Sendable {}
