import FleetAuth
import FleetInterface
import Testing
import OpenSSLJWT

/// Tokens made by Python's PyJWT 2.15.1 (`jwt.encode`) from the committed test key, with iat
/// 2026-01-01T00:00:00Z; verified here with an injected clock.
@Suite struct PyJWTInteropTests {
    /// A Fleet Engine consumer token as Google documents it: kid, iss = sub = service account, aud, iat,
    /// exp one hour later, authorization.tripid; no role claim (the role comes from the issuer map).
    static let consumerToken = "eyJhbGciOiJSUzI1NiIsImtpZCI6IjAxMjM0NTY3ODlhYmNkZWYwMTIzNDU2Nzg5YWJjZGVmMDEyMzQ1NjciLCJ0eXAiOiJKV1QifQ.eyJpc3MiOiJmbGVldC1hdXRoLXRlc3RzQGV4YW1wbGUtcHJvamVjdC5pYW0uZ3NlcnZpY2VhY2NvdW50LmNvbSIsInN1YiI6ImZsZWV0LWF1dGgtdGVzdHNAZXhhbXBsZS1wcm9qZWN0LmlhbS5nc2VydmljZWFjY291bnQuY29tIiwiYXVkIjoiaHR0cHM6Ly9mbGVldGVuZ2luZS5nb29nbGVhcGlzLmNvbS8iLCJpYXQiOjE3NjcyMjU2MDAsImV4cCI6MTc2NzIyOTIwMCwiYXV0aG9yaXphdGlvbiI6eyJ0cmlwaWQiOiJ0cmlwLTQyIn19.pJ3J-1k-PIFzbe3-VfyZ2Pr-JF34jamzpuMFPBh78PMj2yRegUurPfIkyPb9qJh-qekZ8XlTSGIuyElD-UGR2H6KvVoilb8KarTdCnugQQH6_W0aMlcytel-rN4thxOeKlUvz1dWRVR2uW9XTY9tjM7FSNz7hUtjiP02_uqlGA7mzrH4OD-HLm-GHQr_nqG_qeS2bgRuhcTjP7rzOTJTqN7K_5U7CYQrrycj5zS1IhUNGx40BIVkBG97m4dkvEcVHQgnbo2rOo-rHDDnskuII_3UTIXPc_wnS7v1jKmj9SR99x0ijNjoBEvTL5NXAu_KnnmOa9jwQhly5rXjl6-ODg"

    /// A server token with two audiences, exp 30 minutes after iat, wildcards and `"fleetrole": "server"`.
    static let serverToken = "eyJhbGciOiJSUzI1NiIsImtpZCI6IjAxMjM0NTY3ODlhYmNkZWYwMTIzNDU2Nzg5YWJjZGVmMDEyMzQ1NjciLCJ0eXAiOiJKV1QifQ.eyJpc3MiOiJmbGVldC1hdXRoLXRlc3RzQGV4YW1wbGUtcHJvamVjdC5pYW0uZ3NlcnZpY2VhY2NvdW50LmNvbSIsInN1YiI6ImZsZWV0LWF1dGgtdGVzdHNAZXhhbXBsZS1wcm9qZWN0LmlhbS5nc2VydmljZWFjY291bnQuY29tIiwiYXVkIjpbImh0dHBzOi8vZmxlZXQuZXhhbXBsZS5jb20iLCJodHRwczovL2ZsZWV0ZW5naW5lLmdvb2dsZWFwaXMuY29tLyJdLCJpYXQiOjE3NjcyMjU2MDAsImV4cCI6MTc2NzIyNzQwMCwiYXV0aG9yaXphdGlvbiI6eyJ2ZWhpY2xlaWQiOiIqIiwidHJpcGlkIjoiKiJ9LCJmbGVldHJvbGUiOiJzZXJ2ZXIifQ.Gy1lJJgejiCaMdbVmaCUL967IdR3Bg51G925OEh1WGfJ163m36Kwzz51FUVxJbs_o2jKjQvRGBr6YZw8XlimkbhF6lTExy4qA8MD5ed7PWhTBhwEeoUYM3fUGeiPOZjmLKB-PQjGjrmoq3OlXhhVjsWa8WTFOPj0zVqsj4vjATugeycNRtw-5oyNw3BQjmtRBFbHJ5FXU0N1thr4HhYsrBQ2EnMFAiljfeA1KwdRPjJm6e0OcwkeCIb4mqzPY-bUcFeErBWI53VKtMDW1OGuyFlqj0Jv9qsJm_1jVH8h6c1MfbRO_FpyFpQqkd1dbMQhehkrB1elO6Fn2TV38odPrw"

    /// An HS256 driver token (no kid) signed with `pyjwtSecret`, exp 10 minutes after iat.
    static let driverHS256Token = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzZWxmLWhvc3RlZCIsInN1YiI6InNlbGYtaG9zdGVkIiwiYXVkIjoiaHR0cHM6Ly9mbGVldGVuZ2luZS5nb29nbGVhcGlzLmNvbS8iLCJpYXQiOjE3NjcyMjU2MDAsImV4cCI6MTc2NzIyNjIwMCwiYXV0aG9yaXphdGlvbiI6eyJ2ZWhpY2xlaWQiOiJ2ZWhpY2xlLTcifSwiZmxlZXRyb2xlIjoiZHJpdmVyIn0.InvazDzTig-m2JKNeE06y-vBDjALrnOUA1_5zvx7GTQ"
    static let pyjwtSecret = Array("pyjwt-interop-secret-of-at-least-32-bytes!".utf8)

    private func verifier(at time: Double) throws -> TokenVerifier {
        var roles = IssuerRoleMap()
        roles.bind(issuer: Fixture.serviceAccountEmail, role: .server)
        return TokenVerifier(keys: [try VerificationKey.fromServiceAccountJSON(Fixture.text("service-account.json"))],
                             issuerRoles: roles, clock: { time })
    }

    @Test func aPyJWTConsumerTokenIsAcceptedAndNarrowsNothingItDoesNotName() throws {
        var roles = IssuerRoleMap()
        roles.bind(issuer: Fixture.serviceAccountEmail, role: .consumer)
        let verifier = TokenVerifier(keys: [try Fixture.publicKey()], issuerRoles: roles, clock: { Fixture.epoch + 3599 })
        let verified = try verifier.verify(Self.consumerToken)
        #expect(verified.role == .consumer)
        #expect(verified.scope == AuthorizationScope(tripID: "trip-42"))
        #expect(verified.header.keyID == Fixture.serviceAccountKeyID)
        #expect(verified.expiresAt == Fixture.epoch + 3600)
        try Authorizer.authorize(token: verified, method: .getTrip, resources: CallResources(provider: "example-project", tripID: "trip-42"))
        expectFleetError(.jwtForOtherResource, containing: "JWT signed for another trip") {
            try Authorizer.authorize(token: verified, method: .getTrip, resources: CallResources(provider: "example-project", tripID: "trip-43"))
        }
    }

    @Test func aPyJWTServerTokenWithTwoAudiencesIsAccepted() throws {
        let verified = try verifier(at: Fixture.epoch + 10).verify(Self.serverToken)
        #expect(verified.role == .server)
        #expect(verified.claims.audience == .multiple(["https://fleet.example.com", "https://fleetengine.googleapis.com/"]))
        #expect(verified.scope == AuthorizationScope(vehicleID: "*", tripID: "*"))
    }

    @Test func pyJWTTokensExpireOnTheInjectedClock() throws {
        expectFleetError(.jwtExpired, containing: "JWT expired at 1767227400 (2026-01-01T00:30:00Z), 31 s ago") {
            _ = try verifier(at: Fixture.epoch + 1800 + 31).verify(Self.serverToken)
        }
    }

    @Test func aPyJWTHS256TokenIsAccepted() throws {
        let verifier = TokenVerifier(keys: [try VerificationKey.hs256(secret: Self.pyjwtSecret)], clock: { Fixture.epoch + 1 })
        let verified = try verifier.verify(Self.driverHS256Token)
        #expect(verified.role == .driver)
        #expect(verified.scope.vehicleID == "vehicle-7")
        #expect(verified.claims.issuer == "self-hosted")
    }

    @Test(arguments: [consumerToken, serverToken, driverHS256Token])
    func ourSignerReproducesPyJWTTokensByteForByte(token: String) throws {
        // Same member order and compact JSON as PyJWT, and RS256/HS256 are deterministic: signing
        // the decoded claims again must give the very same token.
        let decoded = try JWT.decode(token)
        let key = decoded.header.knownAlgorithm == .hs256
            ? try SigningKey.hs256(secret: Self.pyjwtSecret)
            : try SigningKey.rs256(serviceAccountJSON: Fixture.text("service-account.json"))
        #expect(try key.sign(claims: decoded.claims) == token)
    }
}
