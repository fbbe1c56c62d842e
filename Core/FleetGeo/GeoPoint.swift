/// A position on the Earth in degrees (WGS 84), the value every FleetGeo API takes and returns.
///
/// Latitude is in [-90, 90] and longitude in [-180, 180]; FleetGeo does not clamp or reject other values,
/// so convert and validate at the edge (the engine's `LatLng`).
public struct GeoPoint: Sendable, Hashable {
    /// Degrees north of the equator, -90...90.
    public var latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public var longitude: Double

    /// Creates a point from degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension GeoPoint: CustomStringConvertible {
    /// "(latitude, longitude)", for test failures and logs.
    public var description: String { "(\(latitude), \(longitude))" }
}
