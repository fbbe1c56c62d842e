import FleetTestSupport
import Foundation
import Testing

/// Settings a new user gets wrong: each is a usage error (exit 2) naming the option, or an error
/// that says what happened and what to do, never a generic API error.
@Suite(.serialized) struct SettingErrorTests {
    @Test(arguments: [
        (["--store", "foo:bar"], "--store: unknown store 'foo:bar'"),
        (["--transport", "htp://127.0.0.1:8080"], "--transport: unknown transport 'htp://127.0.0.1:8080'"),
        (["--transport", "http://"], "--transport: 'http://' names no host"),
        (["--transport", "file:"], "--transport: transport 'file:' needs more: file:PATH"),
    ])
    func aMalformedConnectionSettingIsAUsageError(arguments: [String], message: String) throws {
        let runner = try BinaryRunner(product: "fleet-admin")
        let result = try runner.run(arguments + ["--provider", "p", "vehicles", "list"])
        #expect(result.status == 2, "\(result)")
        #expect(result.error.unwrapped.contains(message), "\(result)")
        #expect(result.error.contains("See 'fleet-admin vehicles list --help'."), "\(result)")
    }

    @Test func aStoreInAFolderThatDoesNotExistIsRefusedAndNothingIsCreated() throws {
        let fleet = try AdminFleet(.memory)
        let folder = fleet.path("no-such-dir")
        let result = try fleet.runBare(["--store", "sqlite:\(folder)/x.db", "--provider", "p", "vehicles", "list"])
        #expect(result.status == 2, "\(result)")
        #expect(result.error.unwrapped.contains("the folder \(folder) does not exist"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: folder))
        // In a folder that exists the file is created, as before.
        let created = try fleet.runBare(["--store", "sqlite:\(fleet.path("new.db"))", "--provider", "p", "vehicles", "list"])
        #expect(created.status == 0, "\(created)")
        #expect(FileManager.default.fileExists(atPath: fleet.path("new.db")))
    }

    @Test func theDefaultDataFolderIsStillCreated() throws {
        let fleet = try AdminFleet(.memory)
        let data = fleet.path("data/fleet-engine")
        var environment = BinaryRunner.quietEnvironment
        environment["FLEET_DATA_DIR"] = data
        let result = try fleet.runBare(["--provider", "p", "vehicles", "list"], environment: environment)
        #expect(result.status == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: data + "/fleet.db"))
    }

    @Test func tripsCreateNamesTheMissingFlag() throws {
        let fleet = try AdminFleet(.memory)
        let result = try fleet.run(["trips", "create", "ride-2", "--dropoff", "52.50,13.45"])
        #expect(result.status == 2, "\(result)")
        #expect(result.error.unwrapped.contains("--pickup is required"), "\(result)")
        #expect(!result.error.contains("pickupPoint is required"), "\(result)")
    }

    @Test(arguments: [
        (["--listen", "localhost"], "--listen 'localhost' must be HOST:PORT"),
        (["--listen", "127.0.0.1:0", "--jwt-secret-file", "/nope"], "--jwt-secret-file /nope: cannot read the file"),
        (["--listen", "127.0.0.1:0", "--store", "foo:bar"], "--store: unknown store 'foo:bar'"),
    ])
    func aMalformedServeSettingIsAUsageError(arguments: [String], message: String) throws {
        let runner = try BinaryRunner(product: "fleet-admin")
        let result = try runner.run(["serve"] + arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.error.unwrapped.contains(message), "\(result)")
        #expect(result.error.contains("See 'fleet-admin serve --help'."), "\(result)")
    }

    @Test func aPortInUseSaysSoAndWhatToDo() throws {
        let fleet = try AdminFleet(.http)
        let address = try #require(fleet.baseURL).replacingOccurrences(of: "http://", with: "")
        let result = try fleet.runBare(["serve", "--listen", address, "--store", "memory", "--no-map"])
        #expect(result.status == 19, "FAILED_PRECONDITION: needs action, not a retry: \(result)")
        let error = result.error.unwrapped
        #expect(error.contains("already in use by another process"), "\(result)")
        #expect(error.contains("Cause: ADDRESS_IN_USE"), "\(result)")
        #expect(error.contains("port 0 picks a free one"), "\(result)")
        #expect(!error.contains("recovers by itself"), "\(result)")
    }
}
