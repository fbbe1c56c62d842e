import FleetAuth
import FleetErrors
import Foundation
import Synchronization
import Testing
import OpenSSLJWT

/// The test key files in `Fixtures/`.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    static let serviceAccountEmail = "fleet-auth-tests@example-project.iam.gserviceaccount.com"
    static let serviceAccountKeyID = "0123456789abcdef0123456789abcdef01234567"
    /// 2026-01-01T00:00:00Z, the iat of the PyJWT tokens.
    static let epoch: Double = 1_767_225_600

    static func privateKey(keyID: String? = "test-kid") throws -> SigningKey {
        try SigningKey.rs256(privateKeyPEM: text("test-rsa-private.pem"), keyID: keyID)
    }

    static func publicKey(keyID: String? = nil) throws -> VerificationKey {
        try VerificationKey.rs256(publicKeyPEM: text("test-rsa-public.pem"), keyID: keyID)
    }

    static let secret = Array("a-shared-secret-of-at-least-32-bytes-long".utf8)
}

/// A clock that moves only when a test moves it.
final class TestClock: Sendable {
    private let current: Mutex<Double>

    init(_ start: Double = Fixture.epoch) { current = Mutex(start) }

    var now: Double { current.withLock { $0 } }
    func advance(_ seconds: Double) { current.withLock { $0 += seconds } }

    var epochClock: EpochClock { { [self] in now } }
}

/// Claims as a Fleet Engine server token would carry them, issued at `iat`.
func fleetClaims(iat: Double = Fixture.epoch, ttl: Double = 3600, role: Role? = .server,
                 scope: AuthorizationScope? = .everything, issuer: String = "minter@example.com") -> JWTClaims {
    JWTClaims(issuer: issuer, subject: issuer, audience: .single(TokenVerifier.fleetEngineAudience), issuedAt: iat,
              expiresAt: iat + ttl, authorization: scope, role: role?.rawValue)
}

/// Runs `body`, expects a `FleetError` with `cause` (and its code), whose message contains `phrase`.
@discardableResult
func expectFleetError(_ cause: ErrorCause, containing phrase: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
                      _ body: () throws -> Void) -> FleetError? {
    let error = #expect(throws: FleetError.self, sourceLocation: sourceLocation) { try body() }
    guard let error else { return nil }
    #expect(error.cause == cause.id, "cause \(String(describing: error.cause)), message: \(error.message)", sourceLocation: sourceLocation)
    #expect(error.code == cause.code, "code \(error.code.name)", sourceLocation: sourceLocation)
    if let phrase {
        #expect(error.message.contains(phrase), "message: \(error.message)", sourceLocation: sourceLocation)
    }
    return error
}
