import Foundation
import FleetConcurrency

/// The system clock, optionally running `rate` times faster than real time from the moment it is made.
/// It reads the monotonic clock, so wall-clock steps (NTP) do not disturb intervals.
public struct SystemTimeSource: TimeSource {
    /// Seconds of this time per real second.
    public let rate: Double
    private let wallStart: Double
    private let monotonicStart: Double

    /// A clock starting at the current wall time and running `rate` (> 0) times faster than real time.
    public init(rate: Double = 1) {
        precondition(rate > 0 && rate.isFinite, "a time source's rate must be positive")
        self.rate = rate
        self.wallStart = Date().timeIntervalSince1970
        self.monotonicStart = Self.monotonicSeconds()
    }

    /// The current time of this clock, seconds since 1970.
    public func now() -> Double {
        wallStart + (Self.monotonicSeconds() - monotonicStart) * rate
    }

    /// Waits until `deadline` or a wakeup signal; true when woken.
    public func wait(until deadline: Double, wakeup: Doorbell) -> Bool {
        wakeup.wait(seconds: (deadline - now()) / rate)
    }

    private static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
