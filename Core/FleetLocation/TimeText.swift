import FleetModel

/// Times as location files write them: RFC 3339 (`2024-05-01T12:30:00Z`), or a number of seconds since
/// 1970 (milliseconds when the number is above 10^11, i.e. after 1973 in milliseconds).
enum TimeText {
    /// The time `text` names, or nil.
    static func parse(_ text: String) -> Timestamp? {
        let trimmed = text.trimmingSpaces
        if let number = Double(trimmed) { return epoch(number) }
        return try? Timestamp(rfc3339: trimmed)
    }

    /// The time of an epoch number (seconds, or milliseconds above 10^11), or nil when not finite.
    static func epoch(_ number: Double) -> Timestamp? {
        guard number.isFinite, number >= 0 else { return nil }
        let seconds = number > 1e11 ? number / 1000 : number
        guard seconds < Double(Timestamp.maxSeconds) else { return nil }
        return Timestamp(timeIntervalSince1970: seconds)
    }
}
