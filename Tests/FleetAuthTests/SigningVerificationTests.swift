import FleetAuth
import FleetErrors
import FleetModel
import Foundation
import Testing
import OpenSSLJWT

@Suite struct SigningVerificationTests {
    private let clock = TestClock(Fixture.epoch + 60)

    private func verifier(_ keys: [VerificationKey]) -> TokenVerifier {
        TokenVerifier(keys: keys, clock: clock.epochClock)
    }

    @Test func rs256RoundTripWithPEMKeys() throws {
        let token = try Fixture.privateKey(keyID: "k1").sign(claims: fleetClaims())
        let jwt = try JWT.decode(token)
        #expect(jwt.header == JWTHeader(algorithm: .rs256, keyID: "k1"))
        #expect(jwt.signature.count == 256)
        let verified = try verifier([Fixture.publicKey(keyID: "k1")]).verify(token)
        #expect(verified.role == .server)
        #expect(verified.scope == .everything)
        #expect(verified.claims == fleetClaims())
    }

    @Test func rs256SignaturesAreDeterministic() throws {
        // RSASSA-PKCS1-v1_5 is deterministic: the same input gives the same signature.
        let key = try Fixture.privateKey()
        #expect(try key.sign(claims: fleetClaims()) == key.sign(claims: fleetClaims()))
    }

    @Test func hs256RoundTrip() throws {
        let token = try SigningKey.hs256(secret: Fixture.secret).sign(claims: fleetClaims(role: .driver, scope: AuthorizationScope(vehicleID: "v1")))
        #expect(try JWT.decode(token).header == JWTHeader(algorithm: "HS256", keyID: nil))
        #expect(try JWT.decode(token).signature.count == 32)
        let verified = try verifier([VerificationKey.hs256(secret: Fixture.secret)]).verify(token)
        #expect(verified.role == .driver)
        #expect(verified.scope.vehicleID == "v1")
    }

    @Test func serviceAccountKeyFileRoundTrip() throws {
        let json = try Fixture.text("service-account.json")
        let key = try ServiceAccountKey(json: json)
        #expect(key.projectID == "example-project")
        #expect(key.privateKeyID == Fixture.serviceAccountKeyID)
        #expect(key.clientEmail == Fixture.serviceAccountEmail)
        #expect(key.clientID == "100000000000000000001")
        #expect(key.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(try ServiceAccountKey(json: key.json.serialized()) == key)

        let signer = try SigningKey.rs256(serviceAccountJSON: json)
        #expect(signer.keyID == Fixture.serviceAccountKeyID)
        #expect(signer.serviceAccountEmail == Fixture.serviceAccountEmail)
        let minter = TokenMinter(key: signer, clock: clock.epochClock)
        let token = try minter.mint(role: .consumer, tripID: "trip-1")
        let jwt = try JWT.decode(token)
        #expect(jwt.header.keyID == Fixture.serviceAccountKeyID)
        #expect(jwt.claims.issuer == Fixture.serviceAccountEmail)
        #expect(jwt.claims.subject == Fixture.serviceAccountEmail)

        let verified = try verifier([VerificationKey.fromServiceAccountJSON(json)]).verify(token)
        #expect(verified.role == .consumer)
        #expect(verified.scope.tripID == "trip-1")
        // The public key derived from the key file is the committed public key.
        #expect(try signer.publicKeyPEM() == Fixture.text("test-rsa-public.pem"))
    }

    @Test func aServiceAccountKeyVerifiesOnlyItsOwnIssuer() throws {
        let json = try Fixture.text("service-account.json")
        let forged = try Fixture.privateKey(keyID: Fixture.serviceAccountKeyID).sign(claims: fleetClaims(issuer: "someone-else@example.com"))
        expectFleetError(.jwtUnknownKey, containing: "iss \"someone-else@example.com\"") {
            _ = try verifier([VerificationKey.fromServiceAccountJSON(json)]).verify(forged)
        }
    }

    @Test func certificatesAndPKCS1PrivateKeysLoad() throws {
        let token = try SigningKey.rs256(privateKeyPEM: Fixture.text("test-rsa-private-pkcs1.pem"), keyID: nil).sign(claims: fleetClaims())
        let fromCertificate = try VerificationKey.rs256(publicKeyPEM: Fixture.text("test-rsa-certificate.pem"))
        #expect(try verifier([fromCertificate]).verify(token).role == .server)
    }

    @Test func generatedKeysSignAndExportPEM() throws {
        let generated = try SigningKey.generateRS256(keyID: "fresh")
        let privatePEM = try #require(try generated.privateKeyPEM())
        let publicPEM = try #require(try generated.publicKeyPEM())
        #expect(privatePEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let reloaded = try SigningKey.rs256(privateKeyPEM: privatePEM, keyID: "fresh")
        let token = try reloaded.sign(claims: fleetClaims())
        #expect(try verifier([VerificationKey.rs256(publicKeyPEM: publicPEM, keyID: "fresh")]).verify(token).role == .server)
        #expect(try verifier([generated.verificationKey()]).verify(token).role == .server)
    }

    @Test func weakAndWrongKeysAreRefusedWithAReason() throws {
        expectFleetError(.authKeyInvalid, containing: "1024 bits; RS256 needs at least 2048") {
            _ = try SigningKey.rs256(privateKeyPEM: Fixture.text("weak-rsa-1024-private.pem"), keyID: nil)
        }
        expectFleetError(.authKeyInvalid, containing: "not a PEM private key") {
            _ = try SigningKey.rs256(privateKeyPEM: Fixture.text("test-rsa-public.pem"), keyID: nil)
        }
        expectFleetError(.authKeyInvalid, containing: "not a PEM public key") {
            _ = try VerificationKey.rs256(publicKeyPEM: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
        }
        expectFleetError(.authKeyInvalid, containing: "at least 2048") { _ = try SigningKey.generateRS256(bits: 1024, keyID: nil) }
    }

    @Test func shortSecretsAreRefused() {
        expectFleetError(.authKeyInvalid, containing: "31 bytes long; at least 32 are required") {
            _ = try SigningKey.hs256(secret: Array(repeating: 7, count: 31))
        }
        expectFleetError(.authKeyInvalid, containing: "31 bytes long") {
            _ = try VerificationKey.hs256(secret: Array(repeating: 7, count: 31))
        }
    }

    @Test func secretFilesLoseExactlyOneTrailingNewline() throws {
        let secret = Array(repeating: UInt8(ascii: "s"), count: 32)
        let claims = fleetClaims()
        let reference = try SigningKey.hs256(secret: secret).sign(claims: claims)
        #expect(try SigningKey.hs256(secretFileContents: secret + [0x0A]).sign(claims: claims) == reference)
        #expect(try SigningKey.hs256(secretFileContents: secret + [0x0D, 0x0A]).sign(claims: claims) == reference)
        #expect(try SigningKey.hs256(secretFileContents: secret + [0x0A, 0x0A]).sign(claims: claims) != reference)
        expectFleetError(.authKeyInvalid, containing: "31 bytes") {
            _ = try SigningKey.hs256(secretFileContents: Array(secret.dropLast()) + [0x0A])
        }
        let verifier = verifier([try VerificationKey.hs256(secretFileContents: secret + [0x0A])])
        #expect(try verifier.verify(reference).role == .server)
    }

    @Test(arguments: [
        (#"[]"#, "holds an array, not a JSON object"),
        (#"{"type":"authorized_user"}"#, "type is \"authorized_user\", expected \"service_account\""),
        (#"{"type":"service_account","private_key_id":"k","client_email":"e"}"#, "has no private_key"),
        (#"{"type":"service_account","private_key":"x","client_email":"e"}"#, "has no private_key_id"),
        (#"{"private_key":"x","private_key_id":"k","client_email":""}"#, "has no client_email"),
        (#"{"private_key":"x""#, "is not valid JSON"),
    ])
    func badServiceAccountFilesSayWhatIsWrong(json: String, reason: String) {
        expectFleetError(.authKeyInvalid, containing: reason) { _ = try ServiceAccountKey(json: json) }
    }

    @Test func aServiceAccountFileWithABadPEMIsRefused() {
        let json = #"{"type":"service_account","private_key":"-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n","private_key_id":"k","client_email":"e@x"}"#
        expectFleetError(.authKeyInvalid, containing: "not a PEM private key") { _ = try SigningKey.rs256(serviceAccountJSON: json) }
    }
}
