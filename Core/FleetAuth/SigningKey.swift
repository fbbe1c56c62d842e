import FleetErrors

/// A key that signs JWTs: an RSA private key (RS256, Fleet Engine's algorithm) or a shared secret (HS256).
///
/// The key's bytes live behind a `JWTSigner` from a cryptography plugin (`OpenSSLJWT` adds the
/// `rs256`, `hs256` and `generateRS256` factories); this type adds the JWT around the signature.
public struct SigningKey: Sendable {
    /// The algorithm the key signs with.
    public let algorithm: JWTAlgorithm
    /// The header's `kid`: a service account's private key ID, when known.
    public let keyID: String?
    /// The service account's email when the key came from a key file (the default `iss`/`sub`).
    public let serviceAccountEmail: String?
    /// The service account's project when the key came from a key file.
    public let projectID: String?
    private let signer: any JWTSigner

    /// A key that signs with `signer` under `algorithm`.
    public init(algorithm: JWTAlgorithm, keyID: String?, serviceAccountEmail: String? = nil, projectID: String? = nil,
                signer: any JWTSigner) {
        self.algorithm = algorithm
        self.keyID = keyID
        self.serviceAccountEmail = serviceAccountEmail
        self.projectID = projectID
        self.signer = signer
    }

    /// Signs `claims` with the header `{"alg": …, "kid": …, "typ": "JWT"}` and returns the compact JWT.
    public func sign(claims: JWTClaims) throws -> String {
        try signedToken(claims: claims).compactSerialization
    }

    /// Signs `claims` and returns the token as a value.
    public func signedToken(claims: JWTClaims) throws -> JWT {
        let header = JWTHeader(algorithm: algorithm, keyID: keyID)
        let input = Array(JWT.signingInput(header: header, claims: claims).utf8)
        return JWT(header: header, claims: claims, signature: try signer.signature(of: input))
    }

    /// The key that verifies this key's signatures: the RSA public key (the private key is not kept),
    /// or the same secret. Bound to `serviceAccountEmail` as issuer and to `projectID` as provider when
    /// the key came from a key file.
    public func verificationKey() throws -> VerificationKey {
        VerificationKey(algorithm: algorithm, keyID: keyID, issuer: serviceAccountEmail, provider: projectID,
                        verifier: try signer.verifier())
    }

    /// The RSA public key as PEM (`BEGIN PUBLIC KEY`), to give to a verifying server; nil for HS256.
    public func publicKeyPEM() throws -> String? {
        try signer.publicKeyPEM()
    }

    /// The RSA private key as unencrypted PKCS#8 PEM (to save a generated key); nil for HS256.
    public func privateKeyPEM() throws -> String? {
        try signer.privateKeyPEM()
    }
}
