import FleetModel

/// A way to stop a blocking watch from another thread.
public final class WatchCancellation: Sendable {
    private let flag = Mutex(false)
    private let wakers = Mutex<[@Sendable () -> Void]>([])

    public init() {}

    /// Stops the watch; safe to call more than once, from any thread.
    public func cancel() {
        let wasCancelled = flag.withLock { value in
            defer { value = true }
            return value
        }
        guard !wasCancelled else { return }
        for wake in wakers.withLock({ $0 }) { wake() }
    }

    public var isCancelled: Bool { flag.withLock { $0 } }

    /// Registers a closure run on `cancel()` (so a sleeping watcher wakes up).
    public func onCancel(_ wake: @escaping @Sendable () -> Void) {
        wakers.withLock { $0.append(wake) }
        if isCancelled { wake() }
    }
}

/// A `FleetAPI` that can push a trip's changes as they happen, instead of being polled.
///
/// The engine (memory and file transports) wakes watchers when it commits; the HTTP transport
/// reads the server's `:watch` event stream.
public protocol TripWatching: FleetAPI {
    /// Blocks, calling `onUpdate` with the trip (as `GetTrip` with `request` returns it) once at the start
    /// and after every change, until `cancellation` is cancelled or a call fails (which it throws).
    func watchTrip(_ request: GetTripRequest, cancellation: WatchCancellation, onUpdate: (Trip) throws -> Void) throws
}

import Synchronization
