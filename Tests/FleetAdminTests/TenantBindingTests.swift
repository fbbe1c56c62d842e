import FleetAuth
import FleetModel
import FleetTestSupport
import Foundation
import OpenSSLJWT
import Testing

/// Tokens are bound to their provider, against a real `fleet-admin serve` over REST and gRPC: a
/// service-account key's tokens act on its `project_id` only, an HS256 secret's on the provider it
/// was named for; and the status codes of the Consumer SDK guide for tokens without a trip ID and
/// calls without a token.
@Suite(.serialized) struct TenantBindingTests {
    /// A folder for key files, removed at the end.
    final class Folder: @unchecked Sendable {
        let url: URL
        init() throws { url = try Products.temporaryDirectory("tenants") }
        func write(_ name: String, _ text: String) throws -> String {
            let file = url.appendingPathComponent(name)
            try text.write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// A service-account key file for `project`.
    static func serviceAccount(_ project: String, in folder: Folder) throws -> String {
        let key = try SigningKey.generateRS256(keyID: "key-\(project)")
        var account = JSONObject()
        account["type"] = "service_account"
        account["project_id"] = .string(project)
        account["private_key_id"] = .string("key-\(project)")
        account["private_key"] = .string(try #require(try key.privateKeyPEM()))
        account["client_email"] = .string("dispatch@\(project).iam.gserviceaccount.com")
        return try folder.write("\(project).json", JSON.object(account).prettyPrinted())
    }

    static func mint(_ arguments: [String]) throws -> String {
        let run = try BinaryRunner(product: "fleet-admin").run(["token", "mint"] + arguments)
        guard run.status == 0 else { throw BinaryRunner.Failure(description: "token mint failed: \(run)") }
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func rest(_ server: ServerProcess, _ method: String, _ path: String, token: String?, body: String = "") throws -> RawHTTP.Answer {
        var headers: [(String, String)] = token.map { [("Authorization", "Bearer \($0)")] } ?? []
        if !body.isEmpty { headers.append(("Content-Type", "application/json")) }
        return try RawHTTP.exchange(server.url, RawHTTP.request(method, path, headers: headers, body: Array(body.utf8)))
    }

    static func grpc(_ server: ServerProcess, _ method: String, _ message: [UInt8], token: String?) throws -> GRPCCall.Answer {
        try GRPCCall.call(server, method, message, token: token)
    }

    static let vehicleJSON = #"{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"}}"#

    @Test func aServiceAccountsTokensActOnItsProjectOnly() throws {
        let folder = try Folder()
        let keyA = try Self.serviceAccount("proj-a", in: folder)
        let keyB = try Self.serviceAccount("proj-b", in: folder)
        let server = try ServerProcess(arguments: ["--jwt-key", keyA, "--jwt-key", keyB, "--grpc-listen", "127.0.0.1:0"])
        defer { server.stop() }
        let tokenA = try Self.mint(["--role", "server", "--key", keyA])
        let tokenB = try Self.mint(["--role", "server", "--key", keyB])

        let created = try Self.rest(server, "POST", "/v1/providers/proj-b/vehicles?vehicleId=car-1", token: tokenB, body: Self.vehicleJSON)
        #expect(created.status == 200, "B's own token creates B's vehicle: \(created.body)")
        let deleted = try Self.rest(server, "DELETE", "/v1/providers/proj-b/vehicles/car-1", token: tokenA)
        #expect(deleted.status == 403, "A's token may not delete B's vehicle: \(deleted.body)")
        #expect(deleted.body.contains("provider"), "\(deleted.body)")
        let listed = try Self.rest(server, "GET", "/v1/providers/proj-b/vehicles?vehicleTypeCategories=AUTO", token: tokenA)
        #expect(listed.status == 403, "A's token may not list B's vehicles: \(listed.body)")
        #expect(!listed.body.contains("car-1"))
        let overGRPC = try Self.grpc(server, "/maps.fleetengine.v1.VehicleService/ListVehicles",
                                     ListVehiclesRequest(parent: "providers/proj-b").protobufBytes(), token: tokenA)
        #expect(overGRPC.status == 7, "PERMISSION_DENIED over gRPC: \(overGRPC.output)")
        let deleteOverGRPC = try Self.grpc(server, "/maps.fleetengine.v1.VehicleService/DeleteVehicle",
                                           DeleteVehicleRequest(name: "providers/proj-b/vehicles/car-1").protobufBytes(), token: tokenA)
        #expect(deleteOverGRPC.status == 7, "PERMISSION_DENIED over gRPC: \(deleteOverGRPC.output)")

        let still = try Self.rest(server, "GET", "/v1/providers/proj-b/vehicles/car-1", token: tokenB)
        #expect(still.status == 200, "B's vehicle is still there: \(still.body)")
        let own = try Self.rest(server, "GET", "/v1/providers/proj-a/vehicles?vehicleTypeCategories=AUTO", token: tokenA)
        #expect(own.status == 200, "A's token lists A's own vehicles: \(own.body)")
    }

    @Test func anHS256SecretsTokensActOnTheProviderItIsNamedFor() throws {
        let folder = try Folder()
        let secret1 = try folder.write("p1.secret", "secret-of-provider-one-at-least-thirty-two-bytes\n")
        let secret2 = try folder.write("p2.secret", "secret-of-provider-two-at-least-thirty-two-bytes\n")
        let server = try ServerProcess(arguments: ["--jwt-secret-file", "p1=\(secret1)", "--jwt-secret-file", "p2=\(secret2)",
                                                   "--grpc-listen", "127.0.0.1:0"])
        defer { server.stop() }
        let trip = #"{"tripType":"EXCLUSIVE","pickupPoint":{"point":{"latitude":52.5,"longitude":13.4}}}"#
        for provider in ["p1", "p2"] {
            let serverToken = try Self.mint(["--role", "server", "--secret-file", provider == "p1" ? secret1 : secret2])
            #expect(try Self.rest(server, "POST", "/v1/providers/\(provider)/vehicles?vehicleId=A", token: serverToken, body: Self.vehicleJSON).status == 200)
            #expect(try Self.rest(server, "POST", "/v1/providers/\(provider)/trips?tripId=t1", token: serverToken, body: trip).status == 200)
        }
        let consumer = try Self.mint(["--role", "consumer", "--trip", "t1", "--secret-file", secret1])
        let driver = try Self.mint(["--role", "driver", "--vehicle", "A", "--secret-file", secret1])

        #expect(try Self.rest(server, "GET", "/v1/providers/p1/trips/t1", token: consumer).status == 200)
        let read = try Self.rest(server, "GET", "/v1/providers/p2/trips/t1", token: consumer)
        #expect(read.status == 403, "p1's consumer token may not read p2's trip t1: \(read.body)")
        let update = try Self.rest(server, "PUT", "/v1/providers/p2/vehicles/A?updateMask=vehicleState", token: driver,
                                   body: #"{"vehicleState":"OFFLINE"}"#)
        #expect(update.status == 403, "p1's driver token may not update p2's vehicle A: \(update.body)")
        let own = try Self.rest(server, "PUT", "/v1/providers/p1/vehicles/A?updateMask=vehicleState", token: driver,
                                body: #"{"vehicleState":"OFFLINE"}"#)
        #expect(own.status == 200, "but its own: \(own.body)")
        let watch = try Self.rest(server, "GET", "/v1/providers/p2/trips/t1:watch", token: consumer)
        #expect(watch.status == 403, "nor watch p2's trip: \(watch.body)")

        let overGRPC = try Self.grpc(server, "/maps.fleetengine.v1.TripService/GetTrip",
                                     GetTripRequest(name: "providers/p2/trips/t1").protobufBytes(), token: consumer)
        #expect(overGRPC.status == 7, "PERMISSION_DENIED over gRPC: \(overGRPC.output)")
        let updateOverGRPC = try Self.grpc(server, "/maps.fleetengine.v1.VehicleService/UpdateVehicle",
                                           UpdateVehicleRequest(name: "providers/p2/vehicles/A", vehicle: Vehicle(vehicleState: .offline),
                                                                updateMask: ["vehicle_state"]).protobufBytes(), token: driver)
        #expect(updateOverGRPC.status == 7, "PERMISSION_DENIED over gRPC: \(updateOverGRPC.output)")
    }

    /// A bare secret binds to the one `--provider` served; without one the server cannot tell, and
    /// refuses to start (exit 2), as it does for a name that contradicts the key file's project and
    /// for one secret given for two providers.
    @Test func aKeyWhoseProviderIsAmbiguousIsAUsageError() throws {
        let folder = try Folder()
        let secret = try folder.write("bare.secret", "a-bare-secret-of-at-least-thirty-two-bytes\n")
        let keyA = try Self.serviceAccount("proj-a", in: folder)
        let runner = try BinaryRunner(product: "fleet-admin")
        for (arguments, message) in [
            (["--jwt-secret-file", secret], "say which provider"),
            (["--jwt-key", "proj-b=\(keyA)"], "project_id is 'proj-a'"),
            (["--provider", "p1", "--jwt-secret-file", "p2=\(secret)"], "serves only --provider 'p1'"),
            (["--jwt-secret-file", "p1=\(secret)", "--jwt-secret-file", "p2=\(secret)"], "the same secret is given for provider 'p1'"),
        ] {
            let run = try runner.run(["serve", "--listen", "127.0.0.1:0", "--store", "memory"] + arguments)
            #expect(run.status == 2, "\(arguments): \(run)")
            #expect(run.error.contains(message), "\(arguments): \(run.error)")
        }

        let server = try ServerProcess(arguments: ["--provider", "p1", "--jwt-secret-file", secret])
        defer { server.stop() }
        let token = try Self.mint(["--role", "server", "--secret-file", secret])
        #expect(try Self.rest(server, "GET", "/v1/providers/p1/vehicles?vehicleTypeCategories=AUTO", token: token).status == 200)
    }

    /// The Consumer SDK guide's codes: a JWT signed without a trip ID is 401 UNAUTHENTICATED; a
    /// missing JWT 403 PERMISSION_DENIED; over REST and gRPC.
    @Test func aTokenWithoutATripIDIs401AndNoTokenIs403() throws {
        let folder = try Folder()
        let secretText = "secret-of-provider-one-at-least-thirty-two-bytes"
        let secret = try folder.write("p1.secret", secretText + "\n")
        let server = try ServerProcess(arguments: ["--jwt-secret-file", "p1=\(secret)", "--grpc-listen", "127.0.0.1:0"])
        defer { server.stop() }
        let key = try SigningKey.hs256(secret: Array(secretText.utf8))
        var claims = try TokenMinter(key: key).claims(role: .fleetReader)
        claims.role = Role.consumer.rawValue
        claims.authorization = nil
        let withoutTrip = try key.sign(claims: claims)

        let noTrip = try Self.rest(server, "GET", "/v1/providers/p1/trips/t1", token: withoutTrip)
        #expect(noTrip.status == 401, "\(noTrip.body)")
        #expect(noTrip.body.contains("UNAUTHENTICATED") && noTrip.body.contains("without a trip ID"), "\(noTrip.body)")
        let none = try Self.rest(server, "GET", "/v1/providers/p1/trips/t1", token: nil)
        #expect(none.status == 403, "\(none.body)")
        #expect(none.body.contains("PERMISSION_DENIED"), "\(none.body)")

        let noTripGRPC = try Self.grpc(server, "/maps.fleetengine.v1.TripService/GetTrip",
                                       GetTripRequest(name: "providers/p1/trips/t1").protobufBytes(), token: withoutTrip)
        #expect(noTripGRPC.status == 16, "\(noTripGRPC.output)")
        let noneGRPC = try Self.grpc(server, "/maps.fleetengine.v1.TripService/GetTrip",
                                     GetTripRequest(name: "providers/p1/trips/t1").protobufBytes(), token: nil)
        #expect(noneGRPC.status == 7, "\(noneGRPC.output)")
    }
}
