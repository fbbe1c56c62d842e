import FleetTestSupport
import FleetAuth
import FleetModel
import Foundation
import Testing
import OpenSSLJWT

/// `fleet-admin token mint|inspect` run as a binary: round trips with HS256 and RS256 keys.
@Suite struct TokenCommandTests {
    /// A fleet (its folder holds the key files); tokens need no transport.
    private let fleet: AdminFleet
    private let secretFile: String

    init() throws {
        fleet = try AdminFleet(.memory)
        secretFile = try fleet.write("jwt.secret", "a-secret-of-at-least-thirty-two-bytes-for-hs256\n")
    }

    /// A Google service-account key file for a freshly generated RSA key.
    private func serviceAccountFile() throws -> String {
        let key = try SigningKey.generateRS256(keyID: "0123456789abcdef")
        let pem = try #require(try key.privateKeyPEM())
        var object = JSONObject()
        object["type"] = "service_account"
        object["project_id"] = "demo"
        object["private_key_id"] = "0123456789abcdef"
        object["private_key"] = .string(pem)
        object["client_email"] = "fleet-admin-tests@demo.iam.gserviceaccount.com"
        return try fleet.write("sa.json", JSON.object(object).prettyPrinted())
    }

    @Test func anHS256TokenRoundTrips() throws {
        let minted = try fleet.runBare(["token", "mint", "--role", "driver", "--vehicle", "car-1", "--ttl", "30m", "--secret-file", secretFile])
        #expect(minted.status == 0, "\(minted)")
        #expect(minted.error == "")
        let token = minted.output.trimmingCharacters(in: .newlines)
        #expect(minted.output == token + "\n", "the token alone on standard output")
        #expect(token.split(separator: ".").count == 3)

        let decoded = try JWT.decode(token)
        #expect(decoded.header.algorithm == "HS256")
        #expect(decoded.claims.role == "driver")
        #expect(decoded.claims.authorization?.vehicleID == "car-1")
        #expect(decoded.claims.audience?.values == ["https://fleetengine.googleapis.com/"])
        #expect(try #require(decoded.claims.expiresAt) - (try #require(decoded.claims.issuedAt)) == 1800)

        let inspected = try fleet.runBare(["token", "inspect", "-", "--secret-file", secretFile], input: .text(minted.output))
        #expect(inspected.status == 0, "\(inspected)")
        #expect(inspected.output.contains("Algorithm:      HS256\n"))
        #expect(inspected.output.contains("Role claim:     driver\n"))
        #expect(inspected.output.contains("Authorization:  vehicleid=car-1\n"))
        #expect(inspected.output.contains("Lifetime:       30m00s\n"))
        #expect(inspected.output.contains("Signature:      verified (HS256); acts as driver\n"))

        let json = try JSON.parse(try fleet.runBare(["token", "inspect", token, "--secret-file", secretFile, "--json"]).output)
        #expect(json["verification"]?["valid"] == true)
        #expect(json["verification"]?["role"] == "driver")
        #expect(json["claims"]?["authorization"]?["vehicleid"] == "car-1")
    }

    @Test func anRS256TokenFromAServiceAccountRoundTrips() throws {
        let keyFile = try serviceAccountFile()
        let minted = try fleet.runBare(["token", "mint", "--role", "server", "--key", keyFile])
        #expect(minted.status == 0, "\(minted)")
        let token = minted.output.trimmingCharacters(in: .newlines)
        let decoded = try JWT.decode(token)
        #expect(decoded.header.algorithm == "RS256")
        #expect(decoded.header.keyID == "0123456789abcdef")
        #expect(decoded.claims.issuer == "fleet-admin-tests@demo.iam.gserviceaccount.com")
        #expect(decoded.claims.subject == decoded.claims.issuer)
        #expect(decoded.claims.authorization == .everything)
        #expect(try #require(decoded.claims.expiresAt) - (try #require(decoded.claims.issuedAt)) == 3600)

        let inspected = try fleet.runBare(["token", "inspect", token, "--key", keyFile])
        #expect(inspected.status == 0, "\(inspected)")
        #expect(inspected.output.contains("Signature:      verified (RS256); acts as server\n"))
        #expect(inspected.output.contains("Key ID:         0123456789abcdef\n"))
    }

    /// Deliveries' tokens: a delivery driver, a trusted driver with its tasks, a consumer following a
    /// shipment; `inspect` shows the claims and verifies the trusted-driver role.
    @Test func deliveriesTokensCarryTheirClaims() throws {
        func mint(_ arguments: [String]) throws -> JWT {
            let minted = try fleet.runBare(["token", "mint"] + arguments + ["--secret-file", secretFile])
            #expect(minted.status == 0, "\(arguments): \(minted)")
            return try JWT.decode(minted.output.trimmingCharacters(in: .newlines))
        }
        #expect(try mint(["--role", "driver", "--delivery-vehicle", "van-7"]).claims.authorization == AuthorizationScope(deliveryVehicleID: "van-7"))
        let trusted = try mint(["--role", "trusted-driver", "--delivery-vehicle", "van-7", "--task", "*"])
        #expect(trusted.claims.authorization == AuthorizationScope(deliveryVehicleID: "van-7", taskID: "*"))
        #expect(trusted.claims.role == "trusted-driver")
        #expect(try mint(["--role", "consumer", "--tracking", "parcel-42"]).claims.authorization == AuthorizationScope(trackingID: "parcel-42"))

        let token = try fleet.runBare(["token", "mint", "--role", "trusted-driver", "--delivery-vehicle", "van-7", "--task", "k1",
                                       "--secret-file", secretFile]).output
        let inspected = try fleet.runBare(["token", "inspect", "-", "--secret-file", secretFile], input: .text(token))
        #expect(inspected.status == 0, "\(inspected)")
        #expect(inspected.output.contains("Authorization:  deliveryvehicleid=van-7, taskid=k1\n"), "\(inspected.output)")
        #expect(inspected.output.contains("Signature:      verified (HS256); acts as trusted-driver\n"), "\(inspected.output)")

        let noVehicle = try fleet.runBare(["token", "mint", "--role", "trusted-driver", "--task", "k1", "--secret-file", secretFile])
        #expect(noVehicle.status == 13, "\(noVehicle)")
        #expect(noVehicle.error.unwrapped.contains("a trusted-driver token needs a vehicle ID (authorization.vehicleid, rides) or a delivery vehicle ID"))
        let badTracking = try fleet.runBare(["token", "mint", "--role", "consumer", "--tracking", "a/b", "--secret-file", secretFile])
        #expect(badTracking.status == 13, "\(badTracking)")
    }

    @Test func inspectWithoutAKeyDecodesOnly() throws {
        let token = try fleet.runBare(["token", "mint", "--role", "consumer", "--trip", "trip-9", "--secret-file", secretFile]).output
        let result = try fleet.runBare(["token", "inspect"], environment: BinaryRunner.quietEnvironment.merging(["FLEET_TOKEN": token]) { $1 })
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("Authorization:  tripid=trip-9\n"))
        #expect(result.output.contains("Signature:      not verified (give --key, --public-key or --secret-file)\n"))
        #expect(result.output.contains("(in 59m5") || result.output.contains("(in 1h00m)"))
    }

    @Test func aTokenSignedWithAnotherKeyFailsInspection() throws {
        let token = try fleet.runBare(["token", "mint", "--role", "server", "--secret-file", secretFile]).output
        let other = try fleet.write("other.secret", "another-secret-of-at-least-thirty-two-bytes!!")
        let result = try fleet.runBare(["token", "inspect", token.trimmingCharacters(in: .newlines), "--secret-file", other])
        #expect(result.status == 26, "UNAUTHENTICATED: \(result)")
        #expect(result.output.contains("Signature:      INVALID: "))
        #expect(result.error.unwrapped.contains("fleet-admin: UNAUTHENTICATED: "))
        let garbage = try fleet.runBare(["token", "inspect", "not-a-token"])
        #expect(garbage.status == 26)
        #expect(garbage.error.unwrapped.contains("expected 3 segments"))
    }

    @Test func mintRefusesWhatFleetEngineWouldRefuse() throws {
        let noTrip = try fleet.runBare(["token", "mint", "--role", "consumer", "--secret-file", secretFile])
        #expect(noTrip.status == 13)
        #expect(noTrip.error.unwrapped.contains("a consumer token needs a trip ID"))
        let tooLong = try fleet.runBare(["token", "mint", "--role", "server", "--ttl", "2h", "--secret-file", secretFile])
        #expect(tooLong.status == 13)
        #expect(tooLong.error.unwrapped.contains("Fleet Engine accepts at most 3600 s"))
        let allowed = try fleet.runBare(["token", "mint", "--role", "server", "--ttl", "2h", "--allow-long-ttl", "--secret-file", secretFile])
        #expect(allowed.status == 0)
        let noKey = try fleet.runBare(["token", "mint", "--role", "server"])
        #expect(noKey.status == 2)
        #expect(noKey.error.unwrapped.contains("--key sa.json (RS256) or --secret-file FILE (HS256)"))
        let badRole = try fleet.runBare(["token", "mint", "--role", "admin", "--secret-file", secretFile])
        #expect(badRole.status == 2)
        let shortSecret = try fleet.write("short.secret", "too short")
        let weak = try fleet.runBare(["token", "mint", "--role", "server", "--secret-file", shortSecret])
        #expect(weak.status == 13)
        let missing = try fleet.runBare(["token", "mint", "--role", "server", "--key", fleet.path("nowhere.json")])
        #expect(missing.status == 13)
        #expect(missing.error.unwrapped.contains("cannot open"))
    }

    @Test func serveAcceptsMintedTokensAndRefusesCallsWithout() throws {
        let server = try AdminFleet(.http, serverArguments: ["--jwt-secret-file", "demo=\(secretFile)"])
        let token = try server.runBare(["token", "mint", "--role", "server", "--secret-file", secretFile]).output
            .trimmingCharacters(in: .newlines)
        let refused = try server.run(["vehicles", "list"])
        #expect(refused.status == 17, "PERMISSION_DENIED without a token: \(refused)")
        let accepted = try server.run(["--token", token, "vehicles", "create", "car-1", "--capacity", "4", "--json"])
        #expect(accepted.status == 0, "\(accepted)")
        let reader = try server.runBare(["token", "mint", "--role", "fleet-reader", "--secret-file", secretFile]).output
            .trimmingCharacters(in: .newlines)
        let readOnly = try server.run(["--token", reader, "vehicles", "offline", "car-1"])
        #expect(readOnly.status == 17, "a fleet reader may not write: \(readOnly)")
        let tokenFile = try server.write("token", reader + "\n")
        #expect(try server.run(["--token-file", tokenFile, "vehicles", "get", "car-1"]).status == 0)
    }
}
