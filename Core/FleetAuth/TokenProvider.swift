/// Where a client gets the JWT it sends as `Authorization: Bearer` (the Driver SDK's
/// AccessTokenProvider).
///
/// Clients ask before each call; after a 401 (UNAUTHENTICATED) they ask once more with
/// `forceRefresh: true` so that a cached token is dropped.
public protocol TokenProvider: Sendable {
    /// A token to send now; `forceRefresh` skips any cache.
    /// - Throws: a `FleetError` (UNAUTHENTICATED `.tokenUnavailable` when no token can be had).
    func token(forceRefresh: Bool) throws -> String

    /// Drops any cached token, so that the next `token` call fetches a fresh one (after the server
    /// answered UNAUTHENTICATED). Providers without a cache do nothing.
    func invalidate()
}

extension TokenProvider {
    /// A token, from the cache when there is one.
    public func token() throws -> String { try token(forceRefresh: false) }

    /// Nothing to drop.
    public func invalidate() {}
}
