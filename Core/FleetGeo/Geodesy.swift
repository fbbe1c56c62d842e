#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Distances, bearings and projections on a spherical Earth.
///
/// Distances use the haversine formula on a sphere of the mean Earth radius (IUGG R1 = 6,371,008.8 m); against
/// the WGS 84 ellipsoid that is within about 0.5 % everywhere, far below GPS and routing errors.
///
/// Projections onto segments use a local equirectangular frame centred on the segment's first point, scaled by the
/// cosine of the segment's mean latitude. For segments and offsets up to 10 km at latitudes within ±70°, the snapped
/// point is within 0.5 % of the segment's length of the exact spherical answer (checked in the tests); the reported
/// distance to the snapped point is then measured with haversine. Longitude differences are wrapped into
/// [-180, 180), so segments across the antimeridian project correctly. Segments passing within a degree of a pole are
/// not supported.
public enum Geodesy {
    /// The mean Earth radius in metres (IUGG R1).
    public static let earthRadiusMeters = 6_371_008.8

    /// Metres in one degree of latitude (and of longitude at the equator) on the mean sphere.
    static let metersPerDegree = earthRadiusMeters * Angles.radiansPerDegree

    /// The great-circle (haversine) distance between two points, in metres.
    public static func distance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let phi1 = Angles.radians(a.latitude)
        let phi2 = Angles.radians(b.latitude)
        let dPhi = phi2 - phi1
        let dLambda = Angles.radians(Angles.wrappedLongitudeDelta(b.longitude - a.longitude))
        let sinHalfPhi = sin(dPhi / 2)
        let sinHalfLambda = sin(dLambda / 2)
        let h = sinHalfPhi * sinHalfPhi + cos(phi1) * cos(phi2) * sinHalfLambda * sinHalfLambda
        return 2 * earthRadiusMeters * asin(min(1, h.squareRoot()))
    }

    /// The initial bearing (forward azimuth) of the great circle from `a` to `b`, in degrees clockwise from true
    /// north in [0, 360). Returns 0 when the points coincide.
    public static func initialBearing(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let phi1 = Angles.radians(a.latitude)
        let phi2 = Angles.radians(b.latitude)
        let dLambda = Angles.radians(Angles.wrappedLongitudeDelta(b.longitude - a.longitude))
        let y = sin(dLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda)
        if x == 0 && y == 0 { return 0 }
        return Angles.normalizedBearing(Angles.degrees(atan2(y, x)))
    }

    /// The point reached by travelling `meters` along the great circle that leaves `start` at `bearing` degrees.
    /// Use it to build test routes and simulated drives.
    public static func destination(from start: GeoPoint, bearing: Double, meters: Double) -> GeoPoint {
        let delta = meters / earthRadiusMeters
        let theta = Angles.radians(bearing)
        let phi1 = Angles.radians(start.latitude)
        let lambda1 = Angles.radians(start.longitude)
        let sinPhi2 = sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta)
        let phi2 = asin(max(-1, min(1, sinPhi2)))
        let lambda2 = lambda1 + atan2(sin(theta) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sinPhi2)
        return GeoPoint(latitude: Angles.degrees(phi2),
                        longitude: Angles.normalizedLongitude(Angles.degrees(lambda2)))
    }

    /// The point at `fraction` (0...1) of the way from `a` to `b`, interpolated in degrees with the longitude
    /// difference wrapped across the antimeridian (exact enough for route segments of a few kilometres); exactly
    /// `a` at 0 and `b` at 1.
    public static func interpolate(_ a: GeoPoint, _ b: GeoPoint, fraction: Double) -> GeoPoint {
        if fraction <= 0 { return a }
        if fraction >= 1 { return b }
        let dLon = Angles.wrappedLongitudeDelta(b.longitude - a.longitude)
        var longitude = a.longitude + dLon * fraction
        if longitude >= 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return GeoPoint(latitude: a.latitude + (b.latitude - a.latitude) * fraction, longitude: longitude)
    }

    /// Projects `point` onto the segment from `a` to `b`: the nearest point of the segment, how far along it lies
    /// (0 at `a`, 1 at `b`) and the haversine distance from `point` to it. See the type's notes for the error bound.
    public static func project(_ point: GeoPoint, ontoSegment a: GeoPoint, _ b: GeoPoint) -> SegmentProjection {
        let frame = SegmentFrame(from: a, to: b)
        let fraction = frame.fraction(ofNearestPointTo: point)
        let snapped = interpolate(a, b, fraction: fraction)
        return SegmentProjection(fraction: fraction, point: snapped, distanceMeters: distance(point, snapped))
    }

    /// Projects `point` onto a polyline by checking every segment (O(n)); the nearest segment wins, the earliest
    /// on ties. Returns nil for an empty polyline. For repeated projections onto one route use ``RouteProgress``.
    public static func project(_ point: GeoPoint, ontoPolyline points: [GeoPoint]) -> PolylineProjection? {
        guard let first = points.first else { return nil }
        if points.count == 1 {
            return PolylineProjection(segmentIndex: 0, fraction: 0, point: first,
                                      distanceMeters: distance(point, first))
        }
        var bestIndex = 0
        var bestFraction = 0.0
        var bestDistance = Double.infinity
        for index in 0..<(points.count - 1) {
            let frame = SegmentFrame(from: points[index], to: points[index + 1])
            let (fraction, localDistance) = frame.nearest(to: point)
            if localDistance < bestDistance {
                bestDistance = localDistance
                bestIndex = index
                bestFraction = fraction
            }
        }
        let snapped = interpolate(points[bestIndex], points[bestIndex + 1], fraction: bestFraction)
        return PolylineProjection(segmentIndex: bestIndex, fraction: bestFraction, point: snapped,
                                  distanceMeters: distance(point, snapped))
    }
}
