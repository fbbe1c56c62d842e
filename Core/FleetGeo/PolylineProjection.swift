/// Where a point falls on a polyline: the answer of ``Geodesy/project(_:ontoPolyline:)``.
public struct PolylineProjection: Sendable, Hashable {
    /// Index of the segment from `points[segmentIndex]` to `points[segmentIndex + 1]` holding the nearest point.
    public var segmentIndex: Int
    /// How far along that segment the nearest point lies, 0...1.
    public var fraction: Double
    /// The nearest point of the polyline.
    public var point: GeoPoint
    /// Haversine distance in metres from the projected point to ``point``.
    public var distanceMeters: Double

    /// Creates a projection result.
    public init(segmentIndex: Int, fraction: Double, point: GeoPoint, distanceMeters: Double) {
        self.segmentIndex = segmentIndex
        self.fraction = fraction
        self.point = point
        self.distanceMeters = distanceMeters
    }
}
