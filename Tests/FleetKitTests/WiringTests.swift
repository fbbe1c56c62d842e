import FleetCLI
import FleetErrors
import FleetKit
import FleetModel
import Foundation
import Testing

/// `Wiring.transports`: the transports this build registers, and the clear error for any other URL.
@Suite struct WiringTests {
    func parsedConnection(_ arguments: [String], environment: [String: String] = [:]) throws -> ConnectionGroup {
        let tool = Command("tool", abstract: "A tool.", options: ConnectionGroup.options) { _, _ in 0 }
        guard case .run(_, let parsed) = try CommandLineParser(tool).parse(arguments, environment: environment) else {
            throw UsageError("not a run", commandPath: [])
        }
        return try parsed.group(ConnectionGroup.self)
    }

    @Test func connectionDefaultsToTheRegistrysTransportAndTheEmbeddedStore() throws {
        let connection = try parsedConnection([])
        #expect(connection == ConnectionGroup(transport: "memory", store: nil))
        #expect(connection.runsEngineInProcess)
        let remote = try parsedConnection(["--transport", "http://127.0.0.1:1"], environment: ["FLEET_STORE": "memory"])
        #expect(remote == ConnectionGroup(transport: "http://127.0.0.1:1", store: "memory"))
        #expect(!remote.runsEngineInProcess)
    }

    @Test func theHelpListsTheRegisteredSchemes() {
        let transport = ConnectionGroup.options[0], store = ConnectionGroup.options[1]
        for scheme in Wiring.transports.schemes { #expect(transport.help.contains(scheme.pattern)) }
        #expect(store.help.contains(Wiring.stores.usage))
        #expect(transport.defaultValue == Wiring.transports.defaultURL)
    }

    @Test func theBuildRegistersFourTransports() {
        #expect(Wiring.transports.schemes.map(\.name) == ["memory", "file", "http", "https"])
        #expect(Wiring.transportUsage == "memory, file:PATH, http://HOST:PORT, https://HOST")
    }

    @Test func aMisspelledTransportListsTheSchemes() {
        for url in ["htp://localhost:8080", "memroy", "file:", "http:"] {
            do {
                _ = try Wiring.connect(transport: url)
                Issue.record("\(url) connected")
            } catch let error as FleetError {
                #expect(error.code == .invalidArgument, "\(url)")
                #expect(error.field == "transport", "\(url)")
                #expect(error.message.hasSuffix("use one of: memory, file:PATH, http://HOST:PORT, https://HOST"), "\(error.message)")
            } catch {
                Issue.record("\(url): \(error)")
            }
        }
    }

    /// The empty URL is `memory`; a store whose folder does not exist is refused (a typo must not
    /// start a new, empty fleet), checked by the store's own scheme (the wiring knows no store's details).
    @Test func theEmptyURLIsAnEngineHereOverTheStoreGiven() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wiring-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: FleetError.self) {
            try Wiring.connect(transport: "", options: ConnectionOptions(store: "sqlite:\(folder.path)/a/b/fleet.db"))
        }
        try FileManager.default.createDirectory(atPath: "\(folder.path)/a/b", withIntermediateDirectories: true)
        let connection = try Wiring.connect(transport: "", options: ConnectionOptions(store: "sqlite:\(folder.path)/a/b/fleet.db"))
        defer { try? connection.close() }
        #expect(connection.watcher != nil)
        _ = try connection.api.createVehicle(CreateVehicleRequest(
            parent: "providers/p", vehicleId: "v1",
            vehicle: Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 4, vehicleType: VehicleType(category: .auto))))
        #expect(FileManager.default.fileExists(atPath: "\(folder.path)/a/b/fleet.db"))
    }
}
