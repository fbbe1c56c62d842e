#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import FleetCLI
import FleetConsumer
import FleetErrors
import Synchronization

/// Turns SIGINT (Ctrl-C) and SIGTERM into a stop of the follower, so that the presenter can restore
/// the terminal and say why following ended. A second signal while stopping ends the process at once
/// (after the presenter restored the terminal).
///
/// `@unchecked Sendable`: the dispatch sources are only kept alive here, never touched after `init`.
final class SignalStopper: @unchecked Sendable {
    /// Given on the first signal.
    let stop = StopSignal()
    private let received = Mutex<Int32?>(nil)
    private let finish: @Sendable (FollowOutcome) -> Void
    private var watcher: SignalWatcher?

    /// Handles SIGINT and SIGTERM from now on; `finish` is the presenter's, called before a second
    /// signal ends the process.
    init(finish: @escaping @Sendable (FollowOutcome) -> Void) {
        self.finish = finish
        watcher = SignalWatcher(signals: [SIGINT, SIGTERM], queue: .global()) { [self] number in handle(number) }
    }

    /// 130 after SIGINT, 143 after SIGTERM (128 + the signal's number, as shells report it).
    var exitCode: ExitCode {
        let number = received.withLock { $0 } ?? SIGINT
        return number == SIGTERM ? .terminated : .interrupted
    }

    private func handle(_ number: Int32) {
        let first = received.withLock { seen in
            guard seen == nil else { return false }
            seen = number
            return true
        }
        if first {
            stop.stop()
        } else {
            finish(.stopped)
            exit(128 + number)
        }
    }
}
