import FleetStore
import Foundation

/// Spherical geometry for placing test points at known distances.
enum Geodesy {
    /// The Earth's mean radius in meters.
    static let meanRadius = 6_371_008.8

    /// The point `meters` from `start` along the great circle leaving it at `bearing` degrees
    /// (0 north, 90 east), with its longitude brought into [-180, 180].
    static func destination(from start: IndexPoint, bearing: Double, meters: Double) -> IndexPoint {
        let angle = meters / meanRadius
        let theta = bearing * .pi / 180
        let lat1 = start.latitude * .pi / 180
        let lng1 = start.longitude * .pi / 180
        let lat2 = asin(sin(lat1) * cos(angle) + cos(lat1) * sin(angle) * cos(theta))
        let lng2 = lng1 + atan2(sin(theta) * sin(angle) * cos(lat1), cos(angle) - sin(lat1) * sin(lat2))
        var longitude = lng2 * 180 / .pi
        while longitude > 180 { longitude -= 360 }
        while longitude < -180 { longitude += 360 }
        return IndexPoint(latitude: lat2 * 180 / .pi, longitude: longitude)
    }

    /// Haversine distance in meters on the mean sphere.
    static func distance(_ a: IndexPoint, _ b: IndexPoint) -> Double {
        let lat1 = a.latitude * .pi / 180
        let lat2 = b.latitude * .pi / 180
        let dLat = lat2 - lat1
        let dLng = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLng / 2) * sin(dLng / 2)
        return 2 * meanRadius * asin(min(1, sqrt(h)))
    }
}
