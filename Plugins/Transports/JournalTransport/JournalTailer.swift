import FleetConcurrency
import Foundation
import Synchronization

/// A background thread that polls every `interval` seconds while there is reason to (someone watches),
/// so that watchers hear of other processes' changes without making a call. It ends by itself when
/// `shouldContinue` says no, and starts again on demand.
final class JournalTailer: Sendable {
    private let interval: Double
    /// Whether a thread runs; checked and cleared together with `shouldContinue`, so a caller that makes
    /// `shouldContinue` true and then calls `ensureRunning` always has a running thread.
    private let running = Mutex(false)
    private let stopped = Mutex(false)
    private let wake = Doorbell()

    /// A tailer that polls every `interval` seconds once started.
    init(interval: Double) {
        self.interval = interval
    }

    /// Starts the thread unless one runs (or the tailer was stopped). It calls `poll`, then sleeps,
    /// for as long as `shouldContinue` returns true.
    func ensureRunning(while shouldContinue: @escaping @Sendable () -> Bool, poll: @escaping @Sendable () -> Void) {
        let start = running.withLock { running in
            guard !running, !isStopped else { return false }
            running = true
            return true
        }
        guard start else { return }
        WorkerThread.start(name: "journal-tailer") { [self] in
            while running.withLock({ running in
                running = !isStopped && shouldContinue()
                return running
            }) {
                poll()
                if !isStopped { _ = wake.wait(seconds: interval) }
            }
        }
    }

    /// Stops the thread for good (it finishes its current poll first); safe to call more than once.
    func stop() {
        stopped.withLock { $0 = true }
        wake.signal()
    }

    private var isStopped: Bool { stopped.withLock { $0 } }
}
