import FleetAuth
import FleetErrors

/// RS256 through OpenSSL: signs with the private key, or verifies with the public key alone.
struct RSASigner: JWTSigner, JWTSignatureVerifier {
    let key: RSAKey

    func signature(of signingInput: [UInt8]) throws -> [UInt8] {
        do {
            return try key.signSHA256(signingInput)
        } catch let failure as OpenSSLFailure {
            throw FleetError.internal("RS256 signing failed: \(failure.description)")
        }
    }

    func verifier() throws -> any JWTSignatureVerifier {
        do {
            return RSASigner(key: try key.publicOnly())
        } catch let failure as OpenSSLFailure {
            throw FleetError.internal("could not derive the public key: \(failure.description)")
        }
    }

    func verifies(signature: [UInt8], of signingInput: [UInt8]) -> Bool {
        key.verifySHA256(signature: signature, of: signingInput)
    }

    func publicKeyPEM() throws -> String? {
        do {
            return try key.publicKeyPEM()
        } catch let failure as OpenSSLFailure {
            throw FleetError.internal(failure.description)
        }
    }

    func privateKeyPEM() throws -> String? {
        do {
            return try key.privateKeyPEM()
        } catch let failure as OpenSSLFailure {
            throw FleetError.internal(failure.description)
        }
    }

    /// A private key from PEM, or INVALID_ARGUMENT `.authKeyInvalid` saying why it cannot be used.
    static func privateKey(_ pem: String) throws -> RSASigner {
        do {
            return RSASigner(key: try RSAKey.privateKey(pem: pem))
        } catch let failure as OpenSSLFailure {
            throw FleetError(.authKeyInvalid, detail: failure.description)
        }
    }
}

extension HMACSecret: JWTSigner, JWTSignatureVerifier {
    func signature(of signingInput: [UInt8]) throws -> [UInt8] { try authenticationCode(for: signingInput) }
    func verifier() throws -> any JWTSignatureVerifier { self }
    func verifies(signature: [UInt8], of signingInput: [UInt8]) -> Bool { verify(signature: signature, of: signingInput) }
    func publicKeyPEM() throws -> String? { nil }
    func privateKeyPEM() throws -> String? { nil }
}

extension SigningKey {
    /// An RS256 key from a PEM private key (PKCS#8 or PKCS#1, RSA, at least 2048 bits, unencrypted).
    /// - Throws: INVALID_ARGUMENT `.authKeyInvalid` saying why the PEM cannot be used.
    public static func rs256(privateKeyPEM: String, keyID: String?) throws -> SigningKey {
        SigningKey(algorithm: .rs256, keyID: keyID, signer: try RSASigner.privateKey(privateKeyPEM))
    }

    /// An RS256 key from a service-account key file's JSON text; `kid` is its `private_key_id`.
    /// - Throws: INVALID_ARGUMENT `.authKeyInvalid` for a bad file or key.
    public static func rs256(serviceAccountJSON: String) throws -> SigningKey {
        try rs256(serviceAccount: ServiceAccountKey(json: serviceAccountJSON))
    }

    /// An RS256 key from a parsed service-account key.
    public static func rs256(serviceAccount: ServiceAccountKey) throws -> SigningKey {
        SigningKey(algorithm: .rs256, keyID: serviceAccount.privateKeyID, serviceAccountEmail: serviceAccount.clientEmail,
                   projectID: serviceAccount.projectID, signer: try RSASigner.privateKey(serviceAccount.privateKeyPEM))
    }

    /// A new random RS256 key of `bits` bits (for `token keygen` and tests).
    public static func generateRS256(bits: Int = 2048, keyID: String?) throws -> SigningKey {
        do {
            return SigningKey(algorithm: .rs256, keyID: keyID, signer: RSASigner(key: try RSAKey.generate(bits: Int32(clamping: bits))))
        } catch let failure as OpenSSLFailure {
            throw FleetError(.authKeyInvalid, detail: failure.description)
        }
    }

    /// An HS256 key from the secret's bytes (at least 32).
    /// - Throws: INVALID_ARGUMENT `.authKeyInvalid` for a shorter secret.
    public static func hs256(secret: [UInt8], keyID: String? = nil) throws -> SigningKey {
        SigningKey(algorithm: .hs256, keyID: keyID, signer: try HMACSecret(secret))
    }

    /// An HS256 key from a secret file's bytes: one trailing newline is removed, then at least 32 bytes must remain.
    public static func hs256(secretFileContents: [UInt8], keyID: String? = nil) throws -> SigningKey {
        SigningKey(algorithm: .hs256, keyID: keyID, signer: try HMACSecret.fileContents(secretFileContents))
    }
}

extension VerificationKey {
    /// An RS256 key from a PEM public key (`BEGIN PUBLIC KEY`) or X.509 certificate (`BEGIN CERTIFICATE`).
    /// - Throws: INVALID_ARGUMENT `.authKeyInvalid` saying why the PEM cannot be used.
    public static func rs256(publicKeyPEM: String, keyID: String? = nil, issuer: String? = nil) throws -> VerificationKey {
        do {
            return VerificationKey(algorithm: .rs256, keyID: keyID, issuer: issuer,
                                   verifier: RSASigner(key: try RSAKey.publicKey(pem: publicKeyPEM)))
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
        VerificationKey(algorithm: .hs256, keyID: keyID, verifier: try HMACSecret(secret))
    }

    /// An HS256 key from a secret file's bytes (one trailing newline removed, at least 32 bytes left).
    public static func hs256(secretFileContents: [UInt8], keyID: String? = nil) throws -> VerificationKey {
        VerificationKey(algorithm: .hs256, keyID: keyID, verifier: try HMACSecret.fileContents(secretFileContents))
    }
}
