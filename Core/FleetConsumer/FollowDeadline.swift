import Dispatch
import Synchronization

/// Gives a follower's stop signal once a number of seconds of real time have passed, and remembers
/// that it did, so that the follower reports `deadlinePassed` rather than `stopped`. Real time, not
/// the follower's clock: a deadline is the caller's ("stop waiting after ten minutes"), and a watch
/// that blocks for hours must end at it too.
final class FollowDeadline: Sendable {
    private let passed = Mutex(false)

    /// Starts counting; gives `stop` after `seconds` unless it was given before.
    init(seconds: Double, stop: StopSignal) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(max(0, min(seconds, 1e9)) * 1e9))) { [self] in
            guard !stop.isStopped else { return }
            self.passed.withLock { $0 = true }
            stop.stop()
        }
    }

    /// Whether the deadline passed and gave the stop signal.
    var hasPassed: Bool { passed.withLock { $0 } }
}
