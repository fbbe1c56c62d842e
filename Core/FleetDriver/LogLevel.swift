/// How much a log line matters; the numbers are syslog's, which journald reads from a `<N>` prefix.
public enum LogLevel: Int, Sendable, Hashable, CaseIterable {
    /// Something failed that needs a person.
    case error = 3
    /// Something failed that the reporter recovers from.
    case warning = 4
    /// A noteworthy normal event (start, stop).
    case notice = 5
    /// Routine events (each update).
    case info = 6
    /// Details.
    case debug = 7

    /// The name written in lines.
    public var name: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .notice: "notice"
        case .info: "info"
        case .debug: "debug"
        }
    }

    /// Whether a line of this level is written when the log keeps `minimum` and everything more important.
    public func isWritten(keeping minimum: LogLevel) -> Bool { rawValue <= minimum.rawValue }
}
