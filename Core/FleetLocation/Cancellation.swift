import Synchronization

/// Tells long-running work (a feed, the reporter loop) to stop, and wakes it if it is waiting.
public final class Cancellation: Sendable {
    /// The doorbell waits watch, rung by `cancel()`.
    public let wakeup = Wakeup()
    private let flag = Atomic<Bool>(false)

    /// Not cancelled yet.
    public init() {}

    /// Asks the work to stop and wakes it.
    public func cancel() {
        flag.store(true, ordering: .sequentiallyConsistent)
        wakeup.signal()
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { flag.load(ordering: .sequentiallyConsistent) }
}
