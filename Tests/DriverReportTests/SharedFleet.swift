import CSQLite
import FleetEngine
import FleetErrors
import FleetKit
import FleetModel
import Foundation
import Testing

/// A fleet in a SQLite file that driver-report (over the memory transport, `--store sqlite:PATH`) and
/// the test (through its own engine) share, as two processes share one store.
///
/// To run these tests over HTTP instead, start `fleet-admin serve --store sqlite:PATH --listen
/// 127.0.0.1:0` in `init` and make `transportArguments` `["--transport", "http://…"]`: every check
/// reads the same SQLite file, so nothing else changes.
final class SharedFleet: @unchecked Sendable {
    let folder: URL
    let storeURL: String
    let provider = "demo"

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("driver-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        storeURL = "sqlite:" + folder.appendingPathComponent("fleet.db").path
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The arguments that point driver-report at this fleet.
    var transportArguments: [String] { ["--transport", "memory", "--store", storeURL, "--provider", provider] }

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
