/// The JWT signing algorithms this module signs and verifies (the JWS `alg` header).
///
/// `none` and every other algorithm are deliberately absent: a token naming one is rejected.
public enum JWTAlgorithm: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// RSASSA-PKCS1-v1_5 with SHA-256: what Fleet Engine uses, with service-account keys.
    case rs256 = "RS256"
    /// HMAC with SHA-256 and a shared secret: for self-hosted servers that mint their own tokens.
    case hs256 = "HS256"

    /// The `alg` header value.
    public var description: String { rawValue }
}
