import FleetGeo
import FleetModel

/// Decodes CSV whose first line names the columns. Recognised names (any case, spaces and `-` read as `_`):
///
/// | column | names |
/// |---|---|
/// | latitude (required) | `lat`, `latitude` |
/// | longitude (required) | `lon`, `lng`, `long`, `longitude` |
/// | time | `time`, `timestamp`, `datetime`, `update_time` (RFC 3339 or epoch seconds/milliseconds) |
/// | speed, m/s | `speed`, `speed_mps`, `speed_ms` |
/// | speed, km/h | `speed_kmh`, `speed_kph`, `speed_kmph` |
/// | heading, degrees | `heading`, `course`, `bearing`, `track` |
/// | altitude, m | `altitude`, `alt`, `ele`, `elevation` |
/// | accuracy, m | `accuracy`, `horizontal_accuracy`, `latlng_accuracy`, `eph` |
///
/// Other columns are ignored. The separator is `,`, or `;` or a tab when the header has no comma.
/// Fields may be quoted (`"…"`, with `""` for a quote). A row with a missing or unreadable latitude or
/// longitude, or an unreadable optional figure, is bad and skipped; an empty optional field is "unknown".
public struct CSVLocationDecoder: LocationLineDecoder {
    /// The counters so far.
    public private(set) var statistics = DecoderStatistics()
    /// Why the header is unusable (no latitude or longitude column), once read; every row is then bad.
    public private(set) var headerProblem: String?

    private var columns: Columns?
    private var separator: Character = ","
    private var rowNumber = 0

    /// A decoder expecting the header line first.
    public init() {}

    private struct Columns {
        var latitude: Int
        var longitude: Int
        var time: Int?
        var speed: Int?
        var speedKilometresPerHour: Int?
        var heading: Int?
        var altitude: Int?
        var accuracy: Int?
    }

    private static let aliases: [String: String] = [
        "lat": "latitude", "latitude": "latitude",
        "lon": "longitude", "lng": "longitude", "long": "longitude", "longitude": "longitude",
        "time": "time", "timestamp": "time", "datetime": "time", "date_time": "time", "update_time": "time", "updatetime": "time",
        "speed": "speed", "speed_mps": "speed", "speed_ms": "speed",
        "speed_kmh": "speed_kmh", "speed_kph": "speed_kmh", "speed_kmph": "speed_kmh", "speedkmph": "speed_kmh",
        "heading": "heading", "course": "heading", "bearing": "heading", "track": "heading",
        "altitude": "altitude", "alt": "altitude", "ele": "altitude", "elevation": "altitude",
        "accuracy": "accuracy", "horizontal_accuracy": "accuracy", "latlng_accuracy": "accuracy", "eph": "accuracy",
    ]

    /// Reads one line; returns the samples it completes.
    public mutating func decode(line: String) -> [LocationSample] {
        if line.trimmingSpaces.isEmpty || line.hasPrefix("#") { return [] }
        guard let columns else {
            readHeader(line)
            return []
        }
        rowNumber += 1
        statistics.lines += 1
        guard headerProblem == nil else { return bad(headerProblem!) }
        guard let fields = Self.split(line, separator: separator) else { return bad("unbalanced quotes") }
        func text(_ index: Int?) -> String? {
            guard let index, index < fields.count else { return nil }
            let value = fields[index].trimmingSpaces
            return value.isEmpty ? nil : value
        }
        func number(_ index: Int?, _ name: String) -> Result<Double?, Problem> {
            guard let value = text(index) else { return .success(nil) }
            guard let number = Double(value), number.isFinite else { return .failure(Problem("\(name) '\(value)' is not a number")) }
            return .success(number)
        }
        guard let latitudeText = text(columns.latitude), let longitudeText = text(columns.longitude) else {
            return bad("latitude or longitude is empty")
        }
        guard let latitude = Double(latitudeText), let longitude = Double(longitudeText) else {
            return bad("latitude '\(latitudeText)' or longitude '\(longitudeText)' is not a number")
        }
        var time: Timestamp?
        if let value = text(columns.time) {
            guard let parsed = TimeText.parse(value) else { return bad("time '\(value)' is neither RFC 3339 nor epoch seconds") }
            time = parsed
        }
        do throws(Problem) {
            let metersPerSecond = try number(columns.speed, "speed").get()
            let kilometresPerHour = try number(columns.speedKilometresPerHour, "speed_kmh").get()
            let speed = metersPerSecond ?? kilometresPerHour.map { $0 / 3.6 }
            let sample = LocationSample(
                point: GeoPoint(latitude: latitude, longitude: longitude), time: time,
                altitude: try number(columns.altitude, "altitude").get(), speed: speed,
                heading: try number(columns.heading, "heading").get(),
                horizontalAccuracy: try number(columns.accuracy, "accuracy").get(), sensor: .customerSuppliedLocation)
            guard sample.isPlausible else { return bad("position or figures out of range") }
            statistics.samples += 1
            return [sample]
        } catch {
            return bad(error.message)
        }
    }

    /// The input ended: nothing is pending in this format.
    public mutating func finish() -> [LocationSample] { [] }

    private struct Problem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    private mutating func readHeader(_ line: String) {
        separator = line.contains(",") ? "," : line.contains(";") ? ";" : line.contains("\t") ? "\t" : ","
        let names = (Self.split(line, separator: separator) ?? []).map {
            $0.trimmingSpaces.lowercased().replacingSpacesAndDashes()
        }
        var byRole: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            if let role = Self.aliases[name], byRole[role] == nil { byRole[role] = index }
        }
        guard let latitude = byRole["latitude"], let longitude = byRole["longitude"] else {
            headerProblem = "the header '\(line.prefix(120))' names no latitude (lat) and longitude (lon, lng) columns"
            columns = Columns(latitude: 0, longitude: 0)
            return
        }
        columns = Columns(latitude: latitude, longitude: longitude, time: byRole["time"], speed: byRole["speed"],
                          speedKilometresPerHour: byRole["speed_kmh"], heading: byRole["heading"],
                          altitude: byRole["altitude"], accuracy: byRole["accuracy"])
    }

    /// Splits a CSV line into its fields (quoted fields unquoted, `""` read as `"`); nil when a quoted field
    /// is not closed. Other CSV readers (fleet-admin's task files) use it too.
    public static func split(_ line: String, separator: Character) -> [String]? {
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var characters = line.makeIterator()
        var pending: Character? = characters.next()
        while let character = pending {
            pending = characters.next()
            if inQuotes {
                if character == "\"" {
                    if pending == "\"" {
                        field.append("\"")
                        pending = characters.next()
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"" && field.trimmingSpaces.isEmpty {
                field = ""
                inQuotes = true
            } else if character == separator {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        guard !inQuotes else { return nil }
        fields.append(field)
        return fields
    }

    private mutating func bad(_ problem: String) -> [LocationSample] {
        statistics.bad += 1
        statistics.lastProblem = "row \(rowNumber): \(problem)"
        return []
    }
}

extension String {
    /// The text with spaces and `-` turned into `_` (for matching column names).
    fileprivate func replacingSpacesAndDashes() -> String {
        String(map { $0 == " " || $0 == "-" ? "_" : $0 })
    }
}
