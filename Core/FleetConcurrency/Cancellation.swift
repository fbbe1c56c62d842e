import Synchronization

/// Tells long-running work (a feed, the reporter loop, a transfer, a watch) to stop, and wakes it
/// if it is waiting: on its doorbell, or through the closures registered with `onCancel`.
/// Once cancelled it stays cancelled.
public final class Cancellation: Sendable {
    /// The doorbell waits watch, rung by `cancel()`.
    public let wakeup = Doorbell()
    private let flag = Atomic<Bool>(false)
    private let wakers = Mutex<[@Sendable () -> Void]>([])

    /// Not cancelled yet.
    public init() {}

    /// Asks the work to stop and wakes it; safe to call more than once, from any thread.
    public func cancel() {
        guard !flag.exchange(true, ordering: .sequentiallyConsistent) else { return }
        wakeup.signal()
        for wake in wakers.withLock({ $0 }) { wake() }
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { flag.load(ordering: .sequentiallyConsistent) }

    /// Registers a closure run on `cancel()` (at once when it already was), so a sleeping watcher
    /// or a transfer in progress stops.
    public func onCancel(_ wake: @escaping @Sendable () -> Void) {
        wakers.withLock { $0.append(wake) }
        if isCancelled { wake() }
    }
}
