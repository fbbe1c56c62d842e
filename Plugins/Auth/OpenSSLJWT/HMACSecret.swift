import COpenSSL
import FleetErrors
import FleetAuth

/// A shared secret for HS256 (HMAC-SHA-256), computed and compared by OpenSSL.
struct HMACSecret: Sendable {
    /// The shortest secret accepted: 32 bytes, the size of the SHA-256 output (RFC 7518 §3.2).
    static let minimumLength = 32

    let bytes: [UInt8]

    /// A secret of at least 32 bytes.
    /// - Throws: INVALID_ARGUMENT `.authKeyInvalid` when it is shorter.
    init(_ bytes: [UInt8]) throws {
        guard bytes.count >= Self.minimumLength else {
            throw FleetError(.authKeyInvalid, detail: "the HS256 secret is \(bytes.count) bytes long; at least \(Self.minimumLength) are required (e.g. `openssl rand -base64 48 > secret`)")
        }
        self.bytes = bytes
    }

    /// The secret in a secret file: the file's bytes with one trailing newline (`\n` or `\r\n`) removed.
    static func fileContents(_ contents: [UInt8]) throws -> HMACSecret {
        var bytes = contents
        if bytes.last == 0x0A {
            bytes.removeLast()
            if bytes.last == 0x0D { bytes.removeLast() }
        }
        return try HMACSecret(bytes)
    }

    /// HMAC-SHA-256 of `message` under this secret.
    func authenticationCode(for message: [UInt8]) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        OpenSSLErrorQueue.clear()
        let result = bytes.withUnsafeBytes { key in
            HMAC(EVP_sha256(), key.baseAddress, Int32(key.count), message, message.count, &output, &length)
        }
        guard result != nil else {
            throw FleetError.internal("HMAC-SHA-256 failed: \(OpenSSLErrorQueue.drain())")
        }
        return Array(output.prefix(Int(length)))
    }

    /// Whether `signature` is the HMAC of `message`, compared in constant time (`CRYPTO_memcmp`).
    func verify(signature: [UInt8], of message: [UInt8]) -> Bool {
        guard let expected = try? authenticationCode(for: message), expected.count == signature.count else { return false }
        return CRYPTO_memcmp(expected, signature, expected.count) == 0
    }
}
