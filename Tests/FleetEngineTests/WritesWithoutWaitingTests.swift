@testable import FleetEngine
import FleetErrors
import FleetModel
import FleetStore
import Foundation
import MemoryStore
import SQLiteStore
import Synchronization
import Testing

/// Every call that writes has a form that does not wait for the store (the server answers all
/// writes this way): it must do exactly what the waiting form does, and report errors, bad input
/// included, through its completion. Run over memory and over SQLite, whose commits complete on the
/// store's writer thread.
@Suite struct WritesWithoutWaitingTests {
    static let stores = ["memory", "sqlite"]

    let path = FileManager.default.temporaryDirectory.appendingPathComponent("nowait-\(UUID().uuidString).db").path

    func fixture(_ store: String) throws -> Fixture {
        store == "sqlite" ? Fixture(store: try SQLiteStore(path: path)) : Fixture(store: MemoryStore())
    }

    func removeFiles() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test(arguments: stores)
    func createAndDeleteAVehicle(store: String) throws {
        defer { removeFiles() }
        let f = try fixture(store)
        let vehicle = Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 4,
                              vehicleType: VehicleType(category: .auto))
        let request = CreateVehicleRequest(parent: f.parent, vehicleId: "v1", vehicle: vehicle)
        let created = try awaitWrite { f.engine.createVehicle(request, completion: $0) }
        #expect(created.name == f.vehicleName("v1"))
        // A duplicate conflicts in the store and is then found there: ALREADY_EXISTS, as when waiting.
        expectFleetError(.alreadyExists, field: "vehicleId") {
            _ = try awaitWrite { f.engine.createVehicle(request, completion: $0) }
        }
        expectFleetError(.alreadyExists, field: "vehicleId") { _ = try f.engine.createVehicle(request) }
        expectFleetError(.invalidArgument, field: "vehicle.maximumCapacity") {
            var bad = request
            bad.vehicleId = "v2"
            bad.vehicle?.maximumCapacity = 0
            _ = try awaitWrite { f.engine.createVehicle(bad, completion: $0) }
        }
        try awaitWrite { f.engine.deleteVehicle(DeleteVehicleRequest(name: f.vehicleName("v1")), completion: $0) }
        expectFleetError(.notFound) { _ = try f.vehicle("v1") }
        // Created again after the delete, it is back.
        _ = try awaitWrite { f.engine.createVehicle(request, completion: $0) }
        #expect(try f.vehicle("v1").name == f.vehicleName("v1"))
    }

    @Test(arguments: stores)
    func createUpdateAndDeleteATrip(store: String) throws {
        defer { removeFiles() }
        let f = try fixture(store)
        try f.createVehicle("v1")
        var trip = Trip(tripType: .exclusive, pickupPoint: Fixture.terminal(52.53, 13.41))
        trip.dropoffPoint = Fixture.terminal(52.50, 13.45)
        trip.vehicleId = "v1"
        let created = try awaitWrite { f.engine.createTrip(CreateTripRequest(parent: f.parent, tripId: "t1", trip: trip), completion: $0) }
        #expect(created.tripStatus == .new)
        #expect(try f.vehicle("v1").currentTrips == ["t1"])
        expectFleetError(.alreadyExists, field: "tripId") {
            _ = try awaitWrite { f.engine.createTrip(CreateTripRequest(parent: f.parent, tripId: "t1", trip: trip), completion: $0) }
        }

        func setStatus(_ status: TripStatus) throws -> Trip {
            try awaitWrite {
                f.engine.updateTrip(UpdateTripRequest(name: f.tripName("t1"), trip: Trip(tripStatus: status),
                                                      updateMask: FieldMask(["tripStatus"])), completion: $0)
            }
        }
        #expect(try setStatus(.enrouteToPickup).tripStatus == .enrouteToPickup)
        expectFleetError(.failedPrecondition) { _ = try setStatus(.new) }
        expectFleetError(.invalidArgument, field: "updateMask") {
            _ = try awaitWrite { f.engine.updateTrip(UpdateTripRequest(name: f.tripName("t1"), trip: Trip()), completion: $0) }
        }
        // An active trip on its vehicle can be deleted neither on its own nor with the vehicle.
        expectFleetError(.failedPrecondition) {
            try awaitWrite { f.engine.deleteTrip(DeleteTripRequest(name: f.tripName("t1")), completion: $0) }
        }
        expectFleetError(.failedPrecondition) {
            try awaitWrite { f.engine.deleteVehicle(DeleteVehicleRequest(name: f.vehicleName("v1")), completion: $0) }
        }
        _ = try setStatus(.canceled)
        #expect(try f.vehicle("v1").currentTrips == [])
        try awaitWrite { f.engine.deleteTrip(DeleteTripRequest(name: f.tripName("t1")), completion: $0) }
        expectFleetError(.notFound) { _ = try f.trip("t1") }
    }

    /// The server's UpdateVehicle gets its answer as JSON text written once, which the stored record
    /// reuses when the vehicle answered is the vehicle stored. Either way the answer must be the
    /// vehicle's JSON as GetVehicle gives it, and the record stored must be the one the waiting form
    /// stores: also when they differ (an attribute is answered with both of its value fields).
    @Test(arguments: stores, [[], [VehicleAttribute(key: "shift", value: "night")]])
    func anUpdateAnsweredAsJSONAnswersAndStoresWhatTheWaitingFormDoes(store: String, attributes: [VehicleAttribute]) throws {
        defer { removeFiles() }
        let f = try fixture(store)
        try f.createVehicle("a", attributes: attributes)
        try f.createVehicle("b", attributes: attributes)
        func move(_ id: String) -> UpdateVehicleRequest {
            UpdateVehicleRequest(name: f.vehicleName(id), vehicle: Vehicle(lastLocation: VehicleLocation(location: Fixture.point(52.53, 13.42))),
                                 updateMask: FieldMask(["lastLocation"]))
        }
        let json = try awaitWrite { f.engine.updateVehicleJSON(move("a"), completion: $0) }
        _ = try f.engine.updateVehicle(move("b"))
        let answered = try f.vehicle("a")
        #expect(json == answered.jsonBytes())
        #expect(try Vehicle(json: JSON.parse(json), path: "", options: DecodingOptions()) == answered)
        func stored(_ id: String) throws -> Vehicle {
            let record = try #require(try f.engine.store.get(RecordKey(.vehicle, provider: f.provider, id: id)))
            var vehicle = try VehicleRecord(record).vehicle
            vehicle.name = nil
            return vehicle
        }
        #expect(try stored("a") == stored("b"))
        #expect(try stored("a").lastLocation?.location?.latitude == 52.53)
        // The answer is the stored vehicle exactly when nothing is left out or added for responses.
        #expect((try stored("a").attributes == answered.attributes) == attributes.isEmpty)
    }

    /// Starts a write that does not wait and waits for its completion.
    func awaitWrite<R: Sendable>(_ start: (@escaping @Sendable (Result<R, any Error>) -> Void) -> Void) throws -> R {
        let outcome = Mutex<Result<R, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        start { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + 20) == .success else { throw CancellationError() }
        return try #require(outcome.withLock { $0 }).get()
    }
}
