import Foundation

/// Exponential backoff with jitter, for retrying after server and network errors.
///
/// After the n-th failure in a row the follower waits `min(maximum, initial × multiplier^(n-1))`,
/// shortened by a random fraction of up to `jitter` of it, so that many followers of one server do
/// not retry in step after it comes back. The defaults give 1 s, 2 s, 4 s, 8 s, 16 s, 30 s, 30 s …
/// (each up to half shorter).
public struct Backoff: Sendable, Hashable {
    /// The wait after the first failure, in seconds.
    public var initial: Double
    /// How much each further failure multiplies the wait.
    public var multiplier: Double
    /// The longest wait, in seconds.
    public var maximum: Double
    /// The largest fraction of the wait taken off at random, 0 … 1.
    public var jitter: Double

    /// A backoff; the defaults are 1 s doubling up to 30 s, with up to half taken off.
    public init(initial: Double = 1, multiplier: Double = 2, maximum: Double = 30, jitter: Double = 0.5) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.jitter = min(1, max(0, jitter))
    }

    /// The wait after `failures` failures in a row (1 for the first), given a `random` number in 0 ..< 1.
    public func delay(afterFailures failures: Int, random: Double) -> Double {
        let exponent = Double(min(max(0, failures - 1), 1024))
        let base = min(maximum, initial * Foundation.pow(multiplier, exponent))
        return base * (1 - jitter * min(1, max(0, random)))
    }
}
