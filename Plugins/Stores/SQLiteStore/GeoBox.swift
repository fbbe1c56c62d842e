import FleetStore
import Foundation

/// A latitude/longitude rectangle in degrees that does not cross the antimeridian: what one R*Tree
/// query searches.
struct GeoBox: Equatable, Sendable {
    var south: Double
    var north: Double
    var west: Double
    var east: Double

    /// The Earth's polar radius (WGS84), the smallest a caller could measure with: boxes built with
    /// it are never too small for a caller's own distance.
    static let sphereRadius = 6_356_752.0

    /// Slack added to every edge, far below a millimetre, against rounding in the trigonometry.
    static let slackDegrees = 1e-9

    static let world = GeoBox(south: -90, north: 90, west: -180, east: 180)

    /// One to two boxes that together hold every point within `radiusMeters` of `center` on the sphere.
    ///
    /// A circle that reaches a pole covers every longitude; one that crosses the antimeridian is split
    /// into a box on each side. The boxes hold more than the circle (its corners): callers filter exactly.
    static func covering(center: IndexPoint, radiusMeters: Double) -> [GeoBox] {
        guard radiusMeters >= 0, center.latitude.isFinite, center.longitude.isFinite else { return [] }
        let angle = radiusMeters / sphereRadius
        guard angle < .pi else { return [world] }
        let latitude = min(90, max(-90, center.latitude))
        let longitude = normalizedLongitude(center.longitude)
        let latitudeSpan = angle * 180 / .pi + slackDegrees
        let south = latitude - latitudeSpan
        let north = latitude + latitudeSpan
        if south <= -90 || north >= 90 {
            return [GeoBox(south: max(-90, south), north: min(90, north), west: -180, east: 180)]
        }
        let ratio = sin(angle) / cos(latitude * .pi / 180)
        guard ratio < 1 else {
            return [GeoBox(south: south, north: north, west: -180, east: 180)]
        }
        let longitudeSpan = asin(ratio) * 180 / .pi + slackDegrees
        guard longitudeSpan < 180 else {
            return [GeoBox(south: south, north: north, west: -180, east: 180)]
        }
        let west = longitude - longitudeSpan
        let east = longitude + longitudeSpan
        if west < -180 {
            return [GeoBox(south: south, north: north, west: west + 360, east: 180),
                    GeoBox(south: south, north: north, west: -180, east: east)]
        }
        if east > 180 {
            return [GeoBox(south: south, north: north, west: west, east: 180),
                    GeoBox(south: south, north: north, west: -180, east: east - 360)]
        }
        return [GeoBox(south: south, north: north, west: west, east: east)]
    }

    /// `longitude` brought into [-180, 180].
    /// The side of the grid cells points are filed under in the R*Tree: 1/512 of a degree (about
    /// 217 m of latitude). A power of two, so cell edges are exact in binary floating point.
    static let cellDegrees = 1.0 / 512

    /// The grid cell a point is filed under in the R*Tree: the R*Tree holds a vehicle's cell, not its
    /// exact point, so a vehicle moving within its cell (most location updates) leaves the R*Tree
    /// untouched. Searches find every vehicle whose cell meets the search box and filter by the exact
    /// point kept in the record row.
    static func cell(of point: IndexPoint) -> GeoBox {
        let latitude = min(90, max(-90, point.latitude))
        let longitude = normalizedLongitude(point.longitude)
        let south = (latitude / cellDegrees).rounded(.down) * cellDegrees
        let west = (longitude / cellDegrees).rounded(.down) * cellDegrees
        return GeoBox(south: south, north: south + cellDegrees, west: west, east: west + cellDegrees)
    }

    static func normalizedLongitude(_ longitude: Double) -> Double {
        if (-180...180).contains(longitude) { return longitude }
        let shifted = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (shifted < 0 ? shifted + 360 : shifted) - 180
    }
}
