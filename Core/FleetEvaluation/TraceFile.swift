import FleetErrors
import FleetGeo
import FleetModel

/// Reads and writes trace files: CSV with the header `trip_id,timestamp,latitude,longitude` (columns in any
/// order, names in any case, other columns ignored), one row per reported position, the timestamp RFC 3339
/// (`2026-01-26T15:55:12Z`) or epoch seconds. Rows of one trip may be interleaved with other trips' rows; each
/// trip's fixes are put in time order.
public enum TraceFile {
    /// The columns a trace file must name.
    public static let requiredColumns = ["trip_id", "timestamp", "latitude", "longitude"]

    /// The drives in `text`, in the order their trips first appear. `source` names the file in errors.
    ///
    /// - Throws: INVALID_ARGUMENT (`malformedTraceFile`) naming the line and column at fault: a header without
    ///   the required columns, a row with too few fields, a timestamp that is neither RFC 3339 nor epoch seconds,
    ///   a latitude or longitude that is not a number in range, or a file without rows.
    public static func drives(from text: String, source: String) throws(FleetError) -> [Drive] {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated().makeIterator()
        var header: [String]?
        var headerLine = 0
        while header == nil, let (offset, line) = lines.next() {
            let trimmed = line.trimmingCharacters(in: " \t\r")
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            header = trimmed.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: " \t\r\"").lowercased() }
            headerLine = offset + 1
        }
        guard let header else { throw problem(source, nil, nil, "the file is empty: expected the header \(requiredColumns.joined(separator: ","))") }
        var index: [String: Int] = [:]
        for name in requiredColumns {
            guard let position = header.firstIndex(of: name) else {
                throw problem(source, headerLine, name, "the header names no \(name) column (it must name \(requiredColumns.joined(separator: ",")))")
            }
            index[name] = position
        }
        let width = (index.values.max() ?? 0) + 1
        var order: [String] = []
        var fixesByTrip: [String: [Fix]] = [:]
        while let (offset, line) = lines.next() {
            let number = offset + 1
            let trimmed = line.trimmingCharacters(in: " \t\r")
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: " \t\r\"") }
            guard fields.count >= width else {
                throw problem(source, number, nil, "\(fields.count) fields, expected at least \(width)")
            }
            let trip = fields[index["trip_id"]!]
            guard !trip.isEmpty else { throw problem(source, number, "trip_id", "empty") }
            let timeText = fields[index["timestamp"]!]
            guard let time = seconds(timeText) else {
                throw problem(source, number, "timestamp", "'\(timeText)' is neither RFC 3339 nor epoch seconds")
            }
            let latitudeText = fields[index["latitude"]!]
            guard let latitude = Double(latitudeText), (-90...90).contains(latitude) else {
                throw problem(source, number, "latitude", "'\(latitudeText)' is not a number from -90 to 90")
            }
            let longitudeText = fields[index["longitude"]!]
            guard let longitude = Double(longitudeText), (-180...180).contains(longitude) else {
                throw problem(source, number, "longitude", "'\(longitudeText)' is not a number from -180 to 180")
            }
            if fixesByTrip[trip] == nil { order.append(trip) }
            fixesByTrip[trip, default: []].append(Fix(time: time, position: GeoPoint(latitude: latitude, longitude: longitude)))
        }
        guard !order.isEmpty else { throw problem(source, nil, nil, "the file holds a header and no rows") }
        return order.map { trip in
            Drive(id: trip, fixes: fixesByTrip[trip]!.enumerated()
                .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element))
        }
    }

    /// The CSV text of `drives`, times in epoch seconds (to the millisecond).
    public static func text(of drives: [Drive]) -> String {
        var text = requiredColumns.joined(separator: ",") + "\n"
        for drive in drives {
            for fix in drive.fixes {
                text += "\(drive.id),\(millisecondText(fix.time)),\(fix.position.latitude),\(fix.position.longitude)\n"
            }
        }
        return text
    }

    /// Seconds since 1970 of an RFC 3339 time or an epoch number (seconds; milliseconds above 10^11).
    static func seconds(_ text: String) -> Double? {
        if let number = Double(text) {
            guard number.isFinite, number >= 0 else { return nil }
            return number > 1e11 ? number / 1000 : number
        }
        return (try? Timestamp(rfc3339: text))?.timeIntervalSince1970
    }

    private static func millisecondText(_ seconds: Double) -> String {
        let milliseconds = Int64((seconds * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    private static func problem(_ source: String, _ line: Int?, _ column: String?, _ message: String) -> FleetError {
        var place = source
        if let line { place += " line \(line)" }
        if let column { place += ", column \(column)" }
        return FleetError(.malformedTraceFile, detail: "\(place): \(message)", field: column)
    }
}

extension Substring {
    /// The text without the given characters at either end.
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
