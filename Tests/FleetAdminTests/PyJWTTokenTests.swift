import FleetTestSupport
import FleetAuth
import FleetModel
import Foundation
import Testing
import OpenSSLJWT

/// Tokens minted by Python's PyJWT (PyPI), the library Google's samples use: `token inspect`
/// verifies them and `fleet-admin serve` accepts them.
@Suite(.serialized) struct PyJWTTokenTests {
    /// The PyJWT this test installs (with its `crypto` extra for RS256).
    static let requirement = "PyJWT[crypto]==2.15.1"

    /// A Python with PyJWT: `FLEET_PYJWT_PYTHON`, else a venv under the package's `.build`, created
    /// (and PyJWT installed from PyPI) on first use.
    static func python() throws -> String {
        if let given = ProcessInfo.processInfo.environment["FLEET_PYJWT_PYTHON"], !given.isEmpty { return given }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let venv = package.appendingPathComponent(".build/pyjwt-venv")
        let python = venv.appendingPathComponent("bin/python").path
        if try run([python, "-c", "import jwt, cryptography; assert jwt.__version__ == '2.15.1'"]).status == 0 { return python }
        let created = try run(["/usr/bin/env", "python3", "-m", "venv", venv.path])
        guard created.status == 0 else { throw BinaryRunner.Failure(description: "python3 -m venv failed: \(created.error)") }
        let installed = try run([venv.appendingPathComponent("bin/pip").path, "install", "--quiet", requirement])
        guard installed.status == 0 else { throw BinaryRunner.Failure(description: "pip install \(requirement) failed: \(installed.error)") }
        return python
    }

    /// Runs a program and collects its output.
    static func run(_ command: [String], input: String? = nil) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let output = Pipe(), error = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        do { try process.run() } catch { return (127, "", "\(error)") }
        if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
        try? standardInput.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// `jwt.encode(claims, key, algorithm, headers)` in PyJWT; `now` is Python's time, so the token is fresh.
    static func pyjwt(claims: String, keyExpression: String, algorithm: String, headers: String = "None") throws -> String {
        let script = """
        import jwt, json, sys, time
        now = int(time.time())
        claims = json.loads(sys.argv[1])
        claims["iat"] = now
        claims["exp"] = now + 600
        print(jwt.encode(claims, \(keyExpression), algorithm="\(algorithm)", headers=\(headers)))
        """
        let result = try run([try python(), "-c", script, claims])
        guard result.status == 0 else { throw BinaryRunner.Failure(description: "PyJWT failed: \(result.error)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func anHS256TokenFromPyJWTIsVerifiedAndAcceptedByServe() throws {
        let fleet = try AdminFleet(.memory)
        let secret = "pyjwt-secret-of-at-least-thirty-two-bytes!"
        let secretFile = try fleet.write("jwt.secret", secret + "\n")
        let claims = #"{"iss":"dispatch","sub":"dispatch","aud":"https://fleetengine.googleapis.com/","authorization":{"vehicleid":"*","tripid":"*"},"fleetrole":"server"}"#
        let token = try Self.pyjwt(claims: claims, keyExpression: "\"\(secret)\"", algorithm: "HS256")

        let inspected = try fleet.runBare(["token", "inspect", token, "--secret-file", secretFile])
        #expect(inspected.status == 0, "\(inspected)")
        #expect(inspected.output.contains("Signature:      verified (HS256); acts as server\n"))

        let server = try AdminFleet(.http, serverArguments: ["--jwt-secret-file", "demo=\(secretFile)"])
        let created = try server.run(["--token", token, "vehicles", "create", "car-1", "--capacity", "4", "--json"])
        #expect(created.status == 0, "serve accepts PyJWT's token: \(created)")
        #expect(try Vehicle(jsonString: created.output).name == "providers/demo/vehicles/car-1")
    }

    @Test func anRS256ServiceAccountTokenFromPyJWTIsAcceptedByServe() throws {
        let fleet = try AdminFleet(.memory)
        let key = try SigningKey.generateRS256(keyID: "fedcba9876543210")
        let pem = try #require(try key.privateKeyPEM())
        var account = JSONObject()
        account["type"] = "service_account"
        account["project_id"] = "demo"
        account["private_key_id"] = "fedcba9876543210"
        account["private_key"] = .string(pem)
        account["client_email"] = "dispatch@demo.iam.gserviceaccount.com"
        let keyFile = try fleet.write("sa.json", JSON.object(account).prettyPrinted())
        let pemFile = try fleet.write("key.pem", pem)
        let claims = #"{"iss":"dispatch@demo.iam.gserviceaccount.com","sub":"dispatch@demo.iam.gserviceaccount.com","aud":"https://fleetengine.googleapis.com/","authorization":{"vehicleid":"car-1"},"fleetrole":"driver"}"#
        let token = try Self.pyjwt(claims: claims, keyExpression: "open(\"\(pemFile)\").read()", algorithm: "RS256",
                                   headers: #"{"kid": "fedcba9876543210"}"#)

        let inspected = try fleet.runBare(["token", "inspect", token, "--key", keyFile])
        #expect(inspected.status == 0, "\(inspected)")
        #expect(inspected.output.contains("Signature:      verified (RS256); acts as driver\n"))

        let server = try AdminFleet(.http, serverArguments: ["--jwt-key", keyFile])
        let serverToken = try server.runBare(["token", "mint", "--role", "server", "--key", keyFile]).output.trimmingCharacters(in: .newlines)
        try #require(try server.run(["--token", serverToken, "vehicles", "create", "car-1", "--capacity", "4"]).status == 0)
        let driverUpdate = try server.run(["--token", token, "vehicles", "update", "car-1", "--location", "52.52,13.40", "--json"])
        #expect(driverUpdate.status == 0, "the driver's PyJWT token updates its own vehicle: \(driverUpdate)")
        let otherVehicle = try server.run(["--token", token, "vehicles", "get", "car-2"])
        #expect(otherVehicle.status == 17, "but no other: \(otherVehicle)")
    }
}
