import FleetErrors
import FleetModel

/// Watches a trip without holding a thread: what a server's `GET /v1/{name}:watch` stream needs.
public protocol TripObserving: Sendable {
    /// Starts watching a trip: `onUpdate` gets the trip (as `GetTrip` with `request` returns it) once
    /// soon after the call and then after every change, in order, until it returns false or the
    /// observation is cancelled. If the trip can no longer be read `onEnd` gets the error and the
    /// deliveries stop.
    /// - Throws: what `GetTrip` would (a bad name, NOT_FOUND), before anything is delivered.
    func observeTrip(_ request: GetTripRequest,
                     onUpdate: @escaping @Sendable (TripSnapshot) -> Bool,
                     onEnd: @escaping @Sendable (FleetError) -> Void) throws -> TripObservation
}

/// Watches a task or a shipment without holding a thread: what a server's `GET /v1/{name}:watch` streams
/// of tasks and tracking IDs need.
public protocol TaskObserving: Sendable {
    /// Starts watching a task: `onUpdate` gets the task (as `GetTask` with `request` returns it) once
    /// soon after the call and then after every change of it (its vehicle moving along the stops up to
    /// the task's included), in order, until it returns false or the observation is cancelled. If the
    /// task can no longer be read (deleted) `onEnd` gets the error and the deliveries stop.
    /// - Throws: what `GetTask` would (a bad name, NOT_FOUND), before anything is delivered.
    func observeTask(_ request: GetTaskRequest,
                     onUpdate: @escaping @Sendable (TaskSnapshot) -> Bool,
                     onEnd: @escaping @Sendable (FleetError) -> Void) throws -> TaskObservation

    /// Starts watching a shipment by its tracking ID: `onUpdate` gets its tracking info (as
    /// `GetTaskTrackingInfo` with `request` returns it) once soon after the call and then after every
    /// change of what it shows (the vehicle moving, the shipment's tasks changing), in order, until it
    /// returns false or the observation is cancelled. If no task carries the tracking ID any more
    /// `onEnd` gets NOT_FOUND and the deliveries stop.
    /// - Throws: what `GetTaskTrackingInfo` would (a bad name, NOT_FOUND), before anything is delivered.
    func observeTaskTrackingInfo(_ request: GetTaskTrackingInfoRequest,
                                 onUpdate: @escaping @Sendable (TaskTrackingInfoSnapshot) -> Bool,
                                 onEnd: @escaping @Sendable (FleetError) -> Void) throws -> TaskTrackingInfoObservation
}

/// Watches a provider's whole fleet without holding a thread: what the operator's map
/// (`GET /v1/providers/{p}/vehicles:watch`) needs.
public protocol VehicleObserving: Sendable {
    /// Starts watching every vehicle of `provider`: `onUpdate` gets all of them at once (`isInitial`
    /// true, possibly empty), then each vehicle that changed or was deleted, in order, until it
    /// returns false or the observation is cancelled.
    /// - Throws: INVALID_ARGUMENT for a malformed provider.
    func observeVehicles(provider: String,
                         onUpdate: @escaping @Sendable (_ changes: [VehicleChange], _ isInitial: Bool) -> Bool) throws -> VehicleObservation
}

/// UpdateVehicle and UpdateDeliveryVehicle answered as JSON text (enums by name), for a server: an
/// implementation that stores the vehicle's JSON can hand back the same bytes, or bytes it keeps,
/// instead of encoding the vehicle again.
public protocol VehicleJSONUpdating: Sendable {
    /// As `FleetAPI.updateVehicle(_:completion:)`, with the response as its proto3 JSON text.
    func updateVehicleJSON(_ request: UpdateVehicleRequest, completion: @escaping @Sendable (Result<[UInt8], any Error>) -> Void)
    /// As `FleetAPI.updateDeliveryVehicle(_:completion:)`, with the response as its proto3 JSON text.
    func updateDeliveryVehicleJSON(_ request: UpdateDeliveryVehicleRequest,
                                   completion: @escaping @Sendable (Result<[UInt8], any Error>) -> Void)
}

/// GetTaskTrackingInfo answered encoded, for a server: an implementation that keeps the text of a
/// delivery vehicle's legs, or a whole answer while its records are unchanged, can answer with it
/// instead of encoding every point again.
public protocol TaskTrackingAnswering: Sendable {
    /// As `FleetAPI.getTaskTrackingInfo(_:)`, with the response as its proto3 JSON text written as `options` say.
    func getTaskTrackingInfoJSON(_ request: GetTaskTrackingInfoRequest, options: EncodingOptions) throws -> [UInt8]
    /// As `FleetAPI.getTaskTrackingInfo(_:)`, with the response as binary protobuf.
    func getTaskTrackingInfoProtobuf(_ request: GetTaskTrackingInfoRequest) throws -> [UInt8]
}

/// Everything a Fleet Engine server serves: the calls, their watches and the fast paths of location
/// updates and shipment tracking. The engine is one; a server needs nothing else of it.
public typealias FleetServing = FleetAPI & TripObserving & TaskObserving & VehicleObserving & VehicleJSONUpdating & TaskTrackingAnswering
