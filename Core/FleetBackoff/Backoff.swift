import Foundation

/// Exponential backoff with jitter, for retrying after server and network errors: the one policy
/// the Consumer SDK's follower and the Driver SDK's reporter both wait by.
///
/// After the n-th failure in a row the wait's ceiling is `min(maximum, initial × multiplier^(n-1))`.
/// The wait is the ceiling shortened at random, so that many clients of one server do not retry in
/// step after it comes back: by up to `jitter` of it, or, with `neverBelowInitial`, down to `initial`
/// at the most (the first retry then always comes after `initial`). The defaults give 1 s, 2 s, 4 s,
/// 8 s, 16 s, 30 s, 30 s … (each up to half shorter).
public struct Backoff: Sendable, Hashable {
    /// The wait after the first failure, in seconds.
    public var initial: Double
    /// How much each further failure multiplies the wait.
    public var multiplier: Double
    /// The longest wait, in seconds.
    public var maximum: Double
    /// The largest fraction of the wait taken off at random, 0 … 1.
    public var jitter: Double
    /// Whether the jitter stops at `initial`: the wait is drawn from `initial … ceiling`.
    public var neverBelowInitial: Bool

    /// A backoff; the defaults are 1 s doubling up to 30 s, with up to half taken off.
    public init(initial: Double = 1, multiplier: Double = 2, maximum: Double = 30, jitter: Double = 0.5) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.jitter = min(1, max(0, jitter))
        neverBelowInitial = false
    }

    /// A doubling backoff whose waits are drawn from `initialSeconds … ceiling`;
    /// `maximumSeconds` below `initialSeconds` is raised to it.
    public init(initialSeconds: Double, maximumSeconds: Double) {
        precondition(initialSeconds > 0, "a backoff needs a positive first wait")
        initial = initialSeconds
        multiplier = 2
        maximum = max(initialSeconds, maximumSeconds)
        jitter = 1
        neverBelowInitial = true
    }

    /// The wait after the first failure, seconds (`initial`).
    public var initialSeconds: Double { initial }
    /// The longest wait, seconds (`maximum`).
    public var maximumSeconds: Double { maximum }

    /// The longest wait after `failures` (≥ 1) failures in a row.
    public func ceiling(afterFailures failures: Int) -> Double {
        let exponent = Double(min(max(0, failures - 1), 1024))
        return min(maximum, initial * Foundation.pow(multiplier, exponent))
    }

    /// The wait after `failures` failures in a row (1 for the first), given a `random` number in 0 ..< 1.
    public func delay(afterFailures failures: Int, random: Double) -> Double {
        let ceiling = ceiling(afterFailures: failures)
        let random = min(1, max(0, random))
        if neverBelowInitial { return ceiling - (ceiling - min(initial, ceiling)) * random }
        return ceiling * (1 - jitter * random)
    }

    /// The wait after `failures` failures in a row, drawn from `random`.
    public func delay(afterFailures failures: Int, using random: inout some RandomNumberGenerator) -> Double {
        delay(afterFailures: failures, random: Double.random(in: 0..<1, using: &random))
    }
}
