/// What signs a JWT's signing input with one key: the seam between FleetAuth's claims and roles and
/// the cryptography library that holds the key (OpenSSL in `OpenSSLJWT`), so Core links no C library.
public protocol JWTSigner: Sendable {
    /// The signature of `signingInput` (the bytes of `header.claims`).
    func signature(of signingInput: [UInt8]) throws -> [UInt8]
    /// What checks this signer's signatures: the public key only for RSA, the same secret for HMAC.
    func verifier() throws -> any JWTSignatureVerifier
    /// The public key as PEM (`BEGIN PUBLIC KEY`), to give to a verifying server; nil for a shared secret.
    func publicKeyPEM() throws -> String?
    /// The private key as unencrypted PKCS#8 PEM (to save a generated key); nil for a shared secret.
    func privateKeyPEM() throws -> String?
}

/// What checks a JWT's signature with one key (see `JWTSigner`).
public protocol JWTSignatureVerifier: Sendable {
    /// Whether `signature` is this key's signature of `signingInput` (constant-time for shared secrets).
    func verifies(signature: [UInt8], of signingInput: [UInt8]) -> Bool
}
