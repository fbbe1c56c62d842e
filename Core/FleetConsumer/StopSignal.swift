import FleetConcurrency
import FleetInterface
import Foundation

/// Tells a follower, its source and its waits to stop: from a signal handler, another thread, or
/// the follower itself when the trip ends. Once stopped it stays stopped.
public final class StopSignal: Sendable {
    /// The cancellation handed to blocking watches (`TripWatching.watchTrip`); cancelled by `stop()`.
    public let cancellation = Cancellation()
    private let doorbell = Doorbell()

    /// A signal not yet given.
    public init() {
        cancellation.onCancel { [doorbell] in doorbell.signal() }
    }

    /// Stops; safe to call more than once, from any thread.
    public func stop() {
        cancellation.cancel()
    }

    /// Whether `stop()` was called.
    public var isStopped: Bool { cancellation.isCancelled }

    /// Runs `action` when the signal is given (at once when it already was): to cancel a transfer.
    public func onStop(_ action: @escaping @Sendable () -> Void) {
        cancellation.onCancel(action)
    }

    /// Blocks for `seconds` of real time, or until `stop()`; returns whether the time ran out
    /// (false: stopped).
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: max(0, seconds))
        while !isStopped {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 || !doorbell.wait(seconds: left) { return !isStopped }
        }
        return false
    }
}
