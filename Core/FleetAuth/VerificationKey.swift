import FleetErrors

/// A key that verifies JWT signatures: an RSA public key (RS256) or a shared secret (HS256).
///
/// The algorithm is part of the key: an RS256 key never checks an HS256 signature (no algorithm
/// confusion), and a key bound to an issuer checks only tokens whose `iss` is that issuer.
public struct VerificationKey: Sendable {
    /// The one algorithm this key verifies.
    public let algorithm: JWTAlgorithm
    /// The `kid` this key answers to, when known (tokens with another `kid` skip it).
    public let keyID: String?
    /// The issuer (`iss`) this key is bound to, when known (a service account's email): tokens from
    /// another issuer skip it.
    public let issuer: String?
    private let material: Material

    private enum Material: Sendable {
        case rsa(RSAKey)
        case hmac(HMACSecret)
    }

    init(rsa: RSAKey, keyID: String?, issuer: String?) {
        algorithm = .rs256
        self.keyID = keyID
        self.issuer = issuer
        material = .rsa(rsa)
    }

    init(hmac: HMACSecret, keyID: String?) {
        algorithm = .hs256
        self.keyID = keyID
        issuer = nil
        material = .hmac(hmac)
    }

    /// An RS256 key from a PEM public key (`BEGIN PUBLIC KEY`) or X.509 certificate (`BEGIN CERTIFICATE`).
    /// - Throws: INVALID_ARGUMENT `.authKeyInvalid` saying why the PEM cannot be used.
    public static func rs256(publicKeyPEM: String, keyID: String? = nil, issuer: String? = nil) throws -> VerificationKey {
        do {
            return VerificationKey(rsa: try RSAKey.publicKey(pem: publicKeyPEM), keyID: keyID, issuer: issuer)
        } catch let failure as OpenSSLFailure {
            throw FleetError(.authKeyInvalid, detail: failure.description)
        }
    }

    /// The RS256 public key of a service-account key file (derived from its private key; only the public
    /// part is kept), answering to its `private_key_id` and bound to its `client_email`.
    /// - Throws: INVALID_ARGUMENT `.authKeyInvalid` for a bad file or key.
    public static func fromServiceAccountJSON(_ json: String) throws -> VerificationKey {
        try SigningKey.rs256(serviceAccountJSON: json).verificationKey()
    }

    /// An HS256 key from the secret's bytes (at least 32).
    public static func hs256(secret: [UInt8], keyID: String? = nil) throws -> VerificationKey {
        VerificationKey(hmac: try HMACSecret(secret), keyID: keyID)
    }

    /// An HS256 key from a secret file's bytes (one trailing newline removed, at least 32 bytes left).
    public static func hs256(secretFileContents: [UInt8], keyID: String? = nil) throws -> VerificationKey {
        VerificationKey(hmac: try HMACSecret.fileContents(secretFileContents), keyID: keyID)
    }

    /// Whether `signature` is this key's signature of `signingInput` (constant-time for HS256).
    public func verifies(signature: [UInt8], of signingInput: String) -> Bool {
        let message = Array(signingInput.utf8)
        switch material {
        case .rsa(let key): return key.verifySHA256(signature: signature, of: message)
        case .hmac(let secret): return secret.verify(signature: signature, of: message)
        }
    }
}
