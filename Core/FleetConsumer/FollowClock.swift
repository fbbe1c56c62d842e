import FleetModel
import Foundation

/// Where a follower reads the time and how it waits between refreshes. Injected so that tests
/// never sleep for time to pass.
public protocol FollowClock: Sendable {
    /// The current time (stamps events and counts ETAs' seconds left).
    func now() -> Timestamp
    /// Waits `seconds`, returning early when `stop` is given.
    func sleep(seconds: Double, stop: StopSignal)
}

/// The system's wall clock, waiting in real time.
public struct SystemFollowClock: FollowClock {
    /// The system clock.
    public init() {}

    /// The wall-clock time.
    public func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(seconds: Int64(spec.tv_sec), nanos: Int32(spec.tv_nsec))
    }

    /// Blocks the calling thread for `seconds` or until `stop`.
    public func sleep(seconds: Double, stop: StopSignal) {
        stop.wait(seconds: seconds)
    }
}
