import FleetAuth
import FleetCLI
import FleetModel

/// What `token inspect` shows of a token: header, claims with readable times, and whether it was
/// verified. Pure: the time is given.
struct TokenReport: Sendable {
    /// The outcome of verification.
    enum Verification: Sendable, Equatable {
        /// No key was given.
        case notChecked
        /// Signature, times and audience hold; the role it acts as.
        case verified(role: Role)
        /// Signature, times and audience hold; the token names no role (a server decides by issuer).
        case verifiedWithoutRole
        /// Verification failed, saying why.
        case failed(String)
    }

    /// The decoded token.
    let jwt: JWT
    /// The outcome of verification.
    let verification: Verification
    /// The time `expires` is measured against, seconds since 1970.
    let now: Double

    /// The `Label: value` block of the table format.
    var block: KeyValueBlock {
        let claims = jwt.claims
        var entries: [(label: String, value: String)] = [
            ("Algorithm", jwt.header.algorithm),
            ("Key ID", jwt.header.keyID ?? CellText.none),
            ("Issuer", claims.issuer ?? CellText.none),
            ("Subject", claims.subject ?? CellText.none),
            ("Audience", claims.audience.map { $0.values.joined(separator: ", ") } ?? CellText.none),
            ("Role claim", claims.role ?? CellText.none),
            ("Authorization", Self.scope(claims.authorization)),
            ("Issued", Self.time(claims.issuedAt)),
            ("Expires", Self.time(claims.expiresAt) + (claims.expiresAt.map { " (" + Self.relative($0 - now) + ")" } ?? "")),
        ]
        if let notBefore = claims.notBefore { entries.append(("Not before", Self.time(notBefore))) }
        if let issued = claims.issuedAt, let expires = claims.expiresAt {
            entries.append(("Lifetime", CellText.duration(seconds: expires - issued)))
        }
        for member in claims.additional { entries.append((member.key, member.value.serialized())) }
        entries.append(("Signature", signatureText))
        return KeyValueBlock(entries)
    }

    /// The JSON format: `{"header":{…},"claims":{…},"verification":{…}}`.
    var json: JSON {
        var result = JSONObject()
        result["header"] = .object(jwt.header.json)
        result["claims"] = .object(jwt.claims.json)
        var verified = JSONObject()
        switch verification {
        case .notChecked:
            verified["checked"] = false
        case .verified(let role):
            verified["checked"] = true
            verified["valid"] = true
            verified["role"] = .string(role.rawValue)
        case .verifiedWithoutRole:
            verified["checked"] = true
            verified["valid"] = true
        case .failed(let message):
            verified["checked"] = true
            verified["valid"] = false
            verified["error"] = .string(message)
        }
        if let expires = jwt.claims.expiresAt { verified["expiresInSeconds"] = .number((expires - now).rounded()) }
        result["verification"] = .object(verified)
        return .object(result)
    }

    private var signatureText: String {
        switch verification {
        case .notChecked: "not verified (give --key, --public-key or --secret-file)"
        case .verified(let role): "verified (\(jwt.header.algorithm)); acts as \(role.rawValue)"
        case .verifiedWithoutRole: "verified (\(jwt.header.algorithm)); no fleetrole claim: the server maps the issuer to a role"
        case .failed(let message): "INVALID: \(message)"
        }
    }

    /// `vehicleid=car-1, tripid=*`, or `-`.
    static func scope(_ scope: AuthorizationScope?) -> String {
        guard let scope else { return CellText.none }
        var parts = scope.members.map { "\($0.claim)=\($0.id)" }
        for member in scope.additional { parts.append("\(member.key)=\(member.value.serialized())") }
        return parts.isEmpty ? CellText.none : parts.joined(separator: ", ")
    }

    /// `2026-01-01T00:00:00Z (1767225600)`, or `-`.
    static func time(_ seconds: Double?) -> String {
        guard let seconds else { return CellText.none }
        let whole = Int64(seconds.rounded(.down))
        return CellText.time(Timestamp(seconds: whole)) + " (\(whole))"
    }

    /// `in 59m59s` or `expired 3m00s ago`.
    static func relative(_ seconds: Double) -> String {
        seconds > 0 ? "in " + CellText.duration(seconds: seconds) : "expired " + CellText.duration(seconds: -seconds) + " ago"
    }
}
