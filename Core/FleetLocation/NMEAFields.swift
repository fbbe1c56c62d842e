import FleetModel

/// Readers for the field formats of NMEA 0183: `ddmm.mmmm` coordinates, `hhmmss.ss` times, `ddmmyy` dates.
enum NMEAFields {
    /// A coordinate `ddmm.mmmm` (latitude) or `dddmm.mmmm` (longitude) with its hemisphere letter, in
    /// signed degrees; nil when malformed or out of range.
    static func coordinate(_ text: String, hemisphere: String, isLatitude: Bool) -> Double? {
        guard let value = Double(text), value >= 0, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else {
            return nil
        }
        let degrees = (value / 100).rounded(.down)
        let minutes = value - degrees * 100
        guard minutes < 60 else { return nil }
        let magnitude = degrees + minutes / 60
        guard magnitude <= (isLatitude ? 90 : 180) else { return nil }
        switch hemisphere {
        case isLatitude ? "N" : "E": return magnitude
        case isLatitude ? "S" : "W": return -magnitude
        default: return nil
        }
    }

    /// Seconds since midnight of `hhmmss` or `hhmmss.sss`; nil when malformed.
    static func timeOfDay(_ text: String) -> Double? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 6, utf8[0..<6].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let hours = Int(text.prefix(2)), let minutes = Int(text.dropFirst(2).prefix(2)),
              let seconds = Double(text.dropFirst(4)), hours < 24, minutes < 60, seconds < 61 else { return nil }
        return Double(hours * 3600 + minutes * 60) + seconds
    }

    /// The date of `ddmmyy` (years 80–99 are 1980–1999, 00–79 are 2000–2079); nil when malformed.
    static func date(_ text: String) -> (year: Int, month: Int, day: Int)? {
        guard text.utf8.count == 6, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let day = Int(text.prefix(2)), let month = Int(text.dropFirst(2).prefix(2)),
              let shortYear = Int(text.suffix(2)), (1...12).contains(month), (1...31).contains(day) else { return nil }
        return (shortYear < 80 ? 2000 + shortYear : 1900 + shortYear, month, day)
    }

    /// The timestamp of a date and a time of day (UTC), or nil when the date does not exist.
    static func timestamp(date: (year: Int, month: Int, day: Int), secondsOfDay: Double) -> Timestamp? {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        guard let midnight = try? Timestamp(rfc3339: "\(date.year)-\(two(date.month))-\(two(date.day))T00:00:00Z") else {
            return nil
        }
        return midnight.adding(seconds: secondsOfDay)
    }

    /// A number field; nil when empty; `.malformed` when not a finite number.
    static func number(_ text: String) -> NumberField {
        if text.isEmpty { return .empty }
        guard let value = Double(text), value.isFinite else { return .malformed }
        return .value(value)
    }

    /// A numeric field's reading.
    enum NumberField: Equatable {
        case empty
        case malformed
        case value(Double)

        var value: Double? {
            if case .value(let number) = self { return number }
            return nil
        }
    }
}
