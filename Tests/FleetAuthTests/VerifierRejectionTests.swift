import FleetAuth
import FleetErrors
import FleetModel
import Testing
import OpenSSLJWT

@Suite struct VerifierRejectionTests {
    private let clock = TestClock(Fixture.epoch + 100)

    private func rsaVerifier() throws -> TokenVerifier {
        TokenVerifier(keys: [try Fixture.publicKey(keyID: "k1")], clock: clock.epochClock)
    }

    private func signed(_ claims: JWTClaims = fleetClaims(), keyID: String? = "k1") throws -> String {
        try Fixture.privateKey(keyID: keyID).sign(claims: claims)
    }

    /// A token with the given header and claims JSON and a signature of our test key over them.
    private func rawToken(header: String, claims: String, signature: [UInt8] = [1, 2, 3]) -> String {
        "\(Base64URL.encode(header)).\(Base64URL.encode(claims)).\(Base64URL.encode(signature))"
    }

    @Test func aTamperedTokenFailsTheSignature() throws {
        let token = try signed()
        let parts = token.split(separator: ".").map(String.init)
        var claims = fleetClaims()
        claims.authorization = AuthorizationScope(vehicleID: "*", tripID: "stolen")
        let tampered = "\(parts[0]).\(Base64URL.encode(JSON.object(claims.json).serializedBytes())).\(parts[2])"
        expectFleetError(.jwtBadSignature, containing: "no configured RS256 key verifies the signature") {
            _ = try rsaVerifier().verify(tampered)
        }
        var signature = try #require(Base64URL.decode(parts[2]))
        signature[10] ^= 0x01
        expectFleetError(.jwtBadSignature) { _ = try rsaVerifier().verify("\(parts[0]).\(parts[1]).\(Base64URL.encode(signature))") }
        expectFleetError(.jwtBadSignature) { _ = try rsaVerifier().verify("\(parts[0]).\(parts[1]).") }
    }

    @Test func aTokenSignedByAnotherKeyFails() throws {
        let other = try SigningKey.rs256(privateKeyPEM: Fixture.text("other-rsa-private.pem"), keyID: "k1")
        expectFleetError(.jwtBadSignature) { _ = try rsaVerifier().verify(other.sign(claims: fleetClaims())) }
        // With both keys configured under different kids, the kid picks the key.
        let both = TokenVerifier(keys: [try Fixture.publicKey(keyID: "k1"),
                                        try VerificationKey.rs256(publicKeyPEM: Fixture.text("other-rsa-public.pem"), keyID: "k2")],
                                 clock: clock.epochClock)
        #expect(try both.verify(SigningKey.rs256(privateKeyPEM: Fixture.text("other-rsa-private.pem"), keyID: "k2").sign(claims: fleetClaims())).role == .server)
        #expect(try both.verify(signed()).role == .server)
        expectFleetError(.jwtBadSignature) { _ = try both.verify(other.sign(claims: fleetClaims())) }
    }

    @Test func keysAreChosenByKid() throws {
        expectFleetError(.jwtUnknownKey, containing: "kid \"k9\"") { _ = try rsaVerifier().verify(signed(keyID: "k9")) }
        // A token without kid tries every key; a key without kid accepts any kid.
        #expect(try rsaVerifier().verify(signed(keyID: nil)).role == .server)
        let anyKid = TokenVerifier(keys: [try Fixture.publicKey(keyID: nil)], clock: clock.epochClock)
        #expect(try anyKid.verify(signed(keyID: "whatever")).role == .server)
    }

    @Test func theAudienceMustBeAccepted() throws {
        var claims = fleetClaims()
        claims.audience = .single("https://elsewhere.example.com/")
        expectFleetError(.jwtWrongAudience, containing: "aud is \"https://elsewhere.example.com/\"; expected \"https://fleetengine.googleapis.com/\"") {
            _ = try rsaVerifier().verify(signed(claims))
        }
        claims.audience = nil
        expectFleetError(.jwtWrongAudience, containing: "no aud claim") { _ = try rsaVerifier().verify(signed(claims)) }
        claims.audience = .multiple([])
        expectFleetError(.jwtWrongAudience) { _ = try rsaVerifier().verify(signed(claims)) }
        // Configured audiences are accepted too; a trailing slash does not matter.
        claims.audience = .single("https://fleet.example.com")
        let configured = TokenVerifier(keys: [try Fixture.publicKey()], additionalAudiences: ["https://fleet.example.com/"], clock: clock.epochClock)
        #expect(try configured.verify(signed(claims)).role == .server)
        claims.audience = .single("https://fleetengine.googleapis.com")
        #expect(try rsaVerifier().verify(signed(claims)).role == .server)
    }

    @Test func expiryHonoursTheClockSkew() throws {
        let token = try signed(fleetClaims(iat: Fixture.epoch, ttl: 600))
        clock.advance(500 + 29)  // 29 s past exp: inside the 30 s skew
        #expect(try rsaVerifier().verify(token).role == .server)
        clock.advance(1)  // exactly exp + skew
        let error = expectFleetError(.jwtExpired, containing: "JWT expired at 1767226200 (2026-01-01T00:10:00Z), 30 s ago (allowed clock skew 30 s)") {
            _ = try rsaVerifier().verify(token)
        }
        #expect(error?.code == .unauthenticated)
        #expect(error?.message.hasPrefix("The JWT has expired") == true)
    }

    @Test func aTokenWithoutExpIsRefused() throws {
        var claims = fleetClaims()
        claims.expiresAt = nil
        expectFleetError(.jwtMissingClaim, containing: "no exp claim") { _ = try rsaVerifier().verify(signed(claims)) }
    }

    /// Without iat the one-hour cap could not hold: exp ten years out, or 1e300, would be accepted.
    @Test(arguments: [Fixture.epoch + 100 + 600, Fixture.epoch + 100 + 10 * 365 * 86_400, 1e300])
    func aTokenWithoutIatIsRefused(expiresAt: Double) throws {
        var claims = fleetClaims()
        claims.issuedAt = nil
        claims.expiresAt = expiresAt
        let error = expectFleetError(.jwtMissingClaim, containing: "no iat claim") { _ = try rsaVerifier().verify(signed(claims)) }
        #expect(error?.code == .unauthenticated)
    }

    @Test func anExpOf1e300WithIatIsTooLong() throws {
        var claims = fleetClaims(iat: clock.now)
        claims.expiresAt = 1e300
        expectFleetError(.jwtLifetimeTooLong) { _ = try rsaVerifier().verify(signed(claims)) }
    }

    @Test func notBeforeAndIssuedAtInTheFutureAreRefused() throws {
        var claims = fleetClaims(iat: clock.now)
        claims.notBefore = clock.now + 31
        expectFleetError(.jwtNotYetValid, containing: "31 s from now") { _ = try rsaVerifier().verify(signed(claims)) }
        claims.notBefore = clock.now + 30
        #expect(try rsaVerifier().verify(signed(claims)).role == .server)

        let future = fleetClaims(iat: clock.now + 31, ttl: 60)
        expectFleetError(.jwtIssuedInFuture, containing: "iat is 1767225731") { _ = try rsaVerifier().verify(signed(future)) }
        #expect(try rsaVerifier().verify(signed(fleetClaims(iat: clock.now + 30, ttl: 60))).role == .server)
    }

    @Test func lifetimesOverOneHourAreRefusedUnlessConfigured() throws {
        let long = try signed(fleetClaims(iat: clock.now, ttl: 3601))
        expectFleetError(.jwtLifetimeTooLong, containing: "exp is 3601 s after iat; at most 3600 s is allowed") {
            _ = try rsaVerifier().verify(long)
        }
        var relaxed = try rsaVerifier()
        relaxed.maximumLifetime = 86_400
        #expect(try relaxed.verify(long).role == .server)
    }

    @Test(arguments: ["none", "None", "NONE"])
    func unsignedTokensAreNeverAccepted(alg: String) throws {
        let token = rawToken(header: #"{"alg":"\#(alg)","typ":"JWT"}"#, claims: JSON.object(fleetClaims().json).serialized(), signature: [])
        expectFleetError(.jwtAlgorithmRejected, containing: "an unsigned token") { _ = try rsaVerifier().verify(token) }
        let both = TokenVerifier(keys: [try Fixture.publicKey(), try VerificationKey.hs256(secret: Fixture.secret)], clock: clock.epochClock)
        expectFleetError(.jwtAlgorithmRejected) { _ = try both.verify(token) }
    }

    @Test func unsupportedAlgorithmsAreRefused() throws {
        let token = rawToken(header: #"{"alg":"RS512"}"#, claims: JSON.object(fleetClaims().json).serialized())
        expectFleetError(.jwtAlgorithmRejected, containing: "alg \"RS512\" is not supported; this server accepts RS256") {
            _ = try rsaVerifier().verify(token)
        }
        let lowercase = rawToken(header: #"{"alg":"rs256"}"#, claims: JSON.object(fleetClaims().json).serialized())
        expectFleetError(.jwtAlgorithmRejected) { _ = try rsaVerifier().verify(lowercase) }
    }

    @Test func anHS256TokenSignedWithTheRSAPublicKeyIsRefused() throws {
        // The classic algorithm-confusion attack: HMAC keyed with the server's public key bytes.
        let publicPEM = try Fixture.text("test-rsa-public.pem")
        let forged = try SigningKey.hs256(secret: Array(publicPEM.utf8), keyID: "k1").sign(claims: fleetClaims())
        expectFleetError(.jwtAlgorithmRejected, containing: "alg HS256 is not accepted: this server verifies RS256 only") {
            _ = try rsaVerifier().verify(forged)
        }
        // Even when HS256 is configured too, an RSA key never checks an HS256 signature.
        let mixed = TokenVerifier(keys: [try Fixture.publicKey(keyID: "k1"), try VerificationKey.hs256(secret: Fixture.secret)],
                                  clock: clock.epochClock)
        expectFleetError(.jwtBadSignature) { _ = try mixed.verify(forged) }
    }

    @Test func anRS256TokenIsRefusedWhenOnlySecretsAreConfigured() throws {
        let hmacOnly = TokenVerifier(keys: [try VerificationKey.hs256(secret: Fixture.secret)], clock: clock.epochClock)
        expectFleetError(.jwtAlgorithmRejected, containing: "alg RS256 is not accepted: this server verifies HS256 only") {
            _ = try hmacOnly.verify(signed())
        }
    }

    @Test func theAllowListNarrowsTheAlgorithms() throws {
        let verifier = TokenVerifier(keys: [try Fixture.publicKey(), try VerificationKey.hs256(secret: Fixture.secret)],
                                     allowedAlgorithms: [.rs256], clock: clock.epochClock)
        #expect(verifier.acceptedAlgorithms == [.rs256])
        expectFleetError(.jwtAlgorithmRejected) { _ = try verifier.verify(SigningKey.hs256(secret: Fixture.secret).sign(claims: fleetClaims())) }
        #expect(try verifier.verify(signed()).role == .server)
    }

    @Test(arguments: ["a.b", "a.b.c.d", "x", "\(Base64URL.encode("{}")).\(Base64URL.encode("{")).", "%%%.e30.e30"])
    func malformedTokensAreUnauthenticated(token: String) throws {
        expectFleetError(.jwtMalformed) { _ = try rsaVerifier().verify(token) }
    }

    @Test func theAuthorizationHeaderMustCarryABearerToken() throws {
        let token = try signed()
        #expect(try rsaVerifier().verify(authorizationHeader: "Bearer \(token)").role == .server)
        #expect(try rsaVerifier().verify(authorizationHeader: "bearer  \(token) ").role == .server)
        expectFleetError(.jwtMissing) { _ = try rsaVerifier().verify(authorizationHeader: nil) }
        expectFleetError(.jwtMissing) { _ = try rsaVerifier().verify(authorizationHeader: "  ") }
        expectFleetError(.jwtMissing, containing: "not \"Bearer <token>\"") { _ = try rsaVerifier().verify(authorizationHeader: "Basic abc") }
        expectFleetError(.jwtMissing) { _ = try rsaVerifier().verify(authorizationHeader: token) }
    }
}
