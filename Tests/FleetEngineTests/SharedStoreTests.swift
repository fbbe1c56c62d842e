@testable import FleetEngine
import FleetModel
import Foundation
import SQLiteStore
import Synchronization
import Testing

/// Two engines over one SQLite file, as two processes sharing it: an engine writes a vehicle from
/// its own latest copy when it has one, and must still never overwrite what the other wrote.
@Suite struct SharedStoreTests {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString).db").path

    func engines() throws -> (Fixture, Engine) {
        let a = Fixture(store: try SQLiteStore(path: path))
        let b = Engine(store: try SQLiteStore(path: path), clock: a.clock)
        return (a, b)
    }

    func setAttribute(_ engine: Engine, _ f: Fixture, _ vehicle: String, _ value: String) throws {
        _ = try engine.updateVehicleAttributes(UpdateVehicleAttributesRequest(
            name: f.vehicleName(vehicle), attributes: [VehicleAttribute(key: "shift", value: value)]))
    }

    /// Both ways of updating: waiting for the store, and the server's way, which does not wait (its
    /// stale first attempt conflicts in the store's writer thread, which redoes it).
    @Test(arguments: [true, false])
    func anUpdateFromAStaleCopyIsRedoneOnTheStoresRecord(waitingForTheStore: Bool) throws {
        defer { removeFiles() }
        let (a, b) = try engines()
        try a.createVehicle("v1")
        try a.move("v1", to: 52.51, 13.41)                 // a now holds v1 at its latest version
        try setAttribute(b, a, "v1", "night")              // b writes behind a's back
        let request = UpdateVehicleRequest(                // a's copy is stale: the store's check catches it
            name: a.vehicleName("v1"), vehicle: Vehicle(lastLocation: VehicleLocation(location: Fixture.point(52.52, 13.42))),
            updateMask: FieldMask(["lastLocation"]))
        let moved = waitingForTheStore ? try a.engine.updateVehicle(request) : try awaitUpdate(a.engine, request)
        #expect(moved.attributes.first?.value == "night")
        let stored = try b.getVehicle(GetVehicleRequest(name: a.vehicleName("v1")))
        #expect(stored.attributes.first?.value == "night")
        #expect(stored.lastLocation?.location?.latitude == 52.52)
    }

    @Test func manyUpdatesThatDoNotWaitOnOneVehicleFromTwoEnginesLoseNothing() throws {
        defer { removeFiles() }
        let (a, b) = try engines()
        try a.createVehicle("v1")
        let each = 10  // one vehicle updated from everywhere at once: each commit wins over the rest in turn
        let finished = DispatchSemaphore(value: 0)
        let failures = Mutex<[String]>([])
        for n in 0..<each {
            for (engine, side) in [(a.engine, "a"), (b, "b")] {
                engine.updateVehicleAttributes(UpdateVehicleAttributesRequest(
                    name: a.vehicleName("v1"), attributes: [VehicleAttribute(key: "\(side)\(n)", value: "x")])) { outcome in
                    if case .failure(let error) = outcome { failures.withLock { $0.append("\(side)\(n): \(error)") } }
                    finished.signal()
                }
            }
        }
        for _ in 0..<(2 * each) { #expect(finished.wait(timeout: .now() + 60) == .success) }
        #expect(failures.withLock { $0 } == [])
        let stored = try a.engine.getVehicle(GetVehicleRequest(name: a.vehicleName("v1")))
        #expect(Set(stored.attributes.compactMap(\.key)) == Set((0..<each).flatMap { ["a\($0)", "b\($0)"] }))
    }

    @Test func anUpdateThatDoesNotWaitReportsBadInputAndMissingVehiclesThroughItsCompletion() throws {
        defer { removeFiles() }
        let (a, _) = try engines()
        expectFleetError(.invalidArgument, field: "name") {
            _ = try awaitUpdate(a.engine, UpdateVehicleRequest(name: "vehicles/v1", vehicle: Vehicle(), updateMask: FieldMask(["lastLocation"])))
        }
        expectFleetError(.notFound) {
            _ = try awaitUpdate(a.engine, UpdateVehicleRequest(
                name: a.vehicleName("nobody"), vehicle: Vehicle(vehicleState: .offline), updateMask: FieldMask(["vehicleState"])))
        }
    }

    /// Runs UpdateVehicle without waiting, then waits for its completion.
    func awaitUpdate(_ engine: Engine, _ request: UpdateVehicleRequest) throws -> Vehicle {
        let outcome = Mutex<Result<Vehicle, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        engine.updateVehicle(request) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + 20) == .success else { throw CancellationError() }
        return try #require(outcome.withLock { $0 }).get()
    }

    @Test func aVehicleDeletedAndCreatedAgainElsewhereIsNeverOverwrittenFromTheOldCopy() throws {
        defer { removeFiles() }
        let (a, b) = try engines()
        try a.createVehicle("v1")
        try setAttribute(a.engine, a, "v1", "old")         // a holds the first v1 at version 2
        _ = try b.deleteVehicle(DeleteVehicleRequest(name: a.vehicleName("v1")))
        let fresh = Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 2,
                            vehicleType: VehicleType(category: .taxi))
        _ = try b.createVehicle(CreateVehicleRequest(parent: a.parent, vehicleId: "v1", vehicle: fresh))
        try setAttribute(b, a, "v1", "new")
        // Counting from 1 again, the new v1 would now be at version 2 too, and a's old copy would match it.
        try a.move("v1", to: 52.53, 13.43)
        let stored = try b.getVehicle(GetVehicleRequest(name: a.vehicleName("v1")))
        #expect(stored.attributes.first?.value == "new")
        #expect(stored.vehicleType?.category == .taxi)
        #expect(stored.lastLocation?.location?.latitude == 52.53)
    }

    @Test func aVehicleDeletedElsewhereIsNotFoundNotResurrected() throws {
        defer { removeFiles() }
        let (a, b) = try engines()
        try a.createVehicle("v1")
        try a.move("v1", to: 52.51, 13.41)
        _ = try b.deleteVehicle(DeleteVehicleRequest(name: a.vehicleName("v1")))
        expectFleetError(.notFound) { try a.move("v1", to: 52.52, 13.42) }
        expectFleetError(.notFound) { _ = try b.getVehicle(GetVehicleRequest(name: a.vehicleName("v1"))) }
    }

    /// Changes by another process do not pass through this one: over a shared file, a watch also looks
    /// again every second and sees them. Over a private store nothing polls.
    @Test func aWatchSeesAChangeMadeByAnotherEngineOnTheFile() throws {
        defer { removeFiles() }
        let (a, b) = try engines()
        try a.createVehicle("v1")
        try a.createTrip("t1", vehicle: "v1")
        let watcher = Deliveries()
        let observation = try watcher.observe(a.engine, a.tripName("t1"))
        defer { observation.cancel() }
        #expect(watcher.wait { $0.snapshots.count == 1 })
        _ = try b.updateTrip(UpdateTripRequest(name: a.tripName("t1"), trip: Trip(tripStatus: .enrouteToPickup),
                                               updateMask: FieldMask(["tripStatus"])))
        #expect(watcher.wait { $0.snapshots.last?.trip.tripStatus == .enrouteToPickup })

        let alone = Fixture()
        try alone.createTrip("t1")
        let quiet = try Deliveries().observe(alone.engine, alone.tripName("t1"))
        defer { quiet.cancel() }
        #expect(!alone.engine.feeds.isPolling)
        #expect(a.engine.feeds.isPolling)
    }

    func removeFiles() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
