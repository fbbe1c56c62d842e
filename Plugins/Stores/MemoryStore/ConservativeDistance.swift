import FleetStore
import Foundation

/// A great-circle distance that never overestimates: measured on a sphere of the Earth's polar radius
/// (the smallest one a caller could use), so filtering by it keeps every point a caller's own
/// distance puts within the radius.
enum ConservativeDistance {
    /// The Earth's polar radius in meters (WGS84).
    static let sphereRadius = 6_356_752.0

    /// Haversine distance in meters between two points in degrees.
    static func meters(_ a: IndexPoint, _ b: IndexPoint) -> Double {
        let lat1 = a.latitude * .pi / 180
        let lat2 = b.latitude * .pi / 180
        let dLat = lat2 - lat1
        let dLng = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLng / 2) * sin(dLng / 2)
        return 2 * sphereRadius * asin(min(1, sqrt(h)))
    }
}
