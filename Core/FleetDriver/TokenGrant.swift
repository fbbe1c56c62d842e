/// A token as a token server hands it out: the JWT and, when known, when it expires.
public struct TokenGrant: Sendable, Hashable {
    /// The bearer token (a JWT).
    public var token: String
    /// When it expires, seconds since 1970; nil when the server did not say.
    public var expiresAt: Double?

    /// A grant.
    public init(token: String, expiresAt: Double? = nil) {
        self.token = token
        self.expiresAt = expiresAt
    }
}
