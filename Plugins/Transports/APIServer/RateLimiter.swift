import Synchronization

/// A token bucket per caller: on average `rate` requests a second, up to `burst` at once.
///
/// Fleet Engine answers a caller over its quota RESOURCE_EXHAUSTED; `fleet-admin serve --rate-limit`
/// does the same with this, keyed by the caller's token (or address when tokens are not checked).
public final class RateLimiter: Sendable {
    /// Requests a second each caller may make on average.
    public let rate: Double
    /// Requests a caller may make at once after being idle.
    public let burst: Double
    private let state = Mutex(State())

    private struct State {
        var buckets: [String: Bucket] = [:]
        var admissionsSincePrune = 0
    }

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    /// A limiter; `burst` below 1 is taken as 1.
    public init(rate: Double, burst: Double) {
        precondition(rate > 0, "a rate limit must be positive")
        self.rate = rate
        self.burst = max(1, burst)
    }

    /// Takes one request from `key`'s bucket: nil when the request may go ahead, else how long
    /// until the bucket holds a request again (the `Retry-After`).
    public func admit(_ key: String, now: ContinuousClock.Instant = .now) -> Duration? {
        state.withLock { state in
            state.admissionsSincePrune += 1
            if state.admissionsSincePrune >= 4096 {
                state.admissionsSincePrune = 0
                prune(&state.buckets, now: now)
            }
            var bucket = state.buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + seconds(bucket.updated.duration(to: now)) * rate)
            bucket.updated = now
            defer { state.buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return .nanoseconds(Int64(((1 - bucket.tokens) / rate * 1e9).rounded(.up)))
        }
    }

    /// Forgets the buckets that have filled up again: a caller seen again starts full anyway.
    private func prune(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant) {
        let refill = burst / rate
        buckets = buckets.filter { seconds($0.value.updated.duration(to: now)) < refill }
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
