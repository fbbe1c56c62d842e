import FleetErrors
import FleetGeo
import FleetModel
import Foundation

/// A route to drive or follow, read from a file or inline text: a GPX route or track, a Google encoded
/// polyline, or a GeoJSON LineString (also inside a Feature or FeatureCollection, or a MultiLineString,
/// whose lines are joined). The format is recognised from the content: `<` starts GPX, a JSON object
/// is GeoJSON, anything else is an encoded polyline (precision 5; a polyline may start with `{` too).
public enum RouteFile {
    /// The route's points read from `text`; `source` names it in errors.
    /// - Throws: INVALID_ARGUMENT (`malformedLocationFile`) naming what is wrong, or when the route has
    ///   fewer than two points.
    public static func parse(_ text: String, source: String = "route") throws -> [GeoPoint] {
        let trimmed = text.trimmingSpaces
        let points: [GeoPoint]
        if trimmed.hasPrefix("<") {
            points = try GPXDocument(parsing: trimmed, source: source).routePoints
        } else if trimmed.hasPrefix("{"), let json = try? JSON.parse(trimmed) {
            points = try GeoJSONLine.points(json, source: source)
        } else {
            // Not XML, not JSON: a polyline (which may itself start with '{').
            do {
                points = try Polyline.decode(trimmed)
            } catch {
                let looksLikeJSON = trimmed.hasPrefix("{") ? "broken JSON or " : ""
                throw FleetError(.malformedLocationFile,
                                 detail: "\(source): not GPX (<gpx>), GeoJSON ({…}) or an encoded polyline: \(looksLikeJSON)\(error)")
            }
        }
        return try checked(points, source: source)
    }

    /// The points of an encoded polyline written inline (`simulate:polyline:…`), whatever its first character.
    /// - Throws: INVALID_ARGUMENT (`malformedLocationFile`) when it does not decode or has fewer than two points.
    public static func parsePolyline(_ encoded: String, source: String) throws -> [GeoPoint] {
        let points: [GeoPoint]
        do {
            points = try Polyline.decode(encoded.trimmingSpaces)
        } catch {
            throw FleetError(.malformedLocationFile, detail: "\(source): not an encoded polyline: \(error)")
        }
        return try checked(points, source: source)
    }

    /// `points` when they are at least two and all in range.
    private static func checked(_ points: [GeoPoint], source: String) throws -> [GeoPoint] {
        guard points.count >= 2 else {
            throw FleetError(.malformedLocationFile, detail: "\(source): a route needs at least two points, found \(points.count)")
        }
        if let bad = points.firstIndex(where: { !(-90...90).contains($0.latitude) || !(-180...180).contains($0.longitude) }) {
            throw FleetError(.malformedLocationFile, detail: "\(source): point \(bad + 1) \(points[bad]) is out of range")
        }
        return points
    }

    /// The route in the file at `path`.
    /// - Throws: INVALID_ARGUMENT (`malformedLocationFile`) when the file cannot be read or parsed.
    public static func read(path: String) throws -> [GeoPoint] {
        try parse(try readText(path: path), source: path)
    }

    /// The text of a file, as UTF-8 (invalid bytes replaced).
    /// - Throws: INVALID_ARGUMENT (`malformedLocationFile`) naming the path and the system's reason.
    public static func readText(path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw FleetError(.malformedLocationFile, detail: "\(path) \(reason)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
