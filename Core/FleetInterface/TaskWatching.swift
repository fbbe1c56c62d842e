import FleetConcurrency
import FleetModel

/// A `FleetAPI` that can push a task's or a shipment's changes as they happen, instead of being polled.
///
/// The engine (memory and file transports) wakes watchers when it commits; the HTTP transport
/// reads the server's `:watch` event streams (`GET /v1/providers/{p}/tasks/{t}:watch`,
/// `GET /v1/providers/{p}/taskTrackingInfo/{id}:watch`).
public protocol TaskWatching: FleetAPI {
    /// Blocks, calling `onUpdate` with the task (as `GetTask` with `request` returns it) once at the start
    /// and after every change, until `cancellation` is cancelled or a call fails (which it throws:
    /// NOT_FOUND once the task is deleted).
    func watchTask(_ request: GetTaskRequest, cancellation: Cancellation, onUpdate: (DeliveryTask) throws -> Void) throws

    /// Blocks, calling `onUpdate` with the shipment's tracking info (as `GetTaskTrackingInfo` with
    /// `request` returns it) once at the start and after every change of what it shows (the vehicle
    /// moving, the shipment's tasks changing), until `cancellation` is cancelled or a call fails (which
    /// it throws: NOT_FOUND once no task carries the tracking ID).
    func watchTaskTrackingInfo(_ request: GetTaskTrackingInfoRequest, cancellation: Cancellation,
                               onUpdate: (TaskTrackingInfo) throws -> Void) throws
}
