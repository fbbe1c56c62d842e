import FleetAuth
import Foundation
import OpenSSLJWT

/// HS256 tokens signed by the built `fleet-admin token mint`, for a `fleet-admin serve` started with
/// `serverArguments` (`--jwt-secret-file`).
public struct MintedTokens: Sendable {
    /// The file holding the shared secret.
    public let secretFile: String
    /// The provider the server binds the secret to (`--jwt-secret-file PROVIDER=FILE`); nil for a
    /// server started with `--provider`, which binds a bare secret to that one.
    public let provider: String?
    /// The secret's text.
    public let secret: String

    /// Writes `secret` to a file in `folder`.
    public init(folder: URL, provider: String?, secret: String = "a-secret-of-at-least-thirty-two-bytes-for-hs256") throws {
        let url = folder.appendingPathComponent("jwt-\(UUID().uuidString.prefix(8)).secret")
        try (secret + "\n").write(to: url, atomically: true, encoding: .utf8)
        secretFile = url.path
        self.provider = provider
        self.secret = secret
    }

    /// The arguments that make `fleet-admin serve` check tokens signed with this secret.
    public var serverArguments: [String] { ["--jwt-secret-file", provider.map { "\($0)=\(secretFile)" } ?? secretFile] }

    /// A token the server accepts for about `seconds` more, then refuses as expired: its `exp` lies
    /// in the past, within the server's 30 s clock skew (`TokenVerifier.clockSkew`), so a test sees a
    /// token expire without waiting out a whole lifetime.
    public func mintExpiring(role: Role, tripID: String? = nil, vehicleID: String? = nil, trackingID: String? = nil,
                             acceptedFor seconds: Double) throws -> String {
        let now = Date().timeIntervalSince1970
        let key = try SigningKey.hs256(secret: Array(secret.utf8))
        // iat a minute ago; exp = now − 30 s + seconds, accepted until exp + 30 s of skew.
        let claims = try TokenMinter(key: key, clock: { now - 60 }).claims(role: role, vehicleID: vehicleID, tripID: tripID,
                                                                           trackingID: trackingID, ttl: 30 + seconds)
        return try key.sign(claims: claims)
    }

    /// A token for `role` (`consumer`, `driver`, `server`…), scoped by `--trip`/`--vehicle` in `scope`.
    public func mint(role: String, _ scope: [String] = []) throws -> String {
        let run = try BinaryRunner(product: "fleet-admin").run(["token", "mint", "--role", role] + scope + ["--secret-file", secretFile])
        guard run.status == 0 else { throw BinaryRunner.Failure(description: "token mint failed: \(run)") }
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
