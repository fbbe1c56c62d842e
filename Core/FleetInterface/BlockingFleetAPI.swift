import Dispatch
import FleetModel

/// A `FleetAPI` whose calls block at heart (a client over the network, a journal on disk): it
/// implements the blocking forms, and the completion forms here run them on a Dispatch queue.
///
/// Only this protocol gives `FleetAPI`'s completion forms a default, and only
/// `NonBlockingFleetAPI` gives the blocking forms one: whichever half an implementation leaves out,
/// the compiler says so, instead of the two defaults calling each other forever at run time. A type
/// adopts one of the two, never both.
public protocol BlockingFleetAPI: FleetAPI {}

/// The non-blocking writes of an implementation that only has the blocking ones (a network client):
/// the blocking call runs on a Dispatch queue and `completion` gets its outcome there.
extension BlockingFleetAPI {
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
