/// How long the reporter waits after failures the catalogue calls retryable (UNAVAILABLE,
/// DEADLINE_EXCEEDED, ABORTED, CANCELLED): exponential backoff with jitter, capped.
///
/// After `n` failures in a row the wait is drawn uniformly from `initialSeconds … ceiling`, where
/// `ceiling = min(maximumSeconds, initialSeconds × 2^(n−1))`: the first retry comes after
/// `initialSeconds`, later ones spread out so that a fleet does not hammer a server coming back all at once.
public struct Backoff: Sendable, Hashable {
    /// The wait after the first failure, seconds.
    public var initialSeconds: Double
    /// The longest wait, seconds.
    public var maximumSeconds: Double

    /// A backoff; `maximumSeconds` below `initialSeconds` is raised to it.
    public init(initialSeconds: Double, maximumSeconds: Double) {
        precondition(initialSeconds > 0, "a backoff needs a positive first wait")
        self.initialSeconds = initialSeconds
        self.maximumSeconds = max(initialSeconds, maximumSeconds)
    }

    /// The longest wait after `failures` (≥ 1) failures in a row.
    public func ceiling(afterFailures failures: Int) -> Double {
        let doublings = min(max(0, failures - 1), 60)
        return min(maximumSeconds, initialSeconds * Double(1 << UInt64(min(doublings, 52))))
    }

    /// The wait after `failures` failures in a row, drawn from `random`.
    public func delay(afterFailures failures: Int, using random: inout some RandomNumberGenerator) -> Double {
        let ceiling = ceiling(afterFailures: failures)
        guard ceiling > initialSeconds else { return initialSeconds }
        return Double.random(in: initialSeconds...ceiling, using: &random)
    }
}
