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
        try refresh()
        let watch = Cancellation()
        cancellation.onCancel { watch.cancel() }
        let token = watches.add(watch)
        defer { watches.remove(token) }
        tailer.ensureRunning(while: { [weak self] in self.map { !$0.watches.isEmpty } ?? false },
                             poll: { [weak self] in self?.poll() })
        // Closed or failed while registering: the registry's cancelAll may have run before `add`.
        try refresh()
        try engine.watchTrip(request, cancellation: watch, onUpdate: onUpdate)
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
