import CSQLite
import FleetEngine
import FleetErrors
import FleetKit
import FleetModel
import FleetTestSupport
import Foundation
import Testing

/// A fleet in a SQLite file that driver-report (over the memory transport, `--store sqlite:PATH`) and
/// the test (through its own engine) share, as two processes share one store.
///
/// With `overHTTP`, a real `fleet-admin serve` serves the same SQLite file and driver-report reports
/// to it over HTTP; every check still reads the file, so nothing else changes.
final class SharedFleet: @unchecked Sendable {
    let folder: URL
    let storeURL: String
    let provider = "demo"
    /// The server driver-report reports to, when over HTTP (the last one started).
    private(set) var server: ServerProcess?
    /// Its URL, the same across restarts.
    let serverURL: String?
    private let serverArguments: [String]

    /// A fresh fleet; with `overHTTP`, served by `fleet-admin serve` started with `serverArguments`
    /// (`--jwt-secret-file`) besides its store.
    init(overHTTP: Bool = false, serverArguments: [String] = []) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("driver-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        storeURL = "sqlite:" + folder.appendingPathComponent("fleet.db").path
        server = overHTTP ? try ServerProcess(store: storeURL, arguments: serverArguments) : nil
        serverURL = server?.url
        self.serverArguments = serverArguments
    }

    /// Stops the server: SIGKILL when `abruptly` (it dies without cleaning up), else SIGTERM.
    func stopServer(abruptly: Bool) {
        if abruptly { server?.kill() } else { server?.stop() }
    }

    /// Starts the server again, on the same port and store.
    func restartServer() throws {
        guard let serverURL else { return }
        server = try ServerProcess(store: storeURL, arguments: serverArguments, listen: serverURL.replacingOccurrences(of: "http://", with: ""))
    }

    deinit {
        server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The arguments that point driver-report at this fleet.
    var transportArguments: [String] {
        if let serverURL { return ["--transport", serverURL, "--provider", provider] }
        return ["--transport", "memory", "--store", storeURL, "--provider", provider]
    }

    /// Runs `body` with an engine over the shared store, then closes the store.
    func withEngine<T>(_ body: (Engine) throws -> T) throws -> T {
        let store = try Wiring.openStore(storeURL)
        defer { try? store.close() }
        return try body(Engine(store: store))
    }

    /// Creates an OFFLINE car.
    func createVehicle(_ id: String) throws {
        _ = try withEngine { engine in
            try engine.createVehicle(CreateVehicleRequest(
                parent: "providers/\(provider)", vehicleId: id,
                vehicle: Vehicle(vehicleState: .offline, supportedTripTypes: [.exclusive], maximumCapacity: 4,
                                 vehicleType: VehicleType(category: .auto))))
        }
    }

    /// The vehicle as the store has it now.
    func vehicle(_ id: String) throws -> Vehicle {
        try withEngine { try $0.getVehicle(GetVehicleRequest(name: "providers/\(provider)/vehicles/\(id)")) }
    }

    /// Holds SQLite's write lock from another connection (as a stuck writer would) until `release()`:
    /// every write of driver-report then fails UNAVAILABLE (`storeBusy`) after the busy timeout.
    final class WriteLock {
        private var handle: OpaquePointer?

        init(path: String) throws {
            try #require(sqlite3_open(path, &handle) == SQLITE_OK)
            try #require(sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK, "could not take the write lock")
        }

        func release() {
            guard let handle else { return }
            sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            sqlite3_close(handle)
            self.handle = nil
        }

        deinit { release() }
    }

    /// Takes the store's write lock.
    func lockWrites() throws -> WriteLock {
        try WriteLock(path: String(storeURL.dropFirst("sqlite:".count)))
    }
}
