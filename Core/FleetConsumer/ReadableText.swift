import FleetModel
import Foundation

/// How the follower writes times, durations, distances and places for people.
public enum ReadableText {
    /// Whole seconds from `now` until `eta`, rounded; 0 when the time has come or passed.
    public static func secondsLeft(until eta: Timestamp, from now: Timestamp) -> Int {
        max(0, Int(eta.timeIntervalSince(now).rounded()))
    }

    /// A duration in the largest two units: `45s`, `3m 05s`, `1h 02m`.
    public static func duration(seconds: Int) -> String {
        let seconds = max(0, seconds)
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3600 { return "\(seconds / 60)m \(twoDigits(seconds % 60))s" }
        return "\(seconds / 3600)h \(twoDigits(seconds / 60 % 60))m"
    }

    /// A distance: metres below 1 km (`850 m`), else kilometres with one decimal (`12.3 km`).
    public static func distance(meters: Int32) -> String {
        if meters < 1000 { return "\(meters) m" }
        let tenths = (Double(meters) / 100).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10) km"
    }

    /// A point with five decimals (about a metre): `52.52000, 13.40500`.
    public static func coordinate(_ point: LatLng) -> String {
        "\(fixed(point.latitude)), \(fixed(point.longitude))"
    }

    /// A vehicle's position with what was reported of it: `52.52000, 13.40500, heading 40°, 8.3 m/s,
    /// accuracy 5 m`; a part not reported is left out.
    public static func fix(_ fix: VehicleFix) -> String {
        var parts = [coordinate(fix.location)]
        if let heading = fix.heading { parts.append("heading \(heading)°") }
        if let speed = fix.speed { parts.append("\(oneDecimal(speed)) m/s") }
        if let accuracy = fix.accuracy { parts.append("accuracy \(oneDecimal(accuracy)) m") }
        return parts.joined(separator: ", ")
    }

    /// The time of day in `timeZone`: `14:03:27`.
    public static func clockTime(_ time: Timestamp, timeZone: TimeZone) -> String {
        let offset = Int64(timeZone.secondsFromGMT(for: time.date))
        let local = time.seconds + offset
        let secondOfDay = ((local % 86_400) + 86_400) % 86_400
        return "\(twoDigits(Int(secondOfDay / 3600))):\(twoDigits(Int(secondOfDay / 60 % 60))):\(twoDigits(Int(secondOfDay % 60)))"
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    private static func fixed(_ value: Double) -> String {
        let scaled = (abs(value) * 100_000).rounded()
        let whole = Int(scaled / 100_000)
        let fraction = String(Int(scaled.truncatingRemainder(dividingBy: 100_000)))
        let sign = value < 0 && scaled > 0 ? "-" : ""
        return "\(sign)\(whole).\(String(repeating: "0", count: 5 - fraction.count))\(fraction)"
    }
}
