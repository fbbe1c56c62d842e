import FleetModel

extension Viewport {
    /// Whether a point lies in the rectangle (a viewport whose low longitude exceeds its high one crosses the antimeridian).
    func contains(_ point: LatLng?) -> Bool {
        guard let point, let low, let high else { return false }
        let lat = point.latitude, lng = point.longitude
        guard lat >= low.latitude, lat <= high.latitude else { return false }
        let west = low.longitude, east = high.longitude
        return west <= east ? (lng >= west && lng <= east) : (lng >= west || lng <= east)
    }
}
