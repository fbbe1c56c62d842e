import FleetConcurrency
import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel

extension JournalTransport {
    /// Streams a trip's changes, those made by other processes included: while anyone watches, the
    /// journal is tailed in the background (every `tailInterval` seconds), and the engine wakes the
    /// watch when it applies a change.
    ///
    /// Ends when `cancellation` is cancelled (returning), or when the transport is closed or its
    /// journal fails (throwing that error).
    public func watchTrip(_ request: GetTripRequest, cancellation: Cancellation, onUpdate: (Trip) throws -> Void) throws {
        try tailing(while: cancellation) { try engine.watchTrip(request, cancellation: $0, onUpdate: onUpdate) }
    }

    /// Streams a task's changes, as `watchTrip` streams a trip's.
    public func watchTask(_ request: GetTaskRequest, cancellation: Cancellation, onUpdate: (DeliveryTask) throws -> Void) throws {
        try tailing(while: cancellation) { try engine.watchTask(request, cancellation: $0, onUpdate: onUpdate) }
    }

    /// Streams a shipment's tracking info as it changes, as `watchTrip` streams a trip's.
    public func watchTaskTrackingInfo(_ request: GetTaskTrackingInfoRequest, cancellation: Cancellation,
                                      onUpdate: (TaskTrackingInfo) throws -> Void) throws {
        try tailing(while: cancellation) { try engine.watchTaskTrackingInfo(request, cancellation: $0, onUpdate: onUpdate) }
    }

    /// Runs the engine's blocking watch `body` with the journal tailed meanwhile; `body` gets the
    /// cancellation that ends it, cancelled by `cancellation` and by the transport closing.
    private func tailing(while cancellation: Cancellation, _ body: (Cancellation) throws -> Void) throws {
        try refresh()
        let watch = Cancellation()
        cancellation.onCancel { watch.cancel() }
        let token = watches.add(watch)
        defer { watches.remove(token) }
        tailer.ensureRunning(while: { [weak self] in self.map { !$0.watches.isEmpty } ?? false },
                             poll: { [weak self] in self?.poll() })
        // Closed or failed while registering: the registry's cancelAll may have run before `add`.
        try refresh()
        try body(watch)
        if !cancellation.isCancelled {
            try refresh()
        }
    }

    /// One poll of the tailer: applies what others appended, unless a call holds the lock (it applies
    /// them itself). Failures are kept in the state, where calls and watches find them.
    func poll() {
        _ = state.withLockIfAvailable { state in
            _ = try? catchUp(&state)
        }
    }
}
