import FleetErrors

/// A key that signs JWTs: an RSA private key (RS256, Fleet Engine's algorithm) or a shared secret (HS256).
public struct SigningKey: Sendable {
    /// The algorithm the key signs with.
    public let algorithm: JWTAlgorithm
    /// The header's `kid`: a service account's private key ID, when known.
    public let keyID: String?
    /// The service account's email when the key came from a key file (the default `iss`/`sub`).
    public let serviceAccountEmail: String?
    /// The service account's project when the key came from a key file.
    public let projectID: String?
    private let material: Material

    private enum Material: Sendable {
        case rsa(RSAKey)
        case hmac(HMACSecret)
    }

    private init(algorithm: JWTAlgorithm, keyID: String?, serviceAccountEmail: String? = nil, projectID: String? = nil, material: Material) {
        self.algorithm = algorithm
        self.keyID = keyID
        self.serviceAccountEmail = serviceAccountEmail
        self.projectID = projectID
        self.material = material
    }

    /// An RS256 key from a PEM private key (PKCS#8 or PKCS#1, RSA, at least 2048 bits, unencrypted).
    /// - Throws: INVALID_ARGUMENT `.authKeyInvalid` saying why the PEM cannot be used.
    public static func rs256(privateKeyPEM: String, keyID: String?) throws -> SigningKey {
        SigningKey(algorithm: .rs256, keyID: keyID, material: .rsa(try loadPrivateKey(privateKeyPEM)))
    }

    /// An RS256 key from a service-account key file's JSON text; `kid` is its `private_key_id`.
    /// - Throws: INVALID_ARGUMENT `.authKeyInvalid` for a bad file or key.
    public static func rs256(serviceAccountJSON: String) throws -> SigningKey {
        try rs256(serviceAccount: ServiceAccountKey(json: serviceAccountJSON))
    }

    /// An RS256 key from a parsed service-account key.
    public static func rs256(serviceAccount: ServiceAccountKey) throws -> SigningKey {
        SigningKey(algorithm: .rs256, keyID: serviceAccount.privateKeyID, serviceAccountEmail: serviceAccount.clientEmail,
                   projectID: serviceAccount.projectID, material: .rsa(try loadPrivateKey(serviceAccount.privateKeyPEM)))
    }

    /// A new random RS256 key of `bits` bits (for `token keygen` and tests).
    public static func generateRS256(bits: Int = 2048, keyID: String?) throws -> SigningKey {
        do {
            return SigningKey(algorithm: .rs256, keyID: keyID, material: .rsa(try RSAKey.generate(bits: Int32(clamping: bits))))
        } catch let failure as OpenSSLFailure {
            throw FleetError(.authKeyInvalid, detail: failure.description)
        }
    }

    /// An HS256 key from the secret's bytes (at least 32).
    /// - Throws: INVALID_ARGUMENT `.authKeyInvalid` for a shorter secret.
    public static func hs256(secret: [UInt8], keyID: String? = nil) throws -> SigningKey {
        SigningKey(algorithm: .hs256, keyID: keyID, material: .hmac(try HMACSecret(secret)))
    }

    /// An HS256 key from a secret file's bytes: one trailing newline is removed, then at least 32 bytes must remain.
    public static func hs256(secretFileContents: [UInt8], keyID: String? = nil) throws -> SigningKey {
        SigningKey(algorithm: .hs256, keyID: keyID, material: .hmac(try HMACSecret.fileContents(secretFileContents)))
    }

    /// Signs `claims` with the header `{"alg": …, "kid": …, "typ": "JWT"}` and returns the compact JWT.
    public func sign(claims: JWTClaims) throws -> String {
        try signedToken(claims: claims).compactSerialization
    }

    /// Signs `claims` and returns the token as a value.
    public func signedToken(claims: JWTClaims) throws -> JWT {
        let header = JWTHeader(algorithm: algorithm, keyID: keyID)
        let input = Array(JWT.signingInput(header: header, claims: claims).utf8)
        let signature: [UInt8]
        switch material {
        case .rsa(let key):
            do {
                signature = try key.signSHA256(input)
            } catch let failure as OpenSSLFailure {
                throw FleetError.internal("RS256 signing failed: \(failure.description)")
            }
        case .hmac(let secret):
            signature = try secret.authenticationCode(for: input)
        }
        return JWT(header: header, claims: claims, signature: signature)
    }

    /// The key that verifies this key's signatures: the RSA public key (the private key is not kept),
    /// or the same secret. Bound to `serviceAccountEmail` as issuer when the key came from a key file.
    public func verificationKey() throws -> VerificationKey {
        switch material {
        case .rsa(let key):
            do {
                return VerificationKey(rsa: try key.publicOnly(), keyID: keyID, issuer: serviceAccountEmail)
            } catch let failure as OpenSSLFailure {
                throw FleetError.internal("could not derive the public key: \(failure.description)")
            }
        case .hmac(let secret):
            return VerificationKey(hmac: secret, keyID: keyID)
        }
    }

    /// The RSA public key as PEM (`BEGIN PUBLIC KEY`), to give to a verifying server; nil for HS256.
    public func publicKeyPEM() throws -> String? {
        guard case .rsa(let key) = material else { return nil }
        do {
            return try key.publicKeyPEM()
        } catch let failure as OpenSSLFailure {
            throw FleetError.internal(failure.description)
        }
    }

    /// The RSA private key as unencrypted PKCS#8 PEM (to save a generated key); nil for HS256.
    public func privateKeyPEM() throws -> String? {
        guard case .rsa(let key) = material else { return nil }
        do {
            return try key.privateKeyPEM()
        } catch let failure as OpenSSLFailure {
            throw FleetError.internal(failure.description)
        }
    }

    private static func loadPrivateKey(_ pem: String) throws -> RSAKey {
        do {
            return try RSAKey.privateKey(pem: pem)
        } catch let failure as OpenSSLFailure {
            throw FleetError(.authKeyInvalid, detail: failure.description)
        }
    }
}
