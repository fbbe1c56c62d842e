import FleetErrors
import FleetModel
import Foundation

/// Verifies JWTs the way Fleet Engine does: signature by a configured key, expiry, audience, and the
/// role and scope the token grants.
///
/// Checks, in order (each failure is a `FleetError` naming the exact reason):
/// 1. the token decodes (`JWT.decode`) → UNAUTHENTICATED `.jwtMalformed`;
/// 2. `alg` is one the verifier accepts and has a key for (never `none`; HS256 is refused when only
///    RSA keys are configured and RS256 when only secrets are) → `.jwtAlgorithmRejected`;
/// 3. a key of that algorithm matches `kid` (keys without a kid are tried for any kid; without a kid
///    in the token every key is tried) and, if bound, the token's `iss` → `.jwtUnknownKey`;
/// 4. the signature verifies under one of those keys → `.jwtBadSignature`;
/// 5. `exp` is present → `.jwtMissingClaim`; `now < exp + skew` → `.jwtExpired`;
///    `nbf <= now + skew` → `.jwtNotYetValid`; `iat` is present → `.jwtMissingClaim`;
///    `iat <= now + skew` → `.jwtIssuedInFuture`;
///    `exp − iat <= maximumLifetime` → `.jwtLifetimeTooLong`;
/// 6. `aud` (or one of its values) is an accepted audience (a trailing `/` is ignored) → `.jwtWrongAudience`;
/// 7. the role follows from `issuerRoles` and the `fleetrole` claim → PERMISSION_DENIED `.jwtWithoutRole`
///    or `.jwtRoleExceedsIssuer`;
/// 8. the token acts for the provider of the key that verified it (`VerificationKey.provider`) and of
///    its issuer (`IssuerRoleMap.Binding.provider`); when both are set and differ →
///    PERMISSION_DENIED `.jwtForOtherResource`.
public struct TokenVerifier: Sendable {
    /// Fleet Engine's audience, accepted by default.
    public static let fleetEngineAudience = "https://fleetengine.googleapis.com/"
    /// Fleet Engine's longest token lifetime: one hour from `iat` to `exp`.
    public static let fleetEngineMaximumLifetime: Double = 3600

    /// The keys tokens may be signed with.
    public var keys: [VerificationKey]
    /// The accepted `aud` values.
    public var audiences: Set<String>
    /// How far the clocks of token minter and server may disagree, in seconds (default 30).
    public var clockSkew: Double
    /// The longest `exp − iat` accepted, in seconds (default one hour, Fleet Engine's limit); nil for no limit.
    public var maximumLifetime: Double?
    /// The algorithms accepted at all (further narrowed to those some key uses).
    public var allowedAlgorithms: Set<JWTAlgorithm>
    /// The roles of issuers.
    public var issuerRoles: IssuerRoleMap
    /// The time, seconds since 1970.
    public var clock: EpochClock

    /// A verifier accepting Fleet Engine's audience plus `additionalAudiences`.
    public init(keys: [VerificationKey], additionalAudiences: [String] = [], clockSkew: Double = 30,
                maximumLifetime: Double? = TokenVerifier.fleetEngineMaximumLifetime,
                allowedAlgorithms: Set<JWTAlgorithm> = Set(JWTAlgorithm.allCases),
                issuerRoles: IssuerRoleMap = IssuerRoleMap(), clock: @escaping EpochClock = systemEpochClock) {
        self.keys = keys
        audiences = Set([Self.fleetEngineAudience] + additionalAudiences)
        self.clockSkew = clockSkew
        self.maximumLifetime = maximumLifetime
        self.allowedAlgorithms = allowedAlgorithms
        self.issuerRoles = issuerRoles
        self.clock = clock
    }

    /// The algorithms a token may use: allowed and held by at least one key.
    public var acceptedAlgorithms: Set<JWTAlgorithm> { allowedAlgorithms.intersection(keys.map(\.algorithm)) }

    /// Verifies the value of an `Authorization` header (`Bearer <jwt>`; the scheme is case-insensitive).
    /// - Throws: UNAUTHENTICATED `.jwtMissing` when the header is absent or not a Bearer token; otherwise as `verify(_:)`.
    public func verify(authorizationHeader: String?) throws -> VerifiedToken {
        guard let header = authorizationHeader?.trimmingCharacters(in: .whitespaces), !header.isEmpty else {
            throw FleetError(.jwtMissing)
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw FleetError(.jwtMissing, detail: "the Authorization header is not \"Bearer <token>\"")
        }
        return try verify(String(parts[1]).trimmingCharacters(in: .whitespaces))
    }

    /// Verifies a compact JWT (see the type's documentation for the checks).
    public func verify(_ token: String) throws -> VerifiedToken {
        let jwt = try JWT.decode(token)
        let candidates = try keys(for: jwt)
        guard let key = candidates.first(where: { $0.verifies(signature: jwt.signature, of: jwt.signingInput) }) else {
            throw FleetError(.jwtBadSignature, detail: "no configured \(jwt.header.algorithm) key verifies the signature")
        }
        try checkTimes(jwt.claims)
        try checkAudience(jwt.claims)
        let (role, issuerProvider) = try issuerRoles.resolve(jwt.claims)
        if let keyProvider = key.provider, let issuerProvider, keyProvider != issuerProvider {
            throw FleetError(.jwtForOtherResource, detail: "the token's key is for provider \(quote(keyProvider)) but its issuer is bound to provider \(quote(issuerProvider))")
        }
        return VerifiedToken(header: jwt.header, claims: jwt.claims, role: role, provider: key.provider ?? issuerProvider)
    }

    private func keys(for jwt: JWT) throws -> [VerificationKey] {
        let name = jwt.header.algorithm
        guard name.lowercased() != "none" else {
            throw FleetError(.jwtAlgorithmRejected, detail: "alg \"none\" (an unsigned token) is never accepted")
        }
        let accepted = acceptedAlgorithms.map(\.rawValue).sorted().joined(separator: ", ")
        guard let algorithm = jwt.header.knownAlgorithm else {
            throw FleetError(.jwtAlgorithmRejected, detail: "alg \(quote(name)) is not supported; this server accepts \(accepted.isEmpty ? "no algorithm (no keys configured)" : accepted)")
        }
        guard acceptedAlgorithms.contains(algorithm) else {
            throw FleetError(.jwtAlgorithmRejected, detail: "alg \(name) is not accepted: this server verifies \(accepted.isEmpty ? "nothing (no keys configured)" : accepted + " only")")
        }
        let issuer = jwt.claims.issuer
        let usable = keys.filter { $0.algorithm == algorithm && ($0.issuer == nil || $0.issuer == issuer) }
        let candidates: [VerificationKey]
        if let keyID = jwt.header.keyID {
            let exact = usable.filter { $0.keyID == keyID }
            candidates = exact.isEmpty ? usable.filter { $0.keyID == nil } : exact
        } else {
            candidates = usable
        }
        guard !candidates.isEmpty else {
            let kid = jwt.header.keyID.map { "kid \(quote($0))" } ?? "no kid"
            let iss = issuer.map { "iss \(quote($0))" } ?? "no iss"
            throw FleetError(.jwtUnknownKey, detail: "no configured \(algorithm) key matches the token's \(kid) and \(iss)")
        }
        return candidates
    }

    private func checkTimes(_ claims: JWTClaims) throws {
        let now = clock()
        guard let expiresAt = claims.expiresAt else {
            throw FleetError(.jwtMissingClaim, detail: "the token has no exp claim; tokens must expire")
        }
        guard now < expiresAt + clockSkew else {
            throw FleetError(.jwtExpired, detail: "JWT expired at \(Self.describe(expiresAt)), \(Self.seconds(now - expiresAt)) ago (allowed clock skew \(Self.seconds(clockSkew)))")
        }
        if let notBefore = claims.notBefore, notBefore > now + clockSkew {
            throw FleetError(.jwtNotYetValid, detail: "nbf is \(Self.describe(notBefore)), \(Self.seconds(notBefore - now)) from now (allowed clock skew \(Self.seconds(clockSkew)))")
        }
        // Without iat the lifetime cap could not hold: a token with exp ten years out would live ten years.
        guard let issuedAt = claims.issuedAt else {
            throw FleetError(.jwtMissingClaim, detail: "the token has no iat claim; tokens must say when they were issued")
        }
        if issuedAt > now + clockSkew {
            throw FleetError(.jwtIssuedInFuture, detail: "iat is \(Self.describe(issuedAt)), \(Self.seconds(issuedAt - now)) from now (allowed clock skew \(Self.seconds(clockSkew)))")
        }
        if let maximumLifetime, !(expiresAt - issuedAt <= maximumLifetime) {
            throw FleetError(.jwtLifetimeTooLong, detail: "exp is \(Self.seconds(expiresAt - issuedAt)) after iat; at most \(Self.seconds(maximumLifetime)) is allowed")
        }
    }

    private func checkAudience(_ claims: JWTClaims) throws {
        let expected = audiences.sorted().map(quote).joined(separator: " or ")
        guard let audience = claims.audience, !audience.values.isEmpty else {
            throw FleetError(.jwtWrongAudience, detail: "the token has no aud claim; expected \(expected)")
        }
        let accepted = Set(audiences.map(Self.withoutTrailingSlash))
        guard audience.values.contains(where: { accepted.contains(Self.withoutTrailingSlash($0)) }) else {
            let got = audience.values.map(quote).joined(separator: ", ")
            throw FleetError(.jwtWrongAudience, detail: "aud is \(got); expected \(expected)")
        }
    }

    private static func withoutTrailingSlash(_ text: String) -> String {
        text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// `1700000000 (2023-11-14T22:13:20Z)`.
    private static func describe(_ time: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return "\(seconds(time, unit: false)) (\(formatter.string(from: Date(timeIntervalSince1970: time))))"
    }

    private static func seconds(_ value: Double, unit: Bool = true) -> String {
        let text = value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        return unit ? "\(text) s" : text
    }

    private func quote(_ text: String) -> String { JSON.string(text).serialized() }
}
