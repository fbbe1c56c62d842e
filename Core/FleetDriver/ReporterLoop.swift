import FleetLocation
import Synchronization

/// Runs a `VehicleReporter` while tracking is on: ticks whenever an update is due, sleeps on the
/// reporter's time in between (woken by new locations), and calls `heartbeat` every `heartbeatSeconds`
/// of real time (systemd's watchdog, the status line) however quiet things are.
///
/// `run` returns when `requestStop` is called or the duration ends; then call the reporter's `stop` for
/// the final update (OFFLINE for a rides vehicle).
public final class ReporterLoop: Sendable {
    /// Why the loop ended.
    public enum EndReason: Sendable, Hashable {
        /// `requestStop(reason:)` was called with this reason (a signal, the end of the source).
        case requested(String)
        /// The `until` time passed (`--duration`).
        case durationElapsed
    }

    /// The reporter run.
    public let reporter: VehicleReporter
    private let time: any TimeSource
    private let stopReason = Mutex<String?>(nil)

    /// A loop for `reporter` on `time`.
    public init(reporter: VehicleReporter, time: any TimeSource) {
        self.reporter = reporter
        self.time = time
    }

    /// Asks `run` to return (from any thread, e.g. a signal handler's queue); the first reason wins.
    public func requestStop(reason: String) {
        stopReason.withLock { current in
            if current == nil { current = reason }
        }
        reporter.wakeup.signal()
    }

    /// Whether a stop was requested.
    public var isStopRequested: Bool { stopReason.withLock { $0 != nil } }

    /// Ticks the reporter until a stop is requested or `until` (reporter time) passes; calls `heartbeat`
    /// at least every `heartbeatSeconds` real seconds.
    public func run(until: Double? = nil, heartbeatSeconds: Double? = nil, heartbeat: (@Sendable () -> Void)? = nil) -> EndReason {
        var nextHeartbeat = heartbeatSeconds.map { time.now() + $0 * time.rate }
        while true {
            if let reason = stopReason.withLock({ $0 }) { return .requested(reason) }
            if let until, time.now() >= until { return .durationElapsed }
            reporter.tick()
            if let beat = nextHeartbeat, let heartbeatSeconds, time.now() >= beat {
                heartbeat?()
                nextHeartbeat = time.now() + heartbeatSeconds * time.rate
            }
            if stopReason.withLock({ $0 != nil }) { continue }
            var wake = reporter.nextWakeTime ?? time.now() + 3600
            if let until { wake = min(wake, until) }
            if let beat = nextHeartbeat { wake = min(wake, beat) }
            if wake > time.now() {
                _ = time.wait(until: wake, wakeup: reporter.wakeup)
            }
        }
    }
}
