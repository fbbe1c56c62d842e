import FleetInterface
import Foundation
import FleetModel

/// The formats `fleet-admin history` writes a position history in.
public enum HistoryFormat: String, CaseIterable, Sendable {
    /// `trip_id,timestamp,latitude,longitude` and then vehicle_id, speed, accuracy, heading and
    /// vehicle_state: a trace file as `fleet-bench eta --traces` reads it (docs/eta.md), one row
    /// per trip a point served; points that served no trip are left out (they are no drive).
    case csv
    /// GPX 1.1: one track, one point per location, with its time.
    case gpx
    /// A GeoJSON FeatureCollection of Point features, each with the point's other fields as properties.
    case geojson
    /// One `PositionRecord` JSON object per line.
    case jsonl
}

/// Writes points in a `HistoryFormat` as they come, a page at a time: the history is never held
/// whole. `begin`, then `add` each point in time order, then `end`.
public struct HistoryWriter {
    public let format: HistoryFormat
    private let write: (String) -> Void
    private var count = 0
    /// Points added that served no trip: a CSV leaves them out.
    public private(set) var pointsWithoutTrip = 0
    /// Points added.
    public var points: Int { count }

    /// A writer handing its text to `write`, piece by piece.
    public init(format: HistoryFormat, write: @escaping (String) -> Void) {
        self.format = format
        self.write = write
    }

    /// The CSV header's first columns, those a trace file must have.
    public static let traceColumns = "trip_id,timestamp,latitude,longitude"

    /// What comes before the first point; `title` names the track (GPX).
    public func begin(title: String) {
        switch format {
        case .csv: write(Self.traceColumns + ",vehicle_id,speed,accuracy,heading,vehicle_state\n")
        case .gpx:
            write("""
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="fleet-admin" xmlns="http://www.topografix.com/GPX/1/1">
                <trk><name>\(Self.xmlEscaped(title))</name><trkseg>

                """)
        case .geojson: write(#"{"type":"FeatureCollection","features":["# + "\n")
        case .jsonl: break
        }
    }

    /// One point.
    public mutating func add(_ point: PositionRecord) {
        switch format {
        case .csv:
            let rest = [point.vehicleID, Self.number(point.speedMetersPerSecond), Self.number(point.accuracyMeters),
                        Self.number(point.headingDegrees), point.vehicleState?.name ?? ""].map(Self.csvField).joined(separator: ",")
            for trip in point.tripIDs {
                write("\(Self.csvField(trip)),\(point.time.rfc3339String),\(point.latitude),\(point.longitude),\(rest)\n")
            }
            if point.tripIDs.isEmpty { pointsWithoutTrip += 1 }
        case .gpx:
            write("<trkpt lat=\"\(point.latitude)\" lon=\"\(point.longitude)\"><time>\(point.time.rfc3339String)</time></trkpt>\n")
        case .geojson:
            var properties = point.json.objectValue ?? [:]
            properties["location"] = nil
            let feature: JSON = [
                "type": "Feature",
                "geometry": ["type": "Point", "coordinates": [.number(point.longitude), .number(point.latitude)]],
                "properties": .object(properties),
            ]
            write((count == 0 ? "" : ",\n") + feature.serialized())
        case .jsonl:
            write(point.json.serialized() + "\n")
        }
        count += 1
    }

    /// What comes after the last point.
    public func end() {
        switch format {
        case .gpx: write("</trkseg></trk>\n</gpx>\n")
        case .geojson: write("\n]}\n")
        case .csv, .jsonl: break
        }
    }

    private static func number(_ value: Double?) -> String {
        value.map { "\($0)" } ?? ""
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break.
    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
