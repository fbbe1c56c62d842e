import FleetErrors
import FleetModel


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
