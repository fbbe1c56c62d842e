import FleetErrors

/// A signed span of time with nanosecond precision (`google.protobuf.Duration`), carried in JSON as
/// seconds with an `s` suffix: `"12.5s"`, `"-3s"`, `"0.000000001s"`.
///
/// Named `ProtoDuration` so as not to clash with `Swift.Duration`; convert with `init(_:)` / `swiftDuration`.
public struct ProtoDuration: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whole seconds; same sign as `nanos`.
    public var seconds: Int64
    /// Nanoseconds, -999_999_999 ... 999_999_999; same sign as `seconds`.
    public var nanos: Int32

    /// The largest magnitude protobuf allows: 10,000 years in seconds.
    public static let maxSeconds: Int64 = 315_576_000_000

    /// Zero.
    public static let zero = ProtoDuration(seconds: 0)

    /// A duration; nanoseconds carry into the seconds and signs are made to agree.
    public init(seconds: Int64, nanos: Int32 = 0) {
        var totalSeconds = seconds + Int64(nanos) / 1_000_000_000
        var remainder = Int32(Int64(nanos) % 1_000_000_000)
        if totalSeconds > 0 && remainder < 0 {
            totalSeconds -= 1
            remainder += 1_000_000_000
        } else if totalSeconds < 0 && remainder > 0 {
            totalSeconds += 1
            remainder -= 1_000_000_000
        }
        self.seconds = totalSeconds
        self.nanos = remainder
    }

    /// A duration of `timeInterval` seconds, rounded to the nanosecond. Beyond ±``maxSeconds`` it is clamped
    /// to that limit, and NaN gives zero: a computed span never traps.
    public init(timeInterval: Double) {
        let seconds = Int64(truncatingClamped: timeInterval, limit: Self.maxSeconds)
        guard timeInterval.isFinite, seconds.magnitude < UInt64(Self.maxSeconds) else {
            self.init(seconds: seconds)
            return
        }
        self.init(seconds: seconds, nanos: Int32(((timeInterval - Double(seconds)) * 1e9).rounded()))
    }

    /// The same span as a `Swift.Duration` (attoseconds truncated to nanoseconds).
    public init(_ duration: Swift.Duration) {
        let (wholeSeconds, attoseconds) = duration.components
        self.init(seconds: wholeSeconds, nanos: Int32(attoseconds / 1_000_000_000))
    }

    /// Parses `"<seconds>[.<1-9 digits>]s"` with an optional leading `-`.
    ///
    /// - Throws: INVALID_ARGUMENT naming `field` (when given) if malformed or beyond ±315,576,000,000 s.
    public init(parsing text: String, field: String? = nil) throws {
        guard let parsed = Self.parse(text) else {
            let place = field.map { " for '\($0)'" } ?? ""
            throw FleetError.invalidArgument(
                "Invalid duration \"\(text)\"\(place): expected seconds with an 's' suffix such as \"12.5s\" or \"-3s\", at most 9 fraction digits",
                field: field)
        }
        self = parsed
    }

    private static func parse(_ text: String) -> ProtoDuration? {
        var scanner = ASCIIScanner(text)
        let negative = scanner.consume(UInt8(ascii: "-"))
        guard let (wholeSeconds, _) = scanner.digitRun(limit: 12) else { return nil }
        var nanos: Int32 = 0
        if scanner.consume(UInt8(ascii: ".")) {
            guard let fraction = scanner.nanosecondFraction() else { return nil }
            nanos = fraction
        }
        guard scanner.consume(UInt8(ascii: "s")), scanner.isAtEnd, wholeSeconds <= maxSeconds else { return nil }
        return negative ? ProtoDuration(seconds: -wholeSeconds, nanos: -nanos) : ProtoDuration(seconds: wholeSeconds, nanos: nanos)
    }

    /// The JSON form as protobuf writes it: `"1.500s"` style with 0, 3, 6 or 9 fraction digits.
    public var formatted: String {
        let negative = seconds < 0 || nanos < 0
        return (negative ? "-" : "") + String(seconds.magnitude) + protobufFraction(Int32(nanos.magnitude)) + "s"
    }

    /// Whether the duration is within protobuf's ±10,000 years and its signs agree.
    public var isValid: Bool {
        seconds.magnitude <= UInt64(Self.maxSeconds) && nanos.magnitude < 1_000_000_000
            && !(seconds > 0 && nanos < 0) && !(seconds < 0 && nanos > 0)
    }

    /// The duration in seconds as a `Double`.
    public var timeInterval: Double { Double(seconds) + Double(nanos) / 1e9 }

    /// The same span as a `Swift.Duration`.
    public var swiftDuration: Swift.Duration {
        .seconds(seconds) + .nanoseconds(Int64(nanos))
    }

    /// The JSON form (`"12.5s"`).
    public var description: String { formatted }

    /// Shorter (more negative) first.
    public static func < (lhs: ProtoDuration, rhs: ProtoDuration) -> Bool {
        (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos)
    }
}

extension ProtoDuration: ProtoJSONValue {
    /// A string such as `"12.5s"`.
    public init(protoJSON json: JSON, path: String, options: DecodingOptions) throws {
        guard case .string(let text) = json, let parsed = Self.parse(text) else {
            throw ProtoJSONError.invalidValue(
                at: path, protoType: "google.protobuf.Duration", got: json,
                expected: "a string of seconds with an 's' suffix such as \"12.5s\" or \"-3s\"")
        }
        self = parsed
    }

    /// The string form (`"12.5s"`).
    public var protoJSON: JSON { .string(formatted) }
}
