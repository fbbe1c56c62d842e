import FleetErrors

/// What one `VehicleReporter.tick()` did.
public enum TickOutcome: Sendable, Hashable {
    /// The next update is not due yet.
    case notDue
    /// Due, but nothing changed since the last acknowledged update: nothing was sent.
    case idle
    /// An update was sent and acknowledged.
    case succeeded
    /// An update was sent and failed; the next try is due in `retryInSeconds`.
    case failed(FleetError, retryInSeconds: Double)
}
