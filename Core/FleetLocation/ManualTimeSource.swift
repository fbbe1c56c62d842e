import Synchronization
import FleetConcurrency

/// A clock that moves only when told to, or when something waits on it: `wait(until:)` jumps the time
/// to the deadline at once (unless the wakeup was signalled). Tests drive reporters and feeds with it.
/// With a `step`, every reading also moves it on by that much, as a running clock does between two
/// readings: code that reads the time twice sees two different times.
public final class ManualTimeSource: TimeSource {
    private let current: Mutex<Double>
    private let step: Double

    /// Starts at `start` (default 2026-01-01T00:00:00Z); each `now()` moves it on by `step` seconds.
    public init(start: Double = 1_767_225_600, step: Double = 0) {
        current = Mutex(start)
        self.step = step
    }

    /// Always 1: the clock moves only when told to.
    public var rate: Double { 1 }

    /// The time set or reached so far (then moved on by `step`).
    public func now() -> Double {
        current.withLock { time in
            defer { time += step }
            return time
        }
    }

    /// Waits until `deadline` or a wakeup signal; true when woken.
    public func wait(until deadline: Double, wakeup: Doorbell) -> Bool {
        if wakeup.consume() { return true }
        current.withLock { $0 = max($0, deadline) }
        return false
    }

    /// Moves the time forward by `seconds`.
    public func advance(by seconds: Double) {
        current.withLock { $0 += seconds }
    }

    /// Sets the time.
    public func set(_ time: Double) {
        current.withLock { $0 = time }
    }
}
