import FleetConcurrency
import FleetModel

/// A `FleetAPI` that can push a trip's changes as they happen, instead of being polled.
///
/// The engine (memory and file transports) wakes watchers when it commits; the HTTP transport
/// reads the server's `:watch` event stream.
public protocol TripWatching: FleetAPI {
    /// Blocks, calling `onUpdate` with the trip (as `GetTrip` with `request` returns it) once at the start
    /// and after every change, until `cancellation` is cancelled or a call fails (which it throws).
    func watchTrip(_ request: GetTripRequest, cancellation: Cancellation, onUpdate: (Trip) throws -> Void) throws
}
