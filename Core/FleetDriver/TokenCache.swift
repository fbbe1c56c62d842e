import FleetErrors
import Synchronization

/// Caches the token a fetcher gets, per vehicle ID, as the Driver SDK's token provider sample does:
/// reuse it until shortly before it expires, fetch a new one then, drop it when the vehicle ID changes,
/// and fetch afresh when forced (after a 401 / UNAUTHENTICATED).
///
/// "Shortly before" is `refreshMarginSeconds` (10 minutes, as the sample subtracts), but never more than
/// half the token's lifetime, so short-lived tokens are still reused.
public final class TokenCache: Sendable {
    /// Fetches a grant for a vehicle ID.
    public typealias Fetch = @Sendable (_ vehicleID: String) throws -> TokenGrant

    /// How long before expiry a token is replaced, seconds.
    public let refreshMarginSeconds: Double
    private let fetch: Fetch
    private let now: @Sendable () -> Double
    private let state = Mutex<Cached?>(nil)
    private let forceNext = Mutex(false)

    private struct Cached: Sendable {
        var vehicleID: String
        var grant: TokenGrant
        var fetchedAt: Double
    }

    /// A cache over `fetch`, reading the time from `now` (epoch seconds).
    public init(refreshMarginSeconds: Double = 600, now: @escaping @Sendable () -> Double, fetch: @escaping Fetch) {
        self.refreshMarginSeconds = refreshMarginSeconds
        self.now = now
        self.fetch = fetch
    }

    /// The token for `vehicleID`: the cached one while fresh, else a new one.
    /// - Throws: what the fetcher throws.
    public func token(vehicleID: String, forceRefresh: Bool = false) throws -> String {
        let force = forceRefresh || forceNext.withLock { flag in
            defer { flag = false }
            return flag
        }
        let current = now()
        if !force, let cached = state.withLock({ $0 }), cached.vehicleID == vehicleID, isFresh(cached, at: current) {
            return cached.grant.token
        }
        let grant = try fetch(vehicleID)
        state.withLock { $0 = Cached(vehicleID: vehicleID, grant: grant, fetchedAt: current) }
        return grant.token
    }

    /// Makes the next `token` call fetch a new token (after the server answered UNAUTHENTICATED).
    public func invalidate() {
        forceNext.withLock { $0 = true }
    }

    private func isFresh(_ cached: Cached, at time: Double) -> Bool {
        guard let expiresAt = cached.grant.expiresAt else { return true }
        let lifetime = max(0, expiresAt - cached.fetchedAt)
        let margin = min(refreshMarginSeconds, lifetime / 2)
        return time < expiresAt - margin
    }
}
