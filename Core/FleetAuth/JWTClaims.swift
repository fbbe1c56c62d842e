import FleetErrors
import FleetModel

/// The claims of a Fleet Engine JWT, with typed access to the registered ones.
///
/// Fleet Engine's claims: `iss` and `sub` (the service account's email), `aud`
/// (`https://fleetengine.googleapis.com/`), `iat`, `exp` (at most one hour after `iat`) and
/// `authorization` (`vehicleid`, `tripid`, `deliveryvehicleid`, `taskid`, `trackingid`). This server adds ``roleClaimName`` (`fleetrole`), the
/// role a self-hosted server reads from tokens it minted itself (see `IssuerRoleMap` for precedence).
public struct JWTClaims: Sendable, Hashable {
    /// The name of our role claim: `"fleetrole": "driver"`. Its values are `Role.rawValue`s.
    public static let roleClaimName = "fleetrole"

    /// `iss`: who issued the token (a service account's email).
    public var issuer: String?
    /// `sub`: whom the token is about (the service account's email, for Fleet Engine).
    public var subject: String?
    /// `aud`: who the token is for.
    public var audience: JWTAudience?
    /// `iat`: when it was issued, seconds since 1970.
    public var issuedAt: Double?
    /// `exp`: when it expires, seconds since 1970.
    public var expiresAt: Double?
    /// `nbf`: when it starts to be valid, seconds since 1970.
    public var notBefore: Double?
    /// `authorization`: the vehicle, trip, delivery vehicle, task or shipment the token is for.
    public var authorization: AuthorizationScope?
    /// `fleetrole` as written (checked against `Role` only when a token is verified, so that
    /// `token inspect` can show any value).
    public var role: String?
    /// Every other claim, in order.
    public var additional: JSONObject

    /// Claims with the given values.
    public init(issuer: String? = nil, subject: String? = nil, audience: JWTAudience? = nil, issuedAt: Double? = nil,
                expiresAt: Double? = nil, notBefore: Double? = nil, authorization: AuthorizationScope? = nil,
                role: String? = nil, additional: JSONObject = JSONObject()) {
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.notBefore = notBefore
        self.authorization = authorization
        self.role = role
        self.additional = additional
    }

    /// Reads a claims object, checking the type of each registered claim.
    /// - Throws: UNAUTHENTICATED `.jwtMalformed` naming the claim and what it held.
    public init(json object: JSONObject) throws {
        self.init()
        for member in object {
            let name = "claim \(member.key)"
            switch member.key {
            case "iss": issuer = try JWTMemberReader.string(member.value, name: name)
            case "sub": subject = try JWTMemberReader.string(member.value, name: name)
            case "aud": audience = try JWTAudience(json: member.value)
            case "iat": issuedAt = try JWTMemberReader.numericDate(member.value, name: name)
            case "exp": expiresAt = try JWTMemberReader.numericDate(member.value, name: name)
            case "nbf": notBefore = try JWTMemberReader.numericDate(member.value, name: name)
            case "authorization": authorization = try AuthorizationScope(json: JWTMemberReader.object(member.value, name: name))
            case Self.roleClaimName: role = try JWTMemberReader.string(member.value, name: name)
            default: additional[member.key] = member.value
            }
        }
    }

    /// The claims as a JSON object: `iss`, `sub`, `aud`, `iat`, `exp`, `nbf`, `authorization`,
    /// `fleetrole`, then the others. Times that are whole seconds serialize as integers.
    public var json: JSONObject {
        var object = JSONObject()
        if let issuer { object["iss"] = .string(issuer) }
        if let subject { object["sub"] = .string(subject) }
        if let audience { object["aud"] = audience.json }
        if let issuedAt { object["iat"] = .number(issuedAt) }
        if let expiresAt { object["exp"] = .number(expiresAt) }
        if let notBefore { object["nbf"] = .number(notBefore) }
        if let authorization { object["authorization"] = .object(authorization.json) }
        if let role { object[Self.roleClaimName] = .string(role) }
        for member in additional where !object.contains(member.key) { object[member.key] = member.value }
        return object
    }
}
