/// Google's encoded polyline algorithm format, the `encodedPathToWaypoint`/`currentRouteSegment` strings.
///
/// Each coordinate is multiplied by 10^precision, rounded to the nearest integer (halves away from zero), and
/// stored as the difference from the previous point's rounded value, in 5-bit chunks offset by 63 into printable
/// ASCII. Because the differences are taken between rounded integers, encoding decoded points gives back the same
/// string and decoding an encoded list gives back the points rounded to the precision, with no drift along the line.
public enum Polyline {
    /// Encodes points at `precision` decimal digits (5 for Google's polylines, 6 for some other services; 0...10).
    /// A coordinate beyond ±180° is clamped to that limit and NaN is written as 0, so that encoding never traps
    /// on a bad fix.
    public static func encode(_ points: [GeoPoint], precision: Int = 5) -> String {
        precondition((0...10).contains(precision), "polyline precision must be 0...10")
        let factor = scale(precision)
        var output: [UInt8] = []
        output.reserveCapacity(points.count * 8)
        var previousLatitude = 0
        var previousLongitude = 0
        for point in points {
            let latitude = scaled(point.latitude, factor: factor)
            let longitude = scaled(point.longitude, factor: factor)
            appendValue(latitude - previousLatitude, to: &output)
            appendValue(longitude - previousLongitude, to: &output)
            previousLatitude = latitude
            previousLongitude = longitude
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes a polyline at `precision` decimal digits. Throws ``PolylineError`` naming the character offset of the
    /// first problem: a character outside `?`...`~`, a value cut off by the end of the string, a latitude without
    /// its longitude, a value too long to be a coordinate, or a point beyond ±90° latitude or ±180° longitude
    /// (so that the sum of the deltas stays far from overflowing).
    public static func decode(_ encoded: String, precision: Int = 5) throws(PolylineError) -> [GeoPoint] {
        precondition((0...10).contains(precision), "polyline precision must be 0...10")
        let factor = scale(precision)
        let bytes = Array(encoded.utf8)
        var points: [GeoPoint] = []
        points.reserveCapacity(bytes.count / 4)
        var index = 0
        var latitude = 0
        var longitude = 0
        let latitudeLimit = Int(90 * factor), longitudeLimit = Int(180 * factor)
        while index < bytes.count {
            let latitudeStart = index
            let latitudeDelta = try readValue(bytes, at: &index)
            if index >= bytes.count {
                throw PolylineError(reason: .missingLongitude, position: latitudeStart)
            }
            let longitudeDelta = try readValue(bytes, at: &index)
            // Each delta is under 2^59 and each running sum stays within ±180·10^10, so these cannot overflow.
            latitude += latitudeDelta
            longitude += longitudeDelta
            guard abs(latitude) <= latitudeLimit, abs(longitude) <= longitudeLimit else {
                throw PolylineError(reason: .coordinateOutOfRange, position: latitudeStart)
            }
            points.append(GeoPoint(latitude: Double(latitude) / factor, longitude: Double(longitude) / factor))
        }
        return points
    }

    /// A coordinate clamped to ±180° (NaN as 0), times `factor`, rounded.
    private static func scaled(_ degrees: Double, factor: Double) -> Int {
        let clamped = degrees.isNaN ? 0 : min(180, max(-180, degrees))
        return Int((clamped * factor).rounded(.toNearestOrAwayFromZero))
    }

    /// 10^precision as a Double.
    private static func scale(_ precision: Int) -> Double {
        var factor = 1.0
        for _ in 0..<precision { factor *= 10 }
        return factor
    }

    /// Appends one signed value: zigzag (shift left, invert negatives), then 5-bit chunks, low first, 0x20 = more.
    private static func appendValue(_ value: Int, to output: inout [UInt8]) {
        var remaining = UInt64(bitPattern: Int64(value < 0 ? ~(value << 1) : (value << 1)))
        while remaining >= 0x20 {
            output.append(UInt8((remaining & 0x1F) | 0x20) + 63)
            remaining >>= 5
        }
        output.append(UInt8(remaining) + 63)
    }

    /// Chunks allowed per value: 12 × 5 = 60 bits, far more than any coordinate needs at precision 10.
    private static let maximumChunks = 12

    /// Reads one signed value starting at `index`, leaving `index` after its last character.
    private static func readValue(_ bytes: [UInt8], at index: inout Int) throws(PolylineError) -> Int {
        let start = index
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var chunks = 0
        while true {
            guard index < bytes.count else {
                throw PolylineError(reason: .truncatedValue, position: start)
            }
            let byte = bytes[index]
            guard byte >= 63 && byte <= 126 else {
                throw PolylineError(reason: .invalidCharacter, position: index)
            }
            chunks += 1
            guard chunks <= maximumChunks else {
                throw PolylineError(reason: .valueTooLong, position: start)
            }
            let chunk = UInt64(byte - 63)
            result |= (chunk & 0x1F) << shift
            shift += 5
            index += 1
            if chunk < 0x20 { break }
        }
        let magnitude = Int64(bitPattern: result >> 1)
        return Int((result & 1) != 0 ? ~magnitude : magnitude)
    }
}
