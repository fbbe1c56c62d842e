/// A key that verifies JWT signatures: an RSA public key (RS256) or a shared secret (HS256).
///
/// The algorithm is part of the key: an RS256 key never checks an HS256 signature (no algorithm
/// confusion), and a key bound to an issuer checks only tokens whose `iss` is that issuer. A key is
/// also for one provider: the tokens it verifies may act on that provider's resources only. The key's
/// bytes live behind a `JWTSignatureVerifier` from a cryptography plugin (`OpenSSLJWT` adds the factories).
public struct VerificationKey: Sendable {
    /// The one algorithm this key verifies.
    public let algorithm: JWTAlgorithm
    /// The `kid` this key answers to, when known (tokens with another `kid` skip it).
    public let keyID: String?
    /// The issuer (`iss`) this key is bound to, when known (a service account's email): tokens from
    /// another issuer skip it.
    public let issuer: String?
    /// The provider (Cloud project) the tokens this key verifies act for: a service account's
    /// `project_id`, or the provider a secret was configured for. Nil only where one caller holds
    /// every key (tests, a server that serves every provider to itself).
    public let provider: String?
    private let verifier: any JWTSignatureVerifier

    /// A key that checks `algorithm` signatures with `verifier`.
    public init(algorithm: JWTAlgorithm, keyID: String?, issuer: String? = nil, provider: String? = nil,
                verifier: any JWTSignatureVerifier) {
        self.algorithm = algorithm
        self.keyID = keyID
        self.issuer = issuer
        self.provider = provider
        self.verifier = verifier
    }

    /// The same key, for `provider`'s tokens only.
    public func bound(to provider: String?) -> VerificationKey {
        VerificationKey(algorithm: algorithm, keyID: keyID, issuer: issuer, provider: provider, verifier: verifier)
    }

    /// Whether `signature` is this key's signature of `signingInput` (constant-time for HS256).
    public func verifies(signature: [UInt8], of signingInput: String) -> Bool {
        verifier.verifies(signature: signature, of: Array(signingInput.utf8))
    }
}
