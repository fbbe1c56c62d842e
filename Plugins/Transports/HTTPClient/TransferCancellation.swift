import Synchronization

/// A switch another thread flips to stop a call in progress (e.g. a trip follower on SIGINT).
///
/// Pass it to `HTTPClient.send` or `HTTPClient.stream`; `cancel()` takes effect within about a second
/// (at libcurl's next progress check, or at once when data arrives). Once cancelled it stays
/// cancelled: a call given a cancelled switch stops before connecting.
public final class TransferCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A switch that is not cancelled.
    public init() {}

    /// Asks the call using this switch to stop. Safe from any thread, any number of times.
    public func cancel() { flag.store(true, ordering: .releasing) }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { flag.load(ordering: .acquiring) }
}
