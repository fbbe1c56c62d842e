/// A token whose signature, times and audience `TokenVerifier` checked, with the role and scope it grants.
public struct VerifiedToken: Sendable, Hashable {
    /// The token's header.
    public let header: JWTHeader
    /// The token's claims.
    public let claims: JWTClaims
    /// The role the token acts as (see `IssuerRoleMap` for how it is decided).
    public let role: Role
    /// What the token is for (`authorization`: vehicle, trip, delivery vehicle, task, shipment; empty
    /// when the token has no such claim).
    public let scope: AuthorizationScope
    /// The only provider whose resources the token may touch: that of the key that verified it
    /// (`VerificationKey.provider`) or of its issuer (`IssuerRoleMap`); nil for any provider.
    public let provider: String?

    /// A verified token (made by `TokenVerifier`; tests and in-process callers may make their own).
    public init(header: JWTHeader = JWTHeader(algorithm: .rs256, keyID: nil), claims: JWTClaims, role: Role,
                scope: AuthorizationScope? = nil, provider: String? = nil) {
        self.header = header
        self.claims = claims
        self.role = role
        self.scope = scope ?? claims.authorization ?? AuthorizationScope()
        self.provider = provider
    }

    /// `iss`.
    public var issuer: String? { claims.issuer }
    /// `exp`, seconds since 1970 (always present on a verified token).
    public var expiresAt: Double? { claims.expiresAt }
}
