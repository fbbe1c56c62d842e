import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import Foundation
import MemoryStore
import Synchronization
import Testing

/// The three forms of every write (`FleetAPI`): blocking, with a completion, `async`. The engine
/// writes the completion forms and gets the blocking ones; an implementation with only blocking
/// calls (a network client) gets the completion forms; both get the `async` ones.
@Suite struct APIFormsTests {
    @Test func theAsyncFormsRunTheEnginesWrites() async throws {
        let f = Fixture(store: MemoryStore())
        let api: any FleetAPI = f.engine
        let vehicle = Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 4,
                              vehicleType: VehicleType(category: .auto))
        let created = try await api.createVehicle(CreateVehicleRequest(parent: f.parent, vehicleId: "v1", vehicle: vehicle))
        #expect(created.name == f.vehicleName("v1"))
        let trip = try await api.createTrip(CreateTripRequest(parent: f.parent, tripId: "t1",
                                                              trip: Trip(vehicleId: "v1", tripType: .exclusive,
                                                                         pickupPoint: Fixture.terminal(52.53, 13.41))))
        #expect(trip.tripStatus == .new)
        let moving = try await api.updateTrip(UpdateTripRequest(name: f.tripName("t1"), trip: Trip(tripStatus: .enrouteToPickup),
                                                                updateMask: FieldMask(["tripStatus"])))
        #expect(moving.tripStatus == .enrouteToPickup)
        // Errors arrive as the blocking form throws them: the code, the field.
        do {
            try await api.deleteTrip(DeleteTripRequest(name: f.tripName("t1")))
            Issue.record("deleting an active trip succeeded")
        } catch let error as FleetError {
            #expect(error.code == .failedPrecondition)
        }
        do {
            try await api.reportBillableTrip(ReportBillableTripRequest(name: "providers/\(f.provider)/billableTrips/b1", countryCode: "Germany"))
            Issue.record("a three-letter country code was accepted")
        } catch let error as FleetError {
            #expect(error.code == .invalidArgument)
            #expect(error.field == "countryCode")
        }
        let attributes = try await api.updateVehicleAttributes(UpdateVehicleAttributesRequest(
            name: f.vehicleName("v1"), attributes: [VehicleAttribute(key: "colour", value: "blue")]))
        #expect(attributes.attributes.map(\.key) == ["colour"])
        // What the async forms wrote, the blocking forms read.
        #expect(try f.engine.getTrip(GetTripRequest(name: f.tripName("t1"))).tripStatus == .enrouteToPickup)
    }

    @Test func theEnginesBlockingFormsWaitForItsCompletionForms() throws {
        let f = Fixture(store: MemoryStore())
        try f.createVehicle("v1")
        let moved = try f.engine.updateVehicle(UpdateVehicleRequest(
            name: f.vehicleName("v1"), vehicle: Vehicle(vehicleState: .offline), updateMask: FieldMask(["vehicleState"])))
        #expect(moved.vehicleState == .offline)
        expectFleetError(.invalidArgument, field: "updateMask") {
            _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName("v1"), vehicle: Vehicle(), updateMask: FieldMask([])))
        }
        try f.engine.deleteVehicle(DeleteVehicleRequest(name: f.vehicleName("v1")))
        expectFleetError(.notFound) { _ = try f.engine.getVehicle(GetVehicleRequest(name: f.vehicleName("v1"))) }
    }

    /// ReportBillableTrip stores nothing: the engine answers it on the caller's thread, before returning.
    @Test func theEngineAnswersABillableReportAtOnce() {
        let f = Fixture(store: MemoryStore())
        let answered = Mutex<Result<Void, any Error>?>(nil)
        f.engine.reportBillableTrip(ReportBillableTripRequest(name: "providers/\(f.provider)/billableTrips/b1", countryCode: "DE")) { outcome in
            answered.withLock { $0 = outcome }
        }
        let outcome = answered.withLock { $0 }
        #expect(outcome != nil, "answered before the call returned")
        if case .failure(let error)? = outcome { Issue.record("\(error)") }
    }

    @Test func aBlockingOnlyImplementationGetsCompletionFormsOffTheCallersThread() throws {
        let f = Fixture(store: MemoryStore())
        let api = BlockingOnly(f.engine)
        let request = CreateVehicleRequest(parent: f.parent, vehicleId: "v1",
                                           vehicle: Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 4,
                                                            vehicleType: VehicleType(category: .auto)))
        let caller = pthread_self()
        let created = try BlockingCall.wait { api.createVehicle(request, completion: $0) }
        #expect(created.name == f.vehicleName("v1"))
        let ranOn = try #require(api.createdOn.withLock { $0 })
        #expect(pthread_equal(ranOn, caller) == 0, "the default ran the blocking call on another thread")
        #expect(throws: FleetError.self) { try BlockingCall.wait { api.createVehicle(request, completion: $0) } }
        do {
            _ = try BlockingCall.wait { api.createVehicle(request, completion: $0) }
        } catch let error as FleetError {
            #expect(error.code == .alreadyExists)
        }
    }
}

/// A `BlockingFleetAPI` (through `FleetCallPerforming`): only the blocking calls (as a network client has), over an engine; it notes
/// the thread CreateVehicle ran on.
final class BlockingOnly: FleetCallPerforming {
    let engine: Engine
    let createdOn = Mutex<pthread_t?>(nil)

    init(_ engine: Engine) { self.engine = engine }

    func createVehicle(_ request: CreateVehicleRequest) throws -> Vehicle {
        createdOn.withLock { $0 = pthread_self() }
        return try engine.createVehicle(request)
    }

    // MARK: Every other call, to the engine

    func perform<Response: ProtoMessage>(_ call: FleetCall, returning: Response.Type) throws -> Response {
        try call.respond(from: engine).message(as: Response.self)
    }

    func perform(_ call: FleetCall) throws {
        _ = try call.respond(from: engine)
    }
}
