import FleetErrors

/// How the final update (OFFLINE on stop, a delivery vehicle's last location, or a one-shot `--state`
/// change) ended.
public enum FinalUpdateOutcome: Sendable, Hashable {
    /// The server acknowledged it, after this many attempts.
    case acknowledged(attempts: Int)
    /// It was not acknowledged before the deadline (or a client error made retrying pointless);
    /// the last error, when an attempt was made.
    case notAcknowledged(attempts: Int, lastError: FleetError?)

    /// Whether the server acknowledged the update.
    public var isAcknowledged: Bool {
        if case .acknowledged = self { return true }
        return false
    }
}
