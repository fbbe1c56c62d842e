import FleetModel
import Foundation
import Synchronization

/// Where the engine reads the time. Injected so tests never sleep for time to pass.
public protocol EngineClock: Sendable {
    /// The current time.
    func now() -> Timestamp
}

/// The system's wall clock.
public struct SystemClock: EngineClock {
    public init() {}

    public func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(seconds: Int64(spec.tv_sec), nanos: Int32(spec.tv_nsec))
    }
}

/// A clock that moves only when told to: for tests and simulations.
public final class ManualClock: EngineClock {
    private let current: Mutex<Timestamp>

    /// Starts at `start` (default 2026-01-01T00:00:00Z).
    public init(_ start: Timestamp = Timestamp(seconds: 1_767_225_600, nanos: 0)) {
        current = Mutex(start)
    }

    public func now() -> Timestamp { current.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    public func advance(seconds: Double) {
        current.withLock { $0 = $0.adding(seconds: seconds) }
    }

    /// Sets the clock.
    public func set(_ time: Timestamp) {
        current.withLock { $0 = time }
    }
}
