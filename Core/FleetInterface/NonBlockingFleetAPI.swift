import FleetModel

/// A `FleetAPI` whose writes are non-blocking at heart (the engine: it commits through the store's
/// group commit): it implements the completion forms, and the blocking forms here wait for them.
///
/// A conforming type implements every completion form itself: `FleetAPI` gives them no default
/// (only `BlockingFleetAPI` does), so one left out fails to compile. A type adopts one of the two,
/// never both: their defaults would call each other forever.
public protocol NonBlockingFleetAPI: FleetAPI {}

extension NonBlockingFleetAPI {
    public func createVehicle(_ request: CreateVehicleRequest) throws -> Vehicle {
        try BlockingCall.wait { createVehicle(request, completion: $0) }
    }

    public func updateVehicle(_ request: UpdateVehicleRequest) throws -> Vehicle {
        try BlockingCall.wait { updateVehicle(request, completion: $0) }
    }

    public func updateVehicleAttributes(_ request: UpdateVehicleAttributesRequest) throws -> UpdateVehicleAttributesResponse {
        try BlockingCall.wait { updateVehicleAttributes(request, completion: $0) }
    }

    public func deleteVehicle(_ request: DeleteVehicleRequest) throws {
        try BlockingCall.wait { deleteVehicle(request, completion: $0) }
    }

    public func createTrip(_ request: CreateTripRequest) throws -> Trip {
        try BlockingCall.wait { createTrip(request, completion: $0) }
    }

    public func updateTrip(_ request: UpdateTripRequest) throws -> Trip {
        try BlockingCall.wait { updateTrip(request, completion: $0) }
    }

    public func deleteTrip(_ request: DeleteTripRequest) throws {
        try BlockingCall.wait { deleteTrip(request, completion: $0) }
    }

    public func reportBillableTrip(_ request: ReportBillableTripRequest) throws {
        try BlockingCall.wait { reportBillableTrip(request, completion: $0) }
    }
}
