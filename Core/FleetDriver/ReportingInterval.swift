/// How often the reporter sends an update, as the Driver SDK's `locationUpdateInterval`: 10 seconds by
/// default, at least 5 and at most 60. A request outside that range is clamped, with a warning that says so.
public struct ReportingInterval: Sendable, Hashable {
    /// The default interval, seconds.
    public static let defaultSeconds = 10.0
    /// The shortest interval, seconds.
    public static let minimumSeconds = 5.0
    /// The longest interval, seconds.
    public static let maximumSeconds = 60.0

    /// The interval in force, seconds (of the reporter's time: simulated seconds under `--speedup`).
    public let seconds: Double
    /// What was asked for, when something was.
    public let requestedSeconds: Double?

    /// The interval for a request (nil or not finite: the default), clamped to 5–60 s.
    public init(requestedSeconds: Double? = nil) {
        guard let requestedSeconds, requestedSeconds.isFinite else {
            self.requestedSeconds = nil
            seconds = Self.defaultSeconds
            return
        }
        self.requestedSeconds = requestedSeconds
        seconds = min(Self.maximumSeconds, max(Self.minimumSeconds, requestedSeconds))
    }

    /// Whether the request was outside 5–60 s and changed.
    public var wasClamped: Bool {
        guard let requestedSeconds else { return false }
        return requestedSeconds != seconds
    }

    /// The warning for a clamped request (`--interval 2s is below the minimum of 5s: using 5s`), else nil.
    public var warning: String? {
        guard wasClamped, let requestedSeconds else { return nil }
        let asked = Self.format(requestedSeconds)
        if requestedSeconds < Self.minimumSeconds {
            return "--interval \(asked) is below the minimum of \(Self.format(Self.minimumSeconds)): using \(Self.format(seconds)) (the Driver SDK allows 5s to 60s)"
        }
        return "--interval \(asked) is above the maximum of \(Self.format(Self.maximumSeconds)): using \(Self.format(seconds)) (the Driver SDK allows 5s to 60s)"
    }

    /// Seconds written for people: `10s`, `2.5s`.
    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? "\(Int64(seconds))s" : "\(seconds)s"
    }
}
