import FleetErrors
import Synchronization

/// A provider that caches what a slower source gives (a token URL, a minter) until shortly before
/// it expires, as the Driver SDK's token provider does.
///
/// - Expiry: the source's, else the token's own `exp` (decoded, not verified), else none (the token
///   is kept until `forceRefresh`).
/// - Refresh: a token is fetched again `refreshMargin` seconds before expiry — but never before half
///   its remaining life has passed, so a token shorter-lived than the margin is not fetched on every
///   call. A token that is already expired when fetched is returned but not cached.
/// - `forceRefresh: true` (after a 401) drops the cache.
/// - The cache is keyed by an ID (the vehicle ID of a driver app): a different key drops it, and the
///   source is told the key to fetch for.
public final class CachingTokenProvider: TokenProvider {
    /// What the source gives: the token and, when it knows, its expiry (seconds since 1970).
    public typealias Grant = (token: String, expiry: Double?)
    /// Fetches a token for a cache key.
    public typealias Source = @Sendable (_ cacheKey: String) throws -> Grant

    /// Seconds before expiry at which the token is fetched again (default 60).
    public let refreshMargin: Double
    private let clock: EpochClock
    private let source: Source
    private let state: Mutex<State>

    private struct State {
        var cacheKey: String
        var token: String?
        /// When to fetch again; nil keeps the token until forced.
        var refreshAt: Double?
    }

    /// A cache in front of `source`, starting with `cacheKey`.
    public init(cacheKey: String = "", refreshMargin: Double = 60, clock: @escaping EpochClock = systemEpochClock,
                source: @escaping Source) {
        self.refreshMargin = refreshMargin
        self.clock = clock
        self.source = source
        state = Mutex(State(cacheKey: cacheKey))
    }

    /// A cache in front of a source that needs no key.
    public convenience init(refreshMargin: Double = 60, clock: @escaping EpochClock = systemEpochClock,
                            source: @escaping @Sendable () throws -> Grant) {
        self.init(cacheKey: "", refreshMargin: refreshMargin, clock: clock, source: { _ in try source() })
    }

    /// The key the cache holds a token for.
    public var cacheKey: String { state.withLock { $0.cacheKey } }

    /// Switches to `cacheKey` (a new vehicle ID); the cached token is dropped when the key differs.
    public func setCacheKey(_ cacheKey: String) {
        state.withLock { state in
            guard state.cacheKey != cacheKey else { return }
            state = State(cacheKey: cacheKey)
        }
    }

    /// Drops the cached token.
    public func invalidate() {
        state.withLock { state in state = State(cacheKey: state.cacheKey) }
    }

    /// A token for the current cache key.
    public func token(forceRefresh: Bool) throws -> String {
        try state.withLock { state throws -> String in try token(in: &state, forceRefresh: forceRefresh) }
    }

    /// A token for `cacheKey`, switching to it first (see `setCacheKey(_:)`).
    public func token(cacheKey: String, forceRefresh: Bool = false) throws -> String {
        try state.withLock { state throws -> String in
            if state.cacheKey != cacheKey { state = State(cacheKey: cacheKey) }
            return try token(in: &state, forceRefresh: forceRefresh)
        }
    }

    private func token(in state: inout State, forceRefresh: Bool) throws -> String {
        let now = clock()
        if !forceRefresh, let token = state.token, state.refreshAt.map({ now < $0 }) ?? true {
            return token
        }
        state.token = nil
        state.refreshAt = nil
        let grant = try source(state.cacheKey)
        guard !grant.token.isEmpty else {
            throw FleetError(.tokenUnavailable, detail: "the token source gave an empty token")
        }
        let expiry = grant.expiry ?? (try? JWT.decode(grant.token))?.claims.expiresAt
        if let expiry {
            guard expiry > now else { return grant.token }
            state.refreshAt = max(expiry - refreshMargin, now + (expiry - now) / 2)
        }
        state.token = grant.token
        return grant.token
    }
}
