import FleetBackoff
import FleetErrors

/// When and how long to wait before retrying a failed call: capped exponential backoff with
/// full jitter (a uniformly random delay between zero and the exponential ceiling), drawn from the
/// project's one `Backoff` (`backoff`), as the Driver SDK's reporter and the Consumer SDK's
/// follower wait.
public struct RetryPolicy: Sendable, Hashable {
    /// The most attempts in all, the first included (1 means never retry).
    public var maxAttempts: Int
    /// The ceiling of the delay after the first failed attempt; it doubles after each further failure.
    public var baseDelay: Duration
    /// The highest the ceiling may grow to.
    public var maxDelay: Duration

    /// A policy; the defaults (5 attempts, 200 ms doubling up to 10 s) suit Fleet Engine calls.
    public init(maxAttempts: Int = 5, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(10)) {
        precondition(maxAttempts >= 1, "a retry policy needs at least one attempt")
        precondition(baseDelay >= .zero && maxDelay >= .zero, "retry delays cannot be negative")
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// A policy that never retries.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The waits as a `Backoff`: doubling from `baseDelay` up to `maxDelay`, with full jitter.
    public var backoff: Backoff {
        Backoff(initial: Self.seconds(baseDelay), multiplier: 2, maximum: Self.seconds(maxDelay), jitter: 1)
    }

    /// The upper bound of the delay after failed attempt number `attempt` (1-based):
    /// `min(maxDelay, baseDelay × 2^(attempt − 1))`.
    public func delayCeiling(forAttempt attempt: Int) -> Duration {
        precondition(attempt >= 1, "attempts are numbered from 1")
        guard baseDelay > .zero else { return .zero }
        return Self.duration(backoff.ceiling(afterFailures: attempt))
    }

    /// The delay before the next attempt after failed attempt number `attempt` (1-based): uniformly
    /// random in `0...delayCeiling(forAttempt:)`, drawn from `random` (inject a seeded generator in tests).
    public func delay(forAttempt attempt: Int, using random: inout some RandomNumberGenerator) -> Duration {
        precondition(attempt >= 1, "attempts are numbered from 1")
        guard baseDelay > .zero else { return .zero }
        return Self.duration(backoff.delay(afterFailures: attempt, using: &random))
    }

    /// The delay before the next attempt after failed attempt number `attempt`, from the system's random source.
    public func delay(forAttempt attempt: Int) -> Duration {
        var random = SystemRandomNumberGenerator()
        return delay(forAttempt: attempt, using: &random)
    }

    /// Whether a call that failed with `error` may be sent again, regardless of the attempt count.
    ///
    /// Only retryable errors (`error.retryClass == .retryable`: UNAVAILABLE, DEADLINE_EXCEEDED, ABORTED,
    /// CANCELLED) are retried, and a non-idempotent call only when it certainly did not reach the server
    /// (`mayHaveBeenSent == false`, e.g. connection refused) since a second copy could be applied twice.
    public func shouldRetry(error: FleetError, idempotent: Bool, mayHaveBeenSent: Bool) -> Bool {
        guard error.retryClass == .retryable else { return false }
        return idempotent || !mayHaveBeenSent
    }

    /// Whether to make another attempt after failed attempt number `attempt` (1-based): the error
    /// allows it (see `shouldRetry(error:idempotent:mayHaveBeenSent:)`) and attempts remain.
    public func shouldRetry(error: FleetError, afterAttempt attempt: Int, idempotent: Bool, mayHaveBeenSent: Bool) -> Bool {
        attempt < maxAttempts && shouldRetry(error: error, idempotent: idempotent, mayHaveBeenSent: mayHaveBeenSent)
    }

    /// Whether to make another attempt, judging whether the request may have been sent from the
    /// error itself (`FleetError.requestMayHaveBeenSent`).
    public func shouldRetry(error: FleetError, afterAttempt attempt: Int, idempotent: Bool) -> Bool {
        shouldRetry(error: error, afterAttempt: attempt, idempotent: idempotent,
                    mayHaveBeenSent: error.requestMayHaveBeenSent)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `seconds` to the nanosecond, so that whole milliseconds stay whole.
    private static func duration(_ seconds: Double) -> Duration {
        .nanoseconds(Int64(min(9e18, max(0, seconds * 1e9).rounded())))
    }
}
