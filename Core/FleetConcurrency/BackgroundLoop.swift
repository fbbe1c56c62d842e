import Synchronization
import Synchronization

/// A named background thread that runs a step again and again, waiting between steps as long as the
/// step asks, until stopped: what the position history's pruner and the learning from it run on.
/// `stop` wakes a wait at once and returns when the thread has ended (a step under way finishes first).
public final class BackgroundLoop: Sendable {
    private let name: String
    private let initialDelaySeconds: Double
    private let step: @Sendable () -> Double
    private let doorbell = Doorbell()
    private let stopped = Atomic(false)
    private let finished = Doorbell()
    private let running = Atomic(false)

    /// A loop on a thread named `name` (shown by `top -H`), waiting `initialDelaySeconds` before its first step;
    /// `step` returns the seconds to wait before the next.
    public init(name: String, initialDelaySeconds: Double = 0, step: @escaping @Sendable () -> Double) {
        self.name = name
        self.initialDelaySeconds = initialDelaySeconds
        self.step = step
    }

    /// Starts the thread (once).
    public func start() {
        guard !running.exchange(true, ordering: .relaxed) else { return }
        WorkerThread.start(name: name) { [self] in
            var wait = initialDelaySeconds
            while !stopped.load(ordering: .relaxed) {
                if wait > 0 { _ = doorbell.wait(seconds: wait) }
                guard !stopped.load(ordering: .relaxed) else { break }
                wait = step()
            }
            finished.signal()
        }
    }

    /// Stops the thread and waits for it to end.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        doorbell.signal()
        if running.load(ordering: .relaxed) {
            while !finished.wait(seconds: 1) {}
        }
    }
}
