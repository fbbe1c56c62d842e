#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One segment in a local equirectangular frame (metres east and north of its first point), precomputed so that
/// projecting a point costs a handful of multiplications and one square root. ``Route`` keeps one per segment.
struct SegmentFrame: Sendable {
    /// Latitude of the segment's first point, degrees.
    let originLatitude: Double
    /// Longitude of the segment's first point, degrees.
    let originLongitude: Double
    /// Metres per degree of longitude at the segment's mean latitude.
    let metersPerDegreeLongitude: Double
    /// The segment's vector in metres, east component.
    let east: Double
    /// The segment's vector in metres, north component.
    let north: Double
    /// 1 / (east² + north²), or 0 for a zero-length segment (which then projects everything onto its start).
    let inverseLengthSquared: Double

    /// Builds the frame of the segment from `a` to `b`.
    init(from a: GeoPoint, to b: GeoPoint) {
        originLatitude = a.latitude
        originLongitude = a.longitude
        let meanLatitude = (a.latitude + b.latitude) / 2
        metersPerDegreeLongitude = Geodesy.metersPerDegree * cos(Angles.radians(meanLatitude))
        east = Angles.wrappedLongitudeDelta(b.longitude - a.longitude) * metersPerDegreeLongitude
        north = (b.latitude - a.latitude) * Geodesy.metersPerDegree
        let lengthSquared = east * east + north * north
        inverseLengthSquared = lengthSquared > 0 ? 1 / lengthSquared : 0
    }

    /// The fraction along the segment of the point nearest to `point`, clamped to 0...1.
    @inline(__always)
    func fraction(ofNearestPointTo point: GeoPoint) -> Double {
        nearest(to: point).fraction
    }

    /// The fraction along the segment of the nearest point and the local-frame distance to it in metres.
    @inline(__always)
    func nearest(to point: GeoPoint) -> (fraction: Double, distance: Double) {
        let y = (point.latitude - originLatitude) * Geodesy.metersPerDegree
        let x = Angles.wrappedLongitudeDelta(point.longitude - originLongitude) * metersPerDegreeLongitude
        var t = (x * east + y * north) * inverseLengthSquared
        t = t < 0 ? 0 : (t > 1 ? 1 : t)
        let dx = x - t * east
        let dy = y - t * north
        return (t, (dx * dx + dy * dy).squareRoot())
    }

    /// True when a travel direction (unit vector east/north) points against the segment by more than 90°.
    @inline(__always)
    func opposes(headingEast: Double, headingNorth: Double) -> Bool {
        headingEast * east + headingNorth * north < 0
    }
}
