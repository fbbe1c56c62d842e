#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FleetGeo

/// A directed piece of road: a square of ground about `RoadPiece.sizeMeters` wide, crossed in one of eight
/// directions. Learned travel times and waits are kept per piece.
///
/// The key needs no routing map: two drives over the same street in the same direction fall into the same squares,
/// whatever router (or none) planned them, and a street's two directions are two pieces. 50 m squares are short
/// enough to tell a bus stop or a light from the road after it, and wide enough that GPS wander of 5–15 m mostly
/// stays inside one square; a lookup that finds nothing tries the eight neighbours (``RoadTimes/pace(_:slot:)``).
///
/// The squares are cut on a fixed grid: metres north of the equator, and metres east of the prime meridian at the
/// square row's own latitude, so neighbouring squares share edges and the key never depends on where a drive began.
public struct RoadPiece: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Index of the square eastwards.
    public var east: Int32
    /// Index of the square northwards.
    public var north: Int32
    /// Direction of travel across it: 0 north, 1 north-east, … 7 north-west (45° sectors centred on those).
    public var heading: UInt8

    /// One word for the square, one for the heading: two values to hash rather than three (the live and learned
    /// tables are looked up by piece on every stretch of a route).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(UInt64(UInt32(bitPattern: east)) << 32 | UInt64(UInt32(bitPattern: north)))
        hasher.combine(heading)
    }

    /// Side of a square, metres.
    public static let sizeMeters = 50.0
    /// Number of travel directions told apart.
    public static let headings = 8
    /// Metres per degree of latitude on the mean sphere (πR/180).
    static let metersPerDegree = Geodesy.earthRadiusMeters * Double.pi / 180

    /// Creates a piece from its indexes.
    public init(east: Int32, north: Int32, heading: UInt8) {
        self.east = east
        self.north = north
        self.heading = heading
    }

    /// The piece a vehicle is on at `point`, driving towards `bearing` degrees (clockwise from north).
    public init(at point: GeoPoint, bearing: Double) {
        var row = Row()
        self.init(at: point, heading: Self.heading(ofBearing: bearing), row: &row)
    }

    /// The direction of travel towards `bearing` degrees (clockwise from north): its 45° sector, 0 north … 7 north-west.
    static func heading(ofBearing bearing: Double) -> UInt8 {
        let sector = 360.0 / Double(Self.headings)
        var normalized = (bearing + sector / 2).truncatingRemainder(dividingBy: 360)
        if normalized < 0 { normalized += 360 }
        return UInt8(min(Self.headings - 1, Int(normalized / sector)))
    }

    /// A row of squares and the cosine of its centre's latitude, which scales every longitude in it: kept between the
    /// pieces of a drive (``init(at:heading:row:)``), whose steps mostly stay in one row, so the cosine is taken once
    /// per row rather than once per step.
    struct Row {
        /// The row's index northwards (not a number: no row yet).
        var north = Double.nan
        /// The cosine of the latitude of the row's centre.
        var cosine = 0.0
    }

    /// The piece at `point` crossed in `heading`, as ``init(at:bearing:)`` cuts it; `row` is the row of the last piece
    /// cut this way, replaced when `point` lies in another.
    init(at point: GeoPoint, heading: UInt8, row: inout Row) {
        let northMeters = point.latitude * Self.metersPerDegree
        let north = (northMeters / Self.sizeMeters).rounded(.down)
        if north != row.north {
            // Each row uses the cosine at its own centre, so every point of a row is cut the same way.
            let rowLatitude = (north + 0.5) * Self.sizeMeters / Self.metersPerDegree
            row = Row(north: north, cosine: cos(rowLatitude * Double.pi / 180))
        }
        let eastMeters = point.longitude * Self.metersPerDegree * row.cosine
        self.init(east: Int32(clamping: Int((eastMeters / Self.sizeMeters).rounded(.down))), north: Int32(clamping: Int(north)),
                  heading: heading)
    }

    /// The eight squares around this one, crossed in the same direction.
    public var neighbours: [RoadPiece] {
        var result: [RoadPiece] = []
        result.reserveCapacity(8)
        forEachNeighbour { result.append($0) }
        return result
    }

    /// Calls `body` with each of ``neighbours``, in the same order, building no array.
    @inline(__always)
    func forEachNeighbour(_ body: (RoadPiece) -> Void) {
        for dn in -1...1 {
            for de in -1...1 where dn != 0 || de != 0 {
                body(RoadPiece(east: east &+ Int32(de), north: north &+ Int32(dn), heading: heading))
            }
        }
    }

    /// The centre of the square, for maps and listings.
    public var centre: GeoPoint {
        let latitude = (Double(north) + 0.5) * Self.sizeMeters / Self.metersPerDegree
        let longitude = (Double(east) + 0.5) * Self.sizeMeters / (Self.metersPerDegree * cos(latitude * Double.pi / 180))
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// `east:north:heading`, the form stores keep and listings print (`-58112:1188422:2`).
    public var description: String { "\(east):\(north):\(heading)" }

    /// Parses ``description``; nil for anything else.
    public init?(_ text: Substring) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let east = Int32(parts[0]), let north = Int32(parts[1]), let heading = UInt8(parts[2]),
              Int(heading) < Self.headings else { return nil }
        self.init(east: east, north: north, heading: heading)
    }

    public static func < (a: RoadPiece, b: RoadPiece) -> Bool {
        (a.north, a.east, a.heading) < (b.north, b.east, b.heading)
    }
}
