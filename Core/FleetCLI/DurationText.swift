/// Durations as people type them: `500ms`, `30s`, `5m`, `1h`, `1m30s`, `2.5s`, `250us`; a bare
/// number is seconds (`10` = `10s`). Negative durations are refused.
public enum DurationText {
    /// The duration `text` names, or nil.
    public static func parse(_ text: String) -> Duration? {
        let characters = Array(text.trimmingSpaces.lowercased())
        guard !characters.isEmpty else { return nil }
        if let seconds = Double(String(characters)) {
            return seconds.isFinite && seconds >= 0 ? duration(seconds: seconds) : nil
        }
        var total = 0.0
        var index = 0
        while index < characters.count {
            let numberStart = index
            while index < characters.count, characters[index].isNumber || characters[index] == "." { index += 1 }
            guard index > numberStart, let amount = Double(String(characters[numberStart..<index])) else { return nil }
            let unitStart = index
            while index < characters.count, characters[index].isLetter || characters[index] == "µ" { index += 1 }
            guard let scale = secondsPerUnit[String(characters[unitStart..<index])] else { return nil }
            total += amount * scale
        }
        return total.isFinite ? duration(seconds: total) : nil
    }

    /// Whether `text` is a bare number, which `parse` takes as seconds.
    public static func isBareNumber(_ text: String) -> Bool {
        Double(text.trimmingSpaces) != nil
    }

    /// A duration written back in the shortest of those forms (`1m30s`, `500ms`, `0s`).
    public static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if seconds == 0 && attoseconds == 0 { return "0s" }
        if seconds == 0 { return trimmed(Double(attoseconds) / 1e15) + "ms" }
        if attoseconds != 0 { return trimmed(Double(seconds) + Double(attoseconds) / 1e18) + "s" }
        var rest = seconds
        var text = ""
        for (unit, size) in [("h", Int64(3600)), ("m", 60), ("s", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return text
    }

    private static let secondsPerUnit: [String: Double] = [
        "ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3,
        "s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86_400,
    ]

    private static func duration(seconds: Double) -> Duration {
        .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    private static func trimmed(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }
}
