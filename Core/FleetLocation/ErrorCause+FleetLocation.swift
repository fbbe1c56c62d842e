import FleetErrors

extension ErrorCause {
    /// A location or route file that cannot be read as its format: not GPX, not a polyline, not GeoJSON,
    /// a CSV without latitude and longitude columns.
    public static let malformedLocationFile = ErrorCause(
        id: "MALFORMED_LOCATION_FILE", code: .invalidArgument,
        summary: "The location or route file cannot be read",
        remedy: "Give a GPX route or track, an encoded polyline, a GeoJSON LineString, NMEA 0183, CSV with a header naming latitude and longitude, or JSON Lines; the message names the line or element at fault.",
        matchPhrases: ["location file", "route file", "not a gpx", "geojson"])
    /// A `--source` that names no known kind of source, or a path that cannot be opened.
    public static let unknownLocationSource = ErrorCause(
        id: "UNKNOWN_LOCATION_SOURCE", code: .invalidArgument,
        summary: "The location source is not one driver-report knows",
        remedy: "Use gpsd://HOST:PORT, nmea:PATH, nmea:-, gpx:PATH, csv:PATH, jsonl:PATH, jsonl:-, simulate:ROUTE or simulate:plan.",
        matchPhrases: ["location source"])
    /// A source that worked and stopped: gpsd cannot be reached, a read failed.
    public static let locationSourceFailed = ErrorCause(
        id: "LOCATION_SOURCE_FAILED", code: .unavailable,
        summary: "The location source is not delivering",
        remedy: "Check that gpsd is running and listening (systemctl status gpsd; gpspipe -w), or that the device or file is readable; driver-report reconnects to gpsd by itself.",
        matchPhrases: ["gpsd", "location source"])
    /// A `--source` file (`nmea:PATH`, `gpx:PATH`, `csv:PATH`, `jsonl:PATH`) that does not exist.
    public static let locationFileMissing = ErrorCause(
        id: "LOCATION_FILE_MISSING", code: .notFound,
        summary: "The location file does not exist",
        remedy: "Check the path after nmea:, gpx:, csv: or jsonl: (a relative path starts in the working folder), or give - to read standard input.",
        matchPhrases: ["location file does not exist"])
}

/// The error causes FleetLocation reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired (`ErrorCatalogue.register`), so `error-explain` knows them.
public enum FleetLocationCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [
        .malformedLocationFile, .unknownLocationSource, .locationFileMissing, .locationSourceFailed,
    ]
}
