import FleetModel

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
