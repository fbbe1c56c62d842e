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

    /// The server's UpdateDeliveryVehicle gets its answer as JSON text whose stops are the text the
    /// engine keeps of them, written again only when they change. The answer must be the vehicle as
    /// the waiting form answers it, and the record stored the one the waiting form stores, after
    /// location reports (stops kept) and after a change of the stops (written anew).
    @Test(arguments: stores)
    func aDeliveryVehicleUpdateAnsweredAsJSONAnswersAndStoresWhatTheWaitingFormDoes(store: String) throws {
        defer { removeFiles() }
        let f = try fixture(store)
        let stops = [(48.11, 11.52), (48.12, 11.53), (48.13, 11.55)]
        for van in ["a", "b"] {
            try f.createDeliveryVehicle(van, attributes: [DeliveryVehicleAttribute(key: "shift", value: "night")])
            for i in stops.indices { try f.createTask("\(van)\(i)", Fixture.newTask(tracking: "\(van)-\(i)", at: stops[i])) }
            try f.setStops(van, stops.indices.map { Fixture.stop(stops[$0], ["\(van)\($0)"]) })
        }
        func move(_ id: String, _ lat: Double) -> UpdateDeliveryVehicleRequest {
            UpdateDeliveryVehicleRequest(deliveryVehicle: DeliveryVehicle(name: f.deliveryVehicleName(id), lastLocation: DeliveryVehicleLocation(
                location: Fixture.point(lat, 11.51), speed: 6)), updateMask: FieldMask(["lastLocation"]))
        }
        func stored(_ id: String) throws -> DeliveryVehicleRecord {
            try DeliveryVehicleRecord(try #require(try f.engine.store.get(RecordKey(.deliveryVehicle, provider: f.provider, id: id))))
        }
        /// The stored vehicle with the other van's task IDs and name in place of its own.
        func comparable(_ record: DeliveryVehicleRecord) -> DeliveryVehicle {
            var vehicle = record.vehicle
            vehicle.name = nil
            vehicle.remainingVehicleJourneySegments = vehicle.remainingVehicleJourneySegments.map { segment in
                var segment = segment
                if var stop = segment.stop {
                    stop.tasks = stop.tasks.map { info in
                        var info = info
                        info.taskId = info.taskId.map { String($0.dropFirst()) }
                        return info
                    }
                    segment.stop = stop
                }
                return segment
            }
            return vehicle
        }
        func check(_ json: [UInt8], _ answered: DeliveryVehicle) throws {
            let decoded = try DeliveryVehicle(json: JSON.parse(json), path: "", options: DecodingOptions())
            #expect(decoded == answered)
            #expect(decoded.remainingVehicleJourneySegments.count == answered.remainingVehicleJourneySegments.count)
            #expect(try comparable(stored("a")) == comparable(stored("b")))
            #expect(try stored("a").tracking == stored("b").tracking)
        }
        for (step, lat) in [48.101, 48.102, 48.103].enumerated() {
            let json = try awaitWrite { f.engine.updateDeliveryVehicleJSON(move("a", lat), completion: $0) }
            var answered = try f.engine.updateDeliveryVehicle(move("b", lat))
            answered.name = f.deliveryVehicleName("a")
            answered.remainingVehicleJourneySegments = try f.deliveryVehicle("a").remainingVehicleJourneySegments
            try check(json, answered)
            #expect(try f.deliveryVehicle("a").lastLocation?.location?.latitude == lat, "step \(step)")
            #expect(!answered.remainingVehicleJourneySegments.allSatisfy { $0.path.isEmpty })
        }
        // A change of the stops with the location: the first stop served, the second ARRIVED.
        for van in ["a", "b"] {
            var request = move(van, 48.12)
            request.deliveryVehicle?.remainingVehicleJourneySegments = [Fixture.stop(stops[1], ["\(van)1"], .arrived), Fixture.stop(stops[2], ["\(van)2"])]
            request.updateMask = FieldMask(["lastLocation", "remainingVehicleJourneySegments"])
            if van == "a" {
                let json = try awaitWrite { f.engine.updateDeliveryVehicleJSON(request, completion: $0) }
                let decoded = try DeliveryVehicle(json: JSON.parse(json), path: "", options: DecodingOptions())
                #expect(decoded == (try f.deliveryVehicle("a")))
                #expect(decoded.remainingVehicleJourneySegments.map { $0.stop?.state } == [.arrived, .new])
                #expect(decoded.remainingDistanceMeters == 0)
            } else {
                _ = try f.engine.updateDeliveryVehicle(request)
            }
        }
        #expect(try comparable(stored("a")) == comparable(stored("b")))
        #expect(try f.task("a0").state == .closed)
        // The next report after the change keeps the new stops.
        let json = try awaitWrite { f.engine.updateDeliveryVehicleJSON(move("a", 48.1201), completion: $0) }
        let decoded = try DeliveryVehicle(json: JSON.parse(json), path: "", options: DecodingOptions())
        #expect(decoded == (try f.deliveryVehicle("a")))
        #expect(decoded.remainingVehicleJourneySegments.count == 2)
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
