import Dispatch
import FleetModel

/// The non-blocking writes of an implementation that only has the blocking ones (a network client):
/// the blocking call runs on a Dispatch queue and `completion` gets its outcome there.
extension FleetAPI {
    public func createVehicle(_ request: CreateVehicleRequest, completion: @escaping @Sendable (Result<Vehicle, any Error>) -> Void) {
        BlockingCall.inBackground(completion) { try createVehicle(request) }
    }

    public func updateVehicle(_ request: UpdateVehicleRequest, completion: @escaping @Sendable (Result<Vehicle, any Error>) -> Void) {
        BlockingCall.inBackground(completion) { try updateVehicle(request) }
    }

    public func updateVehicleAttributes(_ request: UpdateVehicleAttributesRequest,
                                        completion: @escaping @Sendable (Result<UpdateVehicleAttributesResponse, any Error>) -> Void) {
        BlockingCall.inBackground(completion) { try updateVehicleAttributes(request) }
    }

    public func deleteVehicle(_ request: DeleteVehicleRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        BlockingCall.inBackground(completion) { try deleteVehicle(request) }
    }

    public func createTrip(_ request: CreateTripRequest, completion: @escaping @Sendable (Result<Trip, any Error>) -> Void) {
        BlockingCall.inBackground(completion) { try createTrip(request) }
    }

    public func updateTrip(_ request: UpdateTripRequest, completion: @escaping @Sendable (Result<Trip, any Error>) -> Void) {
        BlockingCall.inBackground(completion) { try updateTrip(request) }
    }

    public func deleteTrip(_ request: DeleteTripRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        BlockingCall.inBackground(completion) { try deleteTrip(request) }
    }

    public func reportBillableTrip(_ request: ReportBillableTripRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        BlockingCall.inBackground(completion) { try reportBillableTrip(request) }
    }
}

/// The writes for Swift concurrency, over the non-blocking forms: no thread waits while a write commits.
extension FleetAPI {
    public func createVehicle(_ request: CreateVehicleRequest) async throws -> Vehicle {
        try await BlockingCall.resuming { createVehicle(request, completion: $0) }
    }

    public func updateVehicle(_ request: UpdateVehicleRequest) async throws -> Vehicle {
        try await BlockingCall.resuming { updateVehicle(request, completion: $0) }
    }

    public func updateVehicleAttributes(_ request: UpdateVehicleAttributesRequest) async throws -> UpdateVehicleAttributesResponse {
        try await BlockingCall.resuming { updateVehicleAttributes(request, completion: $0) }
    }

    public func deleteVehicle(_ request: DeleteVehicleRequest) async throws {
        try await BlockingCall.resuming { deleteVehicle(request, completion: $0) }
    }

    public func createTrip(_ request: CreateTripRequest) async throws -> Trip {
        try await BlockingCall.resuming { createTrip(request, completion: $0) }
    }

    public func updateTrip(_ request: UpdateTripRequest) async throws -> Trip {
        try await BlockingCall.resuming { updateTrip(request, completion: $0) }
    }

    public func deleteTrip(_ request: DeleteTripRequest) async throws {
        try await BlockingCall.resuming { deleteTrip(request, completion: $0) }
    }

    public func reportBillableTrip(_ request: ReportBillableTripRequest) async throws {
        try await BlockingCall.resuming { reportBillableTrip(request, completion: $0) }
    }
}
