import COpenSSL

/// An RSA key held by OpenSSL (`EVP_PKEY`), private or public only, and the RS256 operations on it.
///
/// All cryptography goes through OpenSSL's EVP API: PEM parsing, RSASSA-PKCS1-v1_5 SHA-256 signing
/// and verification, key generation.
///
/// `@unchecked Sendable`: the `EVP_PKEY` is never changed after it is made, and OpenSSL 3 allows one
/// key to be used by several threads at once; every operation makes its own `EVP_MD_CTX`.
final class RSAKey: @unchecked Sendable {
    /// The smallest modulus accepted (RFC 7518 §3.3 requires 2048 bits for RS256).
    static let minimumBits: Int32 = 2048

    private let key: OpaquePointer
    /// Whether the key holds the private part (and can sign).
    let isPrivate: Bool

    private init(taking key: OpaquePointer, isPrivate: Bool) throws {
        self.key = key
        self.isPrivate = isPrivate
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else {
            throw OpenSSLFailure("the key is not an RSA key (RS256 needs RSA)")
        }
        let bits = EVP_PKEY_get_bits(key)
        guard bits >= Self.minimumBits else {
            throw OpenSSLFailure("the RSA key has \(bits) bits; RS256 needs at least \(Self.minimumBits)")
        }
    }

    deinit { EVP_PKEY_free(key) }

    /// The modulus size in bits.
    var bits: Int { Int(EVP_PKEY_get_bits(key)) }

    /// Parses a PEM private key: PKCS#8 (`BEGIN PRIVATE KEY`, what service-account files hold) or
    /// PKCS#1 (`BEGIN RSA PRIVATE KEY`). Encrypted keys are refused (no passphrase prompt).
    static func privateKey(pem: String) throws -> RSAKey {
        OpenSSLErrorQueue.clear()
        let parsed = try MemoryBIO.reading(pem) { bio in
            PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let parsed else {
            throw OpenSSLFailure("not a PEM private key (or an encrypted one): \(OpenSSLErrorQueue.drain())")
        }
        return try RSAKey(taking: parsed, isPrivate: true)
    }

    /// Parses a PEM public key (`BEGIN PUBLIC KEY`) or an X.509 certificate (`BEGIN CERTIFICATE`,
    /// as Google publishes for service accounts) and keeps its public key. The certificate's validity
    /// dates are not checked: it is only a carrier for the key.
    static func publicKey(pem: String) throws -> RSAKey {
        OpenSSLErrorQueue.clear()
        if pem.contains("-----BEGIN CERTIFICATE-----") {
            let certificate = try MemoryBIO.reading(pem) { bio in PEM_read_bio_X509(bio, nil, { _, _, _, _ in 0 }, nil) }
            guard let certificate else {
                throw OpenSSLFailure("not a PEM X.509 certificate: \(OpenSSLErrorQueue.drain())")
            }
            defer { X509_free(certificate) }
            guard let key = X509_get_pubkey(certificate) else {
                throw OpenSSLFailure("the certificate's public key cannot be read: \(OpenSSLErrorQueue.drain())")
            }
            return try RSAKey(taking: key, isPrivate: false)
        }
        let parsed = try MemoryBIO.reading(pem) { bio in PEM_read_bio_PUBKEY(bio, nil, { _, _, _, _ in 0 }, nil) }
        guard let parsed else {
            throw OpenSSLFailure("not a PEM public key (BEGIN PUBLIC KEY) or certificate: \(OpenSSLErrorQueue.drain())")
        }
        return try RSAKey(taking: parsed, isPrivate: false)
    }

    /// A new random RSA private key of `bits` bits (at least 2048).
    static func generate(bits: Int32 = 2048) throws -> RSAKey {
        guard bits >= minimumBits else { throw OpenSSLFailure("RS256 keys need at least \(minimumBits) bits, asked for \(bits)") }
        OpenSSLErrorQueue.clear()
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, nil) else {
            throw OpenSSLFailure("could not create a key generation context: \(OpenSSLErrorQueue.drain())")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var generated: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(context, bits) == 1,
              EVP_PKEY_generate(context, &generated) == 1, let generated else {
            throw OpenSSLFailure("RSA key generation failed: \(OpenSSLErrorQueue.drain())")
        }
        return try RSAKey(taking: generated, isPrivate: true)
    }

    /// The public key as PEM (`BEGIN PUBLIC KEY`, SubjectPublicKeyInfo).
    func publicKeyPEM() throws -> String {
        OpenSSLErrorQueue.clear()
        return try MemoryBIO.writing { bio in
            guard PEM_write_bio_PUBKEY(bio, key) == 1 else {
                throw OpenSSLFailure("could not write the public key: \(OpenSSLErrorQueue.drain())")
            }
        }
    }

    /// The private key as unencrypted PKCS#8 PEM (`BEGIN PRIVATE KEY`).
    func privateKeyPEM() throws -> String {
        guard isPrivate else { throw OpenSSLFailure("the key has no private part") }
        OpenSSLErrorQueue.clear()
        return try MemoryBIO.writing { bio in
            guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else {
                throw OpenSSLFailure("could not write the private key: \(OpenSSLErrorQueue.drain())")
            }
        }
    }

    /// The public part alone, as a key of its own (so a verifier never holds the private key).
    func publicOnly() throws -> RSAKey {
        try RSAKey.publicKey(pem: publicKeyPEM())
    }

    /// Signs `message` with RSASSA-PKCS1-v1_5 over SHA-256 (RS256).
    func signSHA256(_ message: [UInt8]) throws -> [UInt8] {
        guard isPrivate else { throw OpenSSLFailure("a public key cannot sign") }
        OpenSSLErrorQueue.clear()
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLFailure("could not create a digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            throw OpenSSLFailure("EVP_DigestSignInit failed: \(OpenSSLErrorQueue.drain())")
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw OpenSSLFailure("EVP_DigestSign (length) failed: \(OpenSSLErrorQueue.drain())")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw OpenSSLFailure("EVP_DigestSign failed: \(OpenSSLErrorQueue.drain())")
        }
        return Array(signature.prefix(length))
    }

    /// Whether `signature` is a valid RS256 signature of `message` by this key.
    func verifySHA256(signature: [UInt8], of message: [UInt8]) -> Bool {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }
}
