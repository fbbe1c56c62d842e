import Foundation

/// A latitude/longitude rectangle in degrees that does not cross the antimeridian: what one nearby
/// search looks in. Shared by the stores that file points by grid cell (SQLite, PostgreSQL), so both
/// number cells alike.
public struct GeoBox: Equatable, Sendable {
    public var south: Double
    public var north: Double
    public var west: Double
    public var east: Double

    public init(south: Double, north: Double, west: Double, east: Double) {
        self.south = south
        self.north = north
        self.west = west
        self.east = east
    }

    /// The Earth's polar radius (WGS84), the smallest a caller could measure with: boxes built with
    /// it are never too small for a caller's own distance.
    public static let sphereRadius = 6_356_752.0

    /// Slack added to every edge, far below a millimetre, against rounding in the trigonometry.
    public static let slackDegrees = 1e-9

    public static let world = GeoBox(south: -90, north: 90, west: -180, east: 180)

    /// One to two boxes that together hold every point within `radiusMeters` of `center` on the sphere.
    ///
    /// A circle that reaches a pole covers every longitude; one that crosses the antimeridian is split
    /// into a box on each side. The boxes hold more than the circle (its corners): callers filter exactly.
    public static func covering(center: IndexPoint, radiusMeters: Double) -> [GeoBox] {
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

    /// The side of the grid cells points are filed under: 1/512 of a degree (about 217 m of
    /// latitude). A power of two, so cell edges are exact in binary floating point.
    public static let cellDegrees = 1.0 / 512

    /// Cells in a row of the grid, west to east (the last holds only longitude 180).
    public static let cellColumns = Int64(360 * 512 + 1)

    /// The grid cell a point lies in, as a box.
    public static func cell(of point: IndexPoint) -> GeoBox {
        let (row, column) = cellPosition(of: point)
        let south = Double(row) * cellDegrees - 90
        let west = Double(column) * cellDegrees - 180
        return GeoBox(south: south, north: south + cellDegrees, west: west, east: west + cellDegrees)
    }

    /// The number of the grid cell a point lies in: the records table files each point under it
    /// (its `cell` column, indexed), not under the exact point, so a vehicle moving within its cell
    /// (most location updates) leaves the index untouched. Cells are numbered row by row from the
    /// south pole, west to east, so the cells of a row that a box meets are one range of numbers.
    public static func cellNumber(of point: IndexPoint) -> Int64 {
        let (row, column) = cellPosition(of: point)
        return row * cellColumns + column
    }

    private static func cellPosition(of point: IndexPoint) -> (row: Int64, column: Int64) {
        (row(of: min(90, max(-90, point.latitude))), column(of: normalizedLongitude(point.longitude)))
    }

    private static func row(of latitude: Double) -> Int64 { Int64(((latitude + 90) / cellDegrees).rounded(.down)) }
    private static func column(of longitude: Double) -> Int64 { Int64(((longitude + 180) / cellDegrees).rounded(.down)) }

    /// Rows of cells up to which a search asks for each row on its own; a taller box is searched as
    /// one range over all its rows, the cells outside its columns skipped by the query.
    public static let rowsSearchedOneByOne = 64

    /// How to find the cells this box meets: ranges of cell numbers, and the columns a cell in them
    /// must be in.
    public var cellSearch: (ranges: [ClosedRange<Int64>], columns: ClosedRange<Int64>) {
        let south = Self.row(of: max(-90, south)), north = Self.row(of: min(90, north))
        let west = Self.column(of: max(-180, west)), east = Self.column(of: min(180, east))
        guard south <= north, west <= east else { return ([], 0...0) }
        let columns = west...east
        if north - south + 1 > Self.rowsSearchedOneByOne {
            return ([(south * Self.cellColumns + west)...(north * Self.cellColumns + east)], columns)
        }
        return ((south...north).map { ($0 * Self.cellColumns + west)...($0 * Self.cellColumns + east) }, columns)
    }

    /// `longitude` brought into [-180, 180].
    public static func normalizedLongitude(_ longitude: Double) -> Double {
        if (-180...180).contains(longitude) { return longitude }
        let shifted = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (shifted < 0 ? shifted + 360 : shifted) - 180
    }
}
