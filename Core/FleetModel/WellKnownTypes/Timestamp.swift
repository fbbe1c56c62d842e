import FleetErrors
import Foundation

/// A point in time with nanosecond precision (`google.protobuf.Timestamp`), carried in JSON as an
/// RFC 3339 string such as `"2024-05-01T12:30:00.250Z"`.
///
/// Valid timestamps lie from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var seconds: Int64
    /// Nanoseconds within the second, 0 ..< 1_000_000_000.
    public var nanos: Int32

    /// The earliest valid seconds: 0001-01-01T00:00:00Z.
    public static let minSeconds: Int64 = -62_135_596_800
    /// The latest valid seconds: 9999-12-31T23:59:59Z.
    public static let maxSeconds: Int64 = 253_402_300_799

    /// 1970-01-01T00:00:00Z.
    public static let unixEpoch = Timestamp(seconds: 0)

    /// A timestamp; nanoseconds outside 0 ..< 1e9 carry into the seconds.
    public init(seconds: Int64, nanos: Int32 = 0) {
        let carry = Int64(nanos) / 1_000_000_000
        var remainder = Int32(Int64(nanos) % 1_000_000_000)
        var wholeSeconds = seconds + carry
        if remainder < 0 {
            remainder += 1_000_000_000
            wholeSeconds -= 1
        }
        self.seconds = wholeSeconds
        self.nanos = remainder
    }

    /// The timestamp of a `Date`, rounded to the microsecond (a `Date` is not finer than that today).
    public init(date: Date) {
        self.init(timeIntervalSince1970: date.timeIntervalSince1970)
    }

    /// The timestamp a number of seconds after 1970, rounded to the microsecond. An interval outside the valid
    /// range is clamped to its first or last second, and NaN gives the Unix epoch: it never traps.
    public init(timeIntervalSince1970 interval: Double) {
        guard !interval.isNaN else { self = .unixEpoch; return }
        guard interval >= Double(Self.minSeconds) else { self.init(seconds: Self.minSeconds); return }
        guard interval < Double(Self.maxSeconds) else { self.init(seconds: Self.maxSeconds); return }
        let wholeSeconds = interval.rounded(.down)
        let micros = ((interval - wholeSeconds) * 1_000_000).rounded()
        self.init(seconds: Int64(wholeSeconds), nanos: Int32(micros) * 1_000)
    }

    /// Parses an RFC 3339 date-time: `YYYY-MM-DDTHH:MM:SS`, 0–9 fraction digits, then `Z` or `±HH:MM`.
    ///
    /// - Throws: INVALID_ARGUMENT naming `field` (when given) if the text is malformed or out of range.
    public init(rfc3339 text: String, field: String? = nil) throws {
        guard let parsed = Self.parse(text) else {
            let place = field.map { " for '\($0)'" } ?? ""
            throw FleetError.invalidArgument(
                "Invalid timestamp \"\(text)\"\(place): expected RFC 3339 such as \"2024-05-01T12:30:00Z\" or \"2024-05-01T14:30:00.250+02:00\", between years 0001 and 9999",
                field: field)
        }
        self = parsed
    }

    private static func parse(_ text: String) -> Timestamp? {
        var scanner = ASCIIScanner(text)
        guard let year = scanner.digits(4), scanner.consume(UInt8(ascii: "-")),
              let month = scanner.digits(2), scanner.consume(UInt8(ascii: "-")),
              let day = scanner.digits(2),
              scanner.consume(UInt8(ascii: "T")) || scanner.consume(UInt8(ascii: "t")),
              let hour = scanner.digits(2), scanner.consume(UInt8(ascii: ":")),
              let minute = scanner.digits(2), scanner.consume(UInt8(ascii: ":")),
              let second = scanner.digits(2)
        else { return nil }
        var nanos: Int32 = 0
        if scanner.consume(UInt8(ascii: ".")) {
            guard let fraction = scanner.nanosecondFraction() else { return nil }
            nanos = fraction
        }
        var offsetSeconds: Int64 = 0
        if scanner.consume(UInt8(ascii: "Z")) || scanner.consume(UInt8(ascii: "z")) {
            offsetSeconds = 0
        } else if let sign = scanner.peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            scanner.position += 1
            guard let offsetHours = scanner.digits(2), scanner.consume(UInt8(ascii: ":")),
                  let offsetMinutes = scanner.digits(2), offsetHours <= 23, offsetMinutes <= 59
            else { return nil }
            offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        guard scanner.isAtEnd, year >= 1, (1...12).contains(month),
              day >= 1, day <= CivilTime.daysInMonth(year: year, month: month),
              hour <= 23, minute <= 59, second <= 59
        else { return nil }
        let localSeconds = CivilTime.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        let utcSeconds = localSeconds - offsetSeconds
        guard (minSeconds...maxSeconds).contains(utcSeconds) else { return nil }
        return Timestamp(seconds: utcSeconds, nanos: nanos)
    }

    /// RFC 3339 in UTC as protobuf writes it: `Z`, and 0, 3, 6 or 9 fraction digits.
    public var rfc3339String: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(30)
        if appendRFC3339(to: &bytes) { return String(decoding: bytes, as: UTF8.self) }
        // Out of RFC 3339's range (never sent: `isValid` guards output); written as well as can be.
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilTime.date(days: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
            + protobufFraction(nanos) + "Z"
    }

    /// Appends the RFC 3339 form of a timestamp within range, digit by digit (timestamps are in every
    /// trip and vehicle a server sends); false, appending nothing, when it is out of range.
    func appendRFC3339(to bytes: inout [UInt8]) -> Bool {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilTime.date(days: days)
        guard (0...9999).contains(year), (0..<1_000_000_000).contains(nanos) else { return false }
        func append(_ value: Int64, width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        append(year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        append(month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        append(day, width: 2)
        bytes.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, width: 2)
        bytes.append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, width: 2)
        bytes.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, width: 2)
        if nanos != 0 {
            bytes.append(UInt8(ascii: "."))
            let nanos = Int64(nanos)
            if nanos % 1_000_000 == 0 {
                append(nanos / 1_000_000, width: 3)
            } else if nanos % 1_000 == 0 {
                append(nanos / 1_000, width: 6)
            } else {
                append(nanos, width: 9)
            }
        }
        bytes.append(UInt8(ascii: "Z"))
        return true
    }

    /// Whether the timestamp lies within 0001-01-01 … 9999-12-31 (what RFC 3339 JSON can carry).
    public var isValid: Bool {
        (Self.minSeconds...Self.maxSeconds).contains(seconds) && (0..<1_000_000_000).contains(nanos)
    }

    /// The RFC 3339 form.
    public var description: String { rfc3339String }

    // MARK: Conversions and arithmetic

    /// Seconds since 1970 as a `Double` (sub-microsecond detail may round away).
    public var timeIntervalSince1970: Double { Double(seconds) + Double(nanos) / 1e9 }

    /// The same instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: timeIntervalSince1970) }

    /// The timestamp `interval` seconds later (earlier when negative), to the nanosecond, clamped to the valid
    /// range (an ETA computed from a vanishing speed is the last valid second, not a trap); NaN adds nothing.
    public func adding(seconds interval: Double) -> Timestamp {
        guard !interval.isNaN else { return self }
        let span = Self.maxSeconds - Self.minSeconds
        let whole = Int64(truncatingClamped: interval, limit: span)
        let nanosecondPart = whole.magnitude < UInt64(span) ? ((interval - Double(whole)) * 1e9).rounded() : 0
        let sum = Timestamp(seconds: seconds + whole, nanos: nanos + Int32(nanosecondPart))
        if sum.seconds > Self.maxSeconds { return Timestamp(seconds: Self.maxSeconds) }
        if sum.seconds < Self.minSeconds { return Timestamp(seconds: Self.minSeconds) }
        return sum
    }

    /// The timestamp `duration` later (earlier when negative), exactly.
    public func adding(_ duration: ProtoDuration) -> Timestamp {
        Timestamp(seconds: seconds + duration.seconds, nanos: nanos + duration.nanos)
    }

    /// Seconds from `other` to this timestamp (positive when this one is later).
    public func timeIntervalSince(_ other: Timestamp) -> Double {
        Double(seconds - other.seconds) + Double(nanos - other.nanos) / 1e9
    }

    /// The exact duration from `other` to this timestamp.
    public func duration(since other: Timestamp) -> ProtoDuration {
        ProtoDuration(seconds: seconds - other.seconds, nanos: nanos - other.nanos)
    }

    /// Earlier first.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos)
    }
}

extension Timestamp: ProtoJSONValue {
    /// An RFC 3339 string.
    public init(protoJSON json: JSON, path: String, options: DecodingOptions) throws {
        guard case .string(let text) = json, let parsed = Self.parse(text) else {
            throw ProtoJSONError.invalidValue(
                at: path, protoType: "google.protobuf.Timestamp", got: json,
                expected: "an RFC 3339 string such as \"2024-05-01T12:30:00Z\", years 0001 to 9999")
        }
        self = parsed
    }

    /// The RFC 3339 string.
    public var protoJSON: JSON { .string(rfc3339String) }

    /// The RFC 3339 string, written without making a `String` first.
    public func writeJSONText(to writer: inout ProtoJSONTextWriter) {
        if !writer.writeASCIIString({ appendRFC3339(to: &$0) }) {
            writer.writeValue(protoJSON)
        }
    }
}
