#if canImport(Glibc)
import Glibc
#endif
import FleetStore

/// A uniform latitude/longitude grid of vehicle points per provider, for `nearby`.
///
/// A query turns the radius into a bounding box (wider than the circle, never narrower), visits the
/// cells the box covers, and keeps the points inside the box; the caller filters exactly by distance.
/// When the box covers more cells than the provider has points, scanning the points is cheaper and
/// the query does that instead. Boxes that cross the antimeridian wrap; boxes that reach a pole
/// take every longitude.
struct SpatialGrid {
    /// Cell size in degrees: about 1.1 km of latitude.
    static let cellDegrees = 0.01
    /// Metres per degree of latitude on the mean Earth sphere (6,371,008.8 m).
    static let metersPerDegree = 6_371_008.8 * Double.pi / 180
    /// Widens boxes by 1 % so callers using a smaller Earth radius still find every match.
    static let margin = 1.01

    private struct Cell: Hashable {
        var provider: String
        var row: Int32
        var column: Int32
    }

    private var cells: [Cell: Set<String>] = [:]
    private var pointsByProvider: [String: [String: IndexPoint]] = [:]

    mutating func insert(provider: String, id: String, point: IndexPoint) {
        pointsByProvider[provider, default: [:]][id] = point
        if let cell = Self.cell(provider: provider, point: point) {
            cells[cell, default: []].insert(id)
        }
    }

    mutating func remove(provider: String, id: String, point: IndexPoint) {
        pointsByProvider[provider]?[id] = nil
        if pointsByProvider[provider]?.isEmpty == true { pointsByProvider[provider] = nil }
        if let cell = Self.cell(provider: provider, point: point) {
            cells[cell]?.remove(id)
            if cells[cell]?.isEmpty == true { cells[cell] = nil }
        }
    }

    /// The IDs of the provider's points inside the bounding box of the circle, in no particular order.
    func candidates(provider: String, center: IndexPoint, radiusMeters: Double) -> [String] {
        guard let points = pointsByProvider[provider], let box = BoundingBox(center: center, radiusMeters: radiusMeters) else { return [] }
        let rows = Int(Self.index(box.latitudes.lowerBound))...Int(Self.index(box.latitudes.upperBound))
        let columnRanges = box.longitudes.map { Int(Self.index($0.lowerBound))...Int(Self.index($0.upperBound)) }
        let cellCount = rows.count * columnRanges.reduce(0) { $0 + $1.count }
        if cellCount > points.count {
            return points.compactMap { box.contains($0.value) ? $0.key : nil }
        }
        var found: [String] = []
        for row in rows {
            for columns in columnRanges {
                for column in columns {
                    guard let ids = cells[Cell(provider: provider, row: Int32(row), column: Int32(column))] else { continue }
                    for id in ids where points[id].map(box.contains) == true {
                        found.append(id)
                    }
                }
            }
        }
        return found
    }

    private static func cell(provider: String, point: IndexPoint) -> Cell? {
        guard point.latitude.isFinite, point.longitude.isFinite else { return nil }
        let latitude = min(max(point.latitude, -90), 90)
        return Cell(provider: provider, row: index(latitude), column: index(normalizedLongitude(point.longitude)))
    }

    private static func index(_ degrees: Double) -> Int32 {
        Int32((degrees / cellDegrees).rounded(.down))
    }

    /// The longitude in [-180, 180).
    static func normalizedLongitude(_ longitude: Double) -> Double {
        var value = longitude.truncatingRemainder(dividingBy: 360)
        if value < -180 { value += 360 } else if value >= 180 { value -= 360 }
        return value
    }

    /// A latitude range and one or two longitude ranges (two when the box crosses the antimeridian).
    private struct BoundingBox {
        var latitudes: ClosedRange<Double>
        var longitudes: [ClosedRange<Double>]

        init?(center: IndexPoint, radiusMeters: Double) {
            guard center.latitude.isFinite, center.longitude.isFinite, radiusMeters.isFinite, radiusMeters >= 0 else { return nil }
            let latitudeSpan = radiusMeters / SpatialGrid.metersPerDegree * SpatialGrid.margin + 1e-9
            let centerLatitude = min(max(center.latitude, -90), 90)
            let low = centerLatitude - latitudeSpan
            let high = centerLatitude + latitudeSpan
            latitudes = max(low, -90)...min(high, 90)
            let everyLongitude: [ClosedRange<Double>] = [-180...180]
            guard low > -90, high < 90 else {
                longitudes = everyLongitude
                return
            }
            let widest = max(abs(low), abs(high)) * Double.pi / 180
            let longitudeSpan = latitudeSpan / cos(widest)
            guard longitudeSpan < 180 else {
                longitudes = everyLongitude
                return
            }
            let middle = SpatialGrid.normalizedLongitude(center.longitude)
            let west = middle - longitudeSpan
            let east = middle + longitudeSpan
            if west < -180 {
                longitudes = [(west + 360)...180, -180...east]
            } else if east >= 180 {
                longitudes = [west...180, -180...(east - 360)]
            } else {
                longitudes = [west...east]
            }
        }

        func contains(_ point: IndexPoint) -> Bool {
            guard latitudes.contains(point.latitude) else { return false }
            let longitude = SpatialGrid.normalizedLongitude(point.longitude)
            return longitudes.contains { $0.contains(longitude) }
        }
    }
}
