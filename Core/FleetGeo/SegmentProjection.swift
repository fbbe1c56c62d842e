/// Where a point falls on one segment: the answer of ``Geodesy/project(_:ontoSegment:_:)``.
public struct SegmentProjection: Sendable, Hashable {
    /// How far along the segment the nearest point lies: 0 at its start, 1 at its end.
    public var fraction: Double
    /// The nearest point of the segment.
    public var point: GeoPoint
    /// Haversine distance in metres from the projected point to ``point``.
    public var distanceMeters: Double

    /// Creates a projection result.
    public init(fraction: Double, point: GeoPoint, distanceMeters: Double) {
        self.fraction = fraction
        self.point = point
        self.distanceMeters = distanceMeters
    }
}
