import FleetErrors
import FleetInterface
import FleetModel

/// Mints Fleet Engine JWTs for a role: the claims Fleet Engine expects plus our `fleetrole`.
///
/// Claims made: `iss` = `sub` = the issuer, `aud`, `iat` = now (whole seconds), `exp` = `iat` + ttl,
/// `authorization` and `fleetrole`. The `authorization` claim, as java-fleetengine-auth makes it:
/// - server, fleet reader: every ID `*` (`vehicleid`, `tripid`, `deliveryvehicleid`, `taskid`,
///   `trackingid`); a server token may name specific IDs instead;
/// - driver, trusted driver: a `vehicleid` (rides) or a `deliveryvehicleid` (Deliveries) is required;
///   a `tripid` or a `taskid` (the tasks a trusted driver may update; `*` for all) may be added;
/// - consumer: a `tripid` (rides) or a `trackingid` (a Deliveries shipment) is required.
/// An ID not given is left out, except on server and fleet-reader tokens.
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

    /// The claims of a token for `role`, naming the IDs given (see the type for what each role needs).
    ///
    /// - Throws: INVALID_ARGUMENT: `.missingField` when a driver token names no vehicle or delivery
    ///   vehicle, or a consumer token no trip or tracking ID; `.invalidField` for a ttl not above zero or
    ///   over one hour (see the type); `.badID` for an ID Fleet Engine would refuse (other than `*`).
    public func claims(role: Role, vehicleID: String? = nil, tripID: String? = nil, deliveryVehicleID: String? = nil,
                       taskID: String? = nil, trackingID: String? = nil, ttl: Double = TokenMinter.defaultTTL) throws -> JWTClaims {
        guard ttl.isFinite, ttl >= 1 else {
            throw FleetError(.invalidField, detail: "the token lifetime must be at least 1 s, got \(ttl) s", field: "ttl")
        }
        if ttl > TokenVerifier.fleetEngineMaximumLifetime, !allowsLifetimeOverOneHour {
            throw FleetError(.invalidField, detail: "the token lifetime is \(Int64(ttl)) s; Fleet Engine accepts at most 3600 s (one hour). Allow longer lifetimes explicitly for a self-hosted server", field: "ttl")
        }
        let given = AuthorizationScope(vehicleID: vehicleID, tripID: tripID, deliveryVehicleID: deliveryVehicleID,
                                       taskID: taskID, trackingID: trackingID)
        for member in given.members where member.id != AuthorizationScope.wildcard {
            try ResourceID.validate(member.id, field: member.claim)
        }
        var scope = given
        switch role {
        case .server:
            for kind in FleetMethod.Resource.allCases where scope[kind] == nil { scope[kind] = AuthorizationScope.wildcard }
        case .fleetReader:
            scope = .everything
        case .driver, .trustedDriver:
            guard vehicleID != nil || deliveryVehicleID != nil else {
                throw FleetError(.missingField, detail: "a \(role) token needs a vehicle ID (authorization.vehicleid, rides) or a delivery vehicle ID (authorization.deliveryvehicleid, Deliveries)", field: "vehicleid")
            }
        case .consumer:
            guard tripID != nil || trackingID != nil else {
                throw FleetError(.missingField, detail: "a consumer token needs a trip ID (authorization.tripid, rides) or a tracking ID (authorization.trackingid, Deliveries)", field: "tripid")
            }
        }
        let issuedAt = clock().rounded(.down)
        return JWTClaims(issuer: issuer, subject: issuer, audience: .single(audience), issuedAt: issuedAt,
                         expiresAt: issuedAt + ttl.rounded(.down), authorization: scope,
                         role: includesRoleClaim ? role.rawValue : nil)
    }

    /// A signed token for `role` (see `claims(role:vehicleID:tripID:deliveryVehicleID:taskID:trackingID:ttl:)`).
    public func mint(role: Role, vehicleID: String? = nil, tripID: String? = nil, deliveryVehicleID: String? = nil,
                     taskID: String? = nil, trackingID: String? = nil, ttl: Double = TokenMinter.defaultTTL) throws -> String {
        try key.sign(claims: claims(role: role, vehicleID: vehicleID, tripID: tripID, deliveryVehicleID: deliveryVehicleID,
                                    taskID: taskID, trackingID: trackingID, ttl: ttl))
    }
}
