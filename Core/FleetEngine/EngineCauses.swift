import FleetErrors
import FleetModel

// TODO(lead): move into FleetErrors/Causes.swift once the catalogue work lands.
extension ErrorCause {
    /// A trip assigned to a vehicle that cannot take it (trip type, seats, other trips).
    public static let vehicleCannotTakeTrip = ErrorCause(
        id: "VEHICLE_CANNOT_TAKE_TRIP", code: .failedPrecondition,
        summary: "The vehicle cannot take this trip",
        remedy: "Pick a vehicle that supports the trip type and has the seats (SearchVehicles finds one), or enable backToBackEnabled on the vehicle for back-to-back trips.")
}

extension Viewport {
    /// Whether a point lies in the rectangle (a viewport whose low longitude exceeds its high one crosses the antimeridian).
    func contains(_ point: LatLng?) -> Bool {
        guard let point, let low, let high else { return false }
        let lat = point.latitude ?? 0, lng = point.longitude ?? 0
        guard lat >= (low.latitude ?? -90), lat <= (high.latitude ?? 90) else { return false }
        let west = low.longitude ?? -180, east = high.longitude ?? 180
        return west <= east ? (lng >= west && lng <= east) : (lng >= west || lng <= east)
    }
}
