import FleetAuth
import FleetErrors
import FleetModel
import FleetInterface
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
        let everyID = AuthorizationScope(vehicleID: "*", tripID: "*", deliveryVehicleID: "*", taskID: "*", trackingID: "*")
        #expect(server == JWTClaims(issuer: "backend@example.com", subject: "backend@example.com",
                                    audience: .single("https://fleetengine.googleapis.com/"), issuedAt: Fixture.epoch,
                                    expiresAt: Fixture.epoch + 3600, authorization: everyID, role: "server"))
        #expect(try minter.claims(role: .fleetReader).authorization == everyID)
        #expect(try minter.claims(role: .driver, vehicleID: "v1").authorization == AuthorizationScope(vehicleID: "v1"))
        #expect(try minter.claims(role: .consumer, tripID: "t1", ttl: 600).authorization == AuthorizationScope(tripID: "t1"))
        #expect(try minter.claims(role: .consumer, tripID: "t1", ttl: 600).expiresAt == Fixture.epoch + 600)
        #expect(try minter.claims(role: .server, vehicleID: "v1").authorization
            == AuthorizationScope(vehicleID: "v1", tripID: "*", deliveryVehicleID: "*", taskID: "*", trackingID: "*"))
    }

    /// Deliveries' tokens, as java-fleetengine-auth makes them: a delivery driver names its delivery
    /// vehicle, a trusted driver also the tasks it may update, a delivery consumer its shipment.
    @Test func mintsDeliveriesClaims() throws {
        let minter = try minter()
        #expect(try minter.claims(role: .driver, deliveryVehicleID: "van-7").authorization == AuthorizationScope(deliveryVehicleID: "van-7"))
        let trusted = try minter.claims(role: .trustedDriver, deliveryVehicleID: "van-7", taskID: "*")
        #expect(trusted.authorization == AuthorizationScope(deliveryVehicleID: "van-7", taskID: "*"))
        #expect(trusted.role == "trusted-driver")
        #expect(try minter.claims(role: .consumer, trackingID: "parcel-42").authorization == AuthorizationScope(trackingID: "parcel-42"))
        #expect(try minter.claims(role: .server, deliveryVehicleID: "van-7").authorization
            == AuthorizationScope(vehicleID: "*", tripID: "*", deliveryVehicleID: "van-7", taskID: "*", trackingID: "*"))
        let json = JSON.object(try minter.claims(role: .trustedDriver, deliveryVehicleID: "van-7", taskID: "k1").json).serialized()
        #expect(json.contains(#""authorization":{"deliveryvehicleid":"van-7","taskid":"k1"}"#), "\(json)")
    }

    @Test func mintedDeliveriesTokensVerifyAndAuthorize() throws {
        let minter = try minter()
        let verifier = TokenVerifier(keys: [try Fixture.publicKey(keyID: "k1")], clock: clock.epochClock)
        let driver = try verifier.verify(try minter.mint(role: .driver, deliveryVehicleID: "van-7"))
        try Authorizer.authorize(token: driver, method: .updateDeliveryVehicle, resources: CallResources(provider: "p", deliveryVehicleID: "van-7"))
        let trusted = try verifier.verify(try minter.mint(role: .trustedDriver, deliveryVehicleID: "van-7", taskID: "k1"))
        #expect(trusted.role == .trustedDriver)
        try Authorizer.authorize(token: trusted, method: .updateTask, resources: CallResources(provider: "p", taskID: "k1"))
        let consumer = try verifier.verify(try minter.mint(role: .consumer, trackingID: "parcel-42"))
        try Authorizer.authorize(token: consumer, method: .getTaskTrackingInfo, resources: CallResources(provider: "p", trackingID: "parcel-42"))
        expectFleetError(.jwtForOtherResource) {
            try Authorizer.authorize(token: consumer, method: .getTaskTrackingInfo, resources: CallResources(provider: "p", trackingID: "parcel-43"))
        }
    }

    @Test func mintedTokensVerifyAndAuthorize() throws {
        let token = try minter().mint(role: .driver, vehicleID: "v1")
        let verifier = TokenVerifier(keys: [try Fixture.publicKey(keyID: "k1")], clock: clock.epochClock)
        let verified = try verifier.verify(token)
        #expect(verified.role == .driver)
        try Authorizer.authorize(token: verified, method: .updateVehicle, resources: CallResources(provider: "p", vehicleID: "v1"))
    }

    @Test func driverAndConsumerTokensNeedTheirID() throws {
        let minter = try minter()
        expectFleetError(.missingField, containing: "a driver token needs a vehicle ID (authorization.vehicleid, rides) or a delivery vehicle ID") {
            _ = try minter.mint(role: .driver)
        }
        expectFleetError(.missingField, containing: "a trusted-driver token needs a vehicle ID") { _ = try minter.mint(role: .trustedDriver, taskID: "k1") }
        expectFleetError(.missingField, containing: "a consumer token needs a trip ID (authorization.tripid, rides) or a tracking ID") {
            _ = try minter.mint(role: .consumer, vehicleID: "v", deliveryVehicleID: "d")
        }
        expectFleetError(.badID) { _ = try minter.mint(role: .consumer, tripID: "a/b") }
        expectFleetError(.badID, containing: "trackingid") { _ = try minter.mint(role: .consumer, trackingID: "a#b") }
        expectFleetError(.badID, containing: "deliveryvehicleid") { _ = try minter.mint(role: .trustedDriver, deliveryVehicleID: String(repeating: "x", count: 65)) }
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
