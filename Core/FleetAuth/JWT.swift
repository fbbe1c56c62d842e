import FleetErrors
import FleetModel

/// A JSON Web Token in compact form (RFC 7519): header, claims and signature.
///
/// `JWT.decode(_:)` reads a token without verifying it (for `token inspect`); `TokenVerifier`
/// verifies one; `SigningKey.sign(claims:)` makes one.
public struct JWT: Sendable, Hashable {
    /// The JOSE header.
    public let header: JWTHeader
    /// The claims.
    public let claims: JWTClaims
    /// The signature bytes (empty for an unsigned token).
    public let signature: [UInt8]
    /// `base64url(header) + "." + base64url(claims)`, exactly as received or produced: the bytes the
    /// signature covers.
    public let signingInput: String

    /// A token from its parts; the header and claims are serialized as compact JSON.
    public init(header: JWTHeader, claims: JWTClaims, signature: [UInt8]) {
        self.header = header
        self.claims = claims
        self.signature = signature
        signingInput = Self.signingInput(header: header, claims: claims)
    }

    private init(header: JWTHeader, claims: JWTClaims, signature: [UInt8], signingInput: String) {
        self.header = header
        self.claims = claims
        self.signature = signature
        self.signingInput = signingInput
    }

    /// The text a signer signs for this header and claims: `base64url(header).base64url(claims)`.
    public static func signingInput(header: JWTHeader, claims: JWTClaims) -> String {
        Base64URL.encode(JSON.object(header.json).serializedBytes()) + "." + Base64URL.encode(JSON.object(claims.json).serializedBytes())
    }

    /// The compact serialization: `header.claims.signature`, each base64url without padding.
    public var compactSerialization: String { signingInput + "." + Base64URL.encode(signature) }

    /// Reads a compact JWT without verifying its signature or its times.
    ///
    /// Strict: exactly three `.`-separated segments; header and claims are unpadded canonical
    /// base64url of a JSON object; the header has a string `alg`; registered claims have their types
    /// (`exp`/`iat`/`nbf` numbers, `iss`/`sub` strings, `aud` a string or an array of strings,
    /// `authorization` an object of strings). The signature segment may be empty (an unsigned
    /// token decodes, and is refused by `TokenVerifier`).
    ///
    /// - Throws: UNAUTHENTICATED, cause `.jwtMalformed`, saying which segment or member is wrong and how.
    public static func decode(_ token: String) throws -> JWT {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else {
            throw FleetError(.jwtMalformed, detail: "expected 3 segments separated by '.', found \(segments.count)")
        }
        let headerObject = try object(in: segments[0], part: "header")
        let claimsObject = try object(in: segments[1], part: "claims")
        guard let signature = Base64URL.decode(segments[2]) else {
            let problem = Base64URL.problem(with: segments[2]) ?? "it is not base64url"
            throw FleetError(.jwtMalformed, detail: "the signature segment is not base64url: \(problem)")
        }
        return JWT(header: try JWTHeader(json: headerObject), claims: try JWTClaims(json: claimsObject), signature: signature,
                   signingInput: segments[0] + "." + segments[1])
    }

    private static func object(in segment: Substring, part: String) throws -> JSONObject {
        if segment.isEmpty { throw FleetError(.jwtMalformed, detail: "the \(part) segment is empty") }
        guard let bytes = Base64URL.decode(segment) else {
            let problem = Base64URL.problem(with: segment) ?? "it is not base64url"
            throw FleetError(.jwtMalformed, detail: "the \(part) segment is not base64url: \(problem)")
        }
        let value: JSON
        do {
            value = try JSON.parse(bytes)
        } catch let error as FleetError {
            throw FleetError(.jwtMalformed, detail: "the \(part) is not valid JSON: \(error.message)")
        }
        guard let object = value.objectValue else {
            throw FleetError(.jwtMalformed, detail: "the \(part) is \(value.kindDescription), not a JSON object")
        }
        return object
    }
}
