/// The text formats a location file can have.
public enum LocationFileFormat: String, Sendable, Hashable, CaseIterable {
    /// NMEA 0183 sentences.
    case nmea
    /// GPX 1.0/1.1.
    case gpx
    /// CSV with a header.
    case csv
    /// JSON Lines.
    case jsonl
}
