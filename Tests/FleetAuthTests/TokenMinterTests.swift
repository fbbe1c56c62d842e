import FleetAuth
import FleetErrors
import Testing
import OpenSSLJWT

@Suite struct TokenMinterTests {
    private let clock = TestClock(Fixture.epoch + 0.75)

    private func minter(allowLong: Bool = false) throws -> TokenMinter {
        TokenMinter(key: try Fixture.privateKey(keyID: "k1"), issuer: "backend@example.com", allowsLifetimeOverOneHour: allowLong,
                    clock: clock.epochClock)
    }

    @Test func mintsFleetEngineClaimsForEachRole() throws {
        let minter = try minter()
        let server = try minter.claims(role: .server)
        #expect(server == JWTClaims(issuer: "backend@example.com", subject: "backend@example.com",
                                    audience: .single("https://fleetengine.googleapis.com/"), issuedAt: Fixture.epoch,
                                    expiresAt: Fixture.epoch + 3600, authorization: AuthorizationScope(vehicleID: "*", tripID: "*"),
                                    role: "server"))
        #expect(try minter.claims(role: .fleetReader).authorization == .everything)
        #expect(try minter.claims(role: .driver, vehicleID: "v1").authorization == AuthorizationScope(vehicleID: "v1"))
        #expect(try minter.claims(role: .consumer, tripID: "t1", ttl: 600).authorization == AuthorizationScope(tripID: "t1"))
        #expect(try minter.claims(role: .consumer, tripID: "t1", ttl: 600).expiresAt == Fixture.epoch + 600)
        #expect(try minter.claims(role: .server, vehicleID: "v1").authorization == AuthorizationScope(vehicleID: "v1", tripID: "*"))
    }

    @Test func mintedTokensVerifyAndAuthorize() throws {
        let token = try minter().mint(role: .driver, vehicleID: "v1")
        let verifier = TokenVerifier(keys: [try Fixture.publicKey(keyID: "k1")], clock: clock.epochClock)
        let verified = try verifier.verify(token)
        #expect(verified.role == .driver)
        try Authorizer.authorize(token: verified, method: .updateVehicle, provider: "p", vehicleID: "v1", tripID: nil)
    }

    @Test func driverAndConsumerTokensNeedTheirID() throws {
        let minter = try minter()
        expectFleetError(.missingField, containing: "a driver token needs a vehicle ID") { _ = try minter.mint(role: .driver) }
        expectFleetError(.missingField, containing: "a consumer token needs a trip ID") { _ = try minter.mint(role: .consumer, vehicleID: "v") }
        expectFleetError(.badID) { _ = try minter.mint(role: .consumer, tripID: "a/b") }
    }

    @Test func lifetimesOverOneHourNeedTheOverride() throws {
        expectFleetError(.invalidField, containing: "the token lifetime is 3601 s; Fleet Engine accepts at most 3600 s") {
            _ = try minter().mint(role: .server, ttl: 3601)
        }
        expectFleetError(.invalidField, containing: "at least 1 s") { _ = try minter().mint(role: .server, ttl: 0) }
        let claims = try minter(allowLong: true).claims(role: .server, ttl: 86_400)
        #expect(claims.expiresAt == Fixture.epoch + 86_400)
    }

    @Test func theIssuerDefaultsToTheServiceAccountThenToOurName() throws {
        let account = try SigningKey.rs256(serviceAccountJSON: Fixture.text("service-account.json"))
        #expect(TokenMinter(key: account).issuer == Fixture.serviceAccountEmail)
        #expect(TokenMinter(key: try SigningKey.hs256(secret: Fixture.secret)).issuer == TokenMinter.defaultIssuer)
        var minter = try minter()
        minter.includesRoleClaim = false
        #expect(try minter.claims(role: .server).role == nil)
    }
}
