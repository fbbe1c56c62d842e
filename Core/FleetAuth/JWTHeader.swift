import FleetErrors
import FleetModel

/// The JOSE header of a JWT: `alg`, `typ`, `kid` and any other members.
public struct JWTHeader: Sendable, Hashable {
    /// The `alg` member as written (`RS256`, `HS256`, or anything a decoded token says, such as `none`).
    public var algorithm: String
    /// The `typ` member (`JWT`), when present.
    public var type: String?
    /// The `kid` member: for service-account keys, the private key ID.
    public var keyID: String?
    /// Members other than `alg`, `typ` and `kid`, in order.
    public var additional: JSONObject

    /// A header; `typ` defaults to `JWT`.
    public init(algorithm: String, type: String? = "JWT", keyID: String? = nil, additional: JSONObject = JSONObject()) {
        self.algorithm = algorithm
        self.type = type
        self.keyID = keyID
        self.additional = additional
    }

    /// A header for one of the supported algorithms; `typ` is `JWT`.
    public init(algorithm: JWTAlgorithm, keyID: String?) {
        self.init(algorithm: algorithm.rawValue, keyID: keyID)
    }

    /// The algorithm, when it is one this module supports (exact spelling, as RFC 7518 requires).
    public var knownAlgorithm: JWTAlgorithm? { JWTAlgorithm(rawValue: algorithm) }

    /// Reads a header object.
    /// - Throws: UNAUTHENTICATED `.jwtMalformed` naming the member that is missing or of the wrong type.
    public init(json object: JSONObject) throws {
        var additional = JSONObject()
        var algorithm: String?
        for member in object {
            switch member.key {
            case "alg": algorithm = try JWTMemberReader.string(member.value, name: "header member alg")
            case "typ": type = try JWTMemberReader.string(member.value, name: "header member typ")
            case "kid": keyID = try JWTMemberReader.string(member.value, name: "header member kid")
            default: additional[member.key] = member.value
            }
        }
        guard let algorithm else { throw FleetError(.jwtMalformed, detail: "the header has no alg member") }
        self.algorithm = algorithm
        self.additional = additional
    }

    /// The header as a JSON object: `alg`, `kid`, `typ`, then the other members.
    public var json: JSONObject {
        var object = JSONObject()
        object["alg"] = .string(algorithm)
        if let keyID { object["kid"] = .string(keyID) }
        if let type { object["typ"] = .string(type) }
        for member in additional where !object.contains(member.key) { object[member.key] = member.value }
        return object
    }
}
