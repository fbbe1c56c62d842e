import FleetErrors

/// Where driver-report gets the bearer token its transport sends: none, a fixed `--token`, a
/// `--token-file` re-read when it changes, or a `--token-url` server whose answers are cached per
/// vehicle ID and refreshed before they expire. `closure` has the shape of FleetKit's `TokenSource`.
public final class DriverTokenSource: Sendable {
    /// The kinds of source.
    public enum Kind: Sendable {
        /// No token (the in-process `memory` transport needs none).
        case none
        /// `--token`: the same token always.
        case fixed(String)
        /// `--token-file`.
        case file(TokenFile)
        /// `--token-url`, through a cache.
        case server(TokenCache)
    }

    /// The source.
    public let kind: Kind
    /// The vehicle ID tokens are asked for (the cache key).
    public let vehicleID: String

    /// A token source for `vehicleID`.
    public init(kind: Kind, vehicleID: String) {
        self.kind = kind
        self.vehicleID = vehicleID
    }

    /// Whether there is a token at all.
    public var hasToken: Bool {
        if case .none = kind { return false }
        return true
    }

    /// The token to send; `forceRefresh` after the server answered 401.
    /// - Throws: UNAUTHENTICATED (`tokenSourceFailed`) when none can be had.
    public func token(forceRefresh: Bool) throws -> String {
        switch kind {
        case .none:
            throw FleetError(.tokenSourceFailed, detail: "no token source: give --token, --token-file or --token-url")
        case .fixed(let token):
            return token
        case .file(let file):
            return try file.token(forceRefresh: forceRefresh)
        case .server(let cache):
            return try cache.token(vehicleID: vehicleID, forceRefresh: forceRefresh)
        }
    }

    /// Makes the next token a fresh one (after UNAUTHENTICATED): the file is re-read, the server asked again.
    public func invalidate() {
        if case .server(let cache) = kind { cache.invalidate() }
        if case .file(let file) = kind { file.invalidate() }
    }

    /// The source as a `(forceRefresh) throws -> String` closure, nil when there is no token.
    public var closure: (@Sendable (Bool) throws -> String)? {
        guard hasToken else { return nil }
        let source = self
        let closure: @Sendable (Bool) throws -> String = { force in try source.token(forceRefresh: force) }
        return closure
    }
}
