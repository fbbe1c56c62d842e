import FleetGeo
import FleetModel

/// Decodes gpsd's JSON protocol, one report a line: `TPV` reports with a 2D or 3D fix become samples;
/// `TPV` with `mode` below 2 (no fix), or without `lat`/`lon` yet, is skipped and counted in `noFix`; other classes (`VERSION`,
/// `DEVICES`, `WATCH`, `SKY`, …) are counted in `ignored`; lines that are not JSON objects with a
/// `class` are `bad`.
///
/// From a TPV: `lat`/`lon`, `time`, `altHAE` (else `alt`, the deprecated name), `speed` (m/s), `track`
/// (degrees true), `eph` (else the larger of `epx`/`epy`) as horizontal accuracy, `epv`, `eps`, `epd`.
public struct GPSDDecoder: LocationLineDecoder {
    /// The counters so far.
    public private(set) var statistics = DecoderStatistics()
    /// The last `ERROR` report's message, if any.
    public private(set) var lastServerError: String?

    /// A decoder with nothing read yet.
    public init() {}

    /// Reads one line; returns the samples it completes.
    public mutating func decode(line: String) -> [LocationSample] {
        let trimmed = line.trimmingSpaces
        if trimmed.isEmpty { return [] }
        statistics.lines += 1
        guard let json = try? JSON.parse(trimmed), case .object = json, let reportClass = json["class"]?.stringValue else {
            return bad("not a gpsd JSON report with a \"class\": \(trimmed.prefix(80))")
        }
        switch reportClass {
        case "TPV":
            return readTPV(json)
        case "ERROR":
            lastServerError = json["message"]?.stringValue ?? "unknown error"
            statistics.ignored += 1
            return []
        default:
            statistics.ignored += 1
            return []
        }
    }

    /// The input ended: nothing is pending in this format.
    public mutating func finish() -> [LocationSample] { [] }

    /// The command that asks gpsd for JSON reports: `?WATCH={"enable":true,"json":true}` and a new line.
    public static let watchCommand = "?WATCH={\"enable\":true,\"json\":true}\n"

    private mutating func readTPV(_ json: JSON) -> [LocationSample] {
        let mode = json["mode"]?.intValue ?? 0
        guard mode >= 2 else {
            statistics.noFix += 1
            return []
        }
        guard let latitude = json["lat"]?.doubleValue, let longitude = json["lon"]?.doubleValue else {
            // gpsd sends such reports while a fix is being acquired: not broken, just no position yet.
            statistics.noFix += 1
            return []
        }
        var time: Timestamp?
        if let text = json["time"]?.stringValue {
            guard let parsed = try? Timestamp(rfc3339: text) else { return bad("TPV time '\(text)' is not RFC 3339") }
            time = parsed
        }
        let horizontal = json["eph"]?.doubleValue
            ?? [json["epx"]?.doubleValue, json["epy"]?.doubleValue].compactMap { $0 }.max()
        let sample = LocationSample(
            point: GeoPoint(latitude: latitude, longitude: longitude), time: time,
            altitude: mode >= 3 ? (json["altHAE"]?.doubleValue ?? json["alt"]?.doubleValue) : nil,
            speed: json["speed"]?.doubleValue, heading: json["track"]?.doubleValue,
            horizontalAccuracy: horizontal, verticalAccuracy: mode >= 3 ? json["epv"]?.doubleValue : nil,
            speedAccuracy: json["eps"]?.doubleValue, headingAccuracy: json["epd"]?.doubleValue, sensor: .gps)
        guard sample.isPlausible else { return bad("TPV position or figures out of range") }
        statistics.samples += 1
        return [sample]
    }

    private mutating func bad(_ problem: String) -> [LocationSample] {
        statistics.bad += 1
        statistics.lastProblem = problem
        return []
    }
}
