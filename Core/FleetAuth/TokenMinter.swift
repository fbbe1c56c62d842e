import FleetErrors
import FleetModel

/// Mints Fleet Engine JWTs for a role: the claims Fleet Engine expects plus our `fleetrole`.
///
/// Claims made: `iss` = `sub` = the issuer, `aud`, `iat` = now (whole seconds), `exp` = `iat` + ttl,
/// `authorization` (server: `vehicleid`/`tripid` `*` unless given; fleet reader: every ID `*`;
/// driver: `vehicleid` required, `tripid` optional; consumer: `tripid` required, `vehicleid` optional)
/// and `fleetrole`.
///
/// Lifetime: Fleet Engine accepts at most one hour. A longer ttl is refused (INVALID_ARGUMENT) rather
/// than silently shortened, unless `allowsLifetimeOverOneHour` is set for a self-hosted server whose
/// verifier is configured with a longer `maximumLifetime`.
public struct TokenMinter: Sendable {
    /// The issuer used when neither the caller nor the key gives one.
    public static let defaultIssuer = "fleet-engine-self-hosted"
    /// The default lifetime: one hour, Fleet Engine's maximum.
    public static let defaultTTL: Double = TokenVerifier.fleetEngineMaximumLifetime

    /// The key tokens are signed with.
    public var key: SigningKey
    /// `iss` and `sub`.
    public var issuer: String
    /// `aud`.
    public var audience: String
    /// Whether a ttl over one hour is accepted (self-hosting only; Fleet Engine refuses such tokens).
    public var allowsLifetimeOverOneHour: Bool
    /// Whether tokens carry the `fleetrole` claim (on by default; Fleet Engine ignores it).
    public var includesRoleClaim: Bool
    /// The time, seconds since 1970.
    public var clock: EpochClock

    /// A minter; the issuer defaults to the key's service-account email, else `defaultIssuer`.
    public init(key: SigningKey, issuer: String? = nil, audience: String = TokenVerifier.fleetEngineAudience,
                allowsLifetimeOverOneHour: Bool = false, includesRoleClaim: Bool = true,
                clock: @escaping EpochClock = systemEpochClock) {
        self.key = key
        self.issuer = issuer ?? key.serviceAccountEmail ?? Self.defaultIssuer
        self.audience = audience
        self.allowsLifetimeOverOneHour = allowsLifetimeOverOneHour
        self.includesRoleClaim = includesRoleClaim
        self.clock = clock
    }

    /// The claims of a token for `role`.
    ///
    /// - Throws: INVALID_ARGUMENT: `.missingField` when a driver token has no vehicle ID or a consumer
    ///   token no trip ID; `.invalidField` for a ttl not above zero or over one hour (see the type);
    ///   `.badID` for an ID Fleet Engine would refuse (other than `*`).
    public func claims(role: Role, vehicleID: String? = nil, tripID: String? = nil, ttl: Double = TokenMinter.defaultTTL) throws -> JWTClaims {
        guard ttl.isFinite, ttl >= 1 else {
            throw FleetError(.invalidField, detail: "the token lifetime must be at least 1 s, got \(ttl) s", field: "ttl")
        }
        if ttl > TokenVerifier.fleetEngineMaximumLifetime, !allowsLifetimeOverOneHour {
            throw FleetError(.invalidField, detail: "the token lifetime is \(Int64(ttl)) s; Fleet Engine accepts at most 3600 s (one hour). Allow longer lifetimes explicitly for a self-hosted server", field: "ttl")
        }
        for (id, field) in [(vehicleID, "vehicleid"), (tripID, "tripid")] {
            if let id, id != AuthorizationScope.wildcard { try ResourceID.validate(id, field: field) }
        }
        let scope: AuthorizationScope
        switch role {
        case .server:
            scope = AuthorizationScope(vehicleID: vehicleID ?? AuthorizationScope.wildcard, tripID: tripID ?? AuthorizationScope.wildcard)
        case .fleetReader:
            scope = .everything
        case .driver, .trustedDriver:
            guard let vehicleID else {
                throw FleetError(.missingField, detail: "a driver token needs a vehicle ID (authorization.vehicleid)", field: "vehicleid")
            }
            scope = AuthorizationScope(vehicleID: vehicleID, tripID: tripID)
        case .consumer:
            guard let tripID else {
                throw FleetError(.missingField, detail: "a consumer token needs a trip ID (authorization.tripid)", field: "tripid")
            }
            scope = AuthorizationScope(vehicleID: vehicleID, tripID: tripID)
        }
        let issuedAt = clock().rounded(.down)
        return JWTClaims(issuer: issuer, subject: issuer, audience: .single(audience), issuedAt: issuedAt,
                         expiresAt: issuedAt + ttl.rounded(.down), authorization: scope,
                         role: includesRoleClaim ? role.rawValue : nil)
    }

    /// A signed token for `role` (see `claims(role:vehicleID:tripID:ttl:)`).
    public func mint(role: Role, vehicleID: String? = nil, tripID: String? = nil, ttl: Double = TokenMinter.defaultTTL) throws -> String {
        try key.sign(claims: claims(role: role, vehicleID: vehicleID, tripID: tripID, ttl: ttl))
    }
}
