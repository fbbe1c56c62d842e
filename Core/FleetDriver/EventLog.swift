import FleetModel
import Synchronization

/// Writes one line per event to standard error (or any writer): the daemon's log.
///
/// Under journald (`JOURNAL_STREAM` set, as systemd does for services whose standard error goes to the
/// journal) text lines start with the syslog priority (`<6>`) and carry no time, since journald adds both.
public final class EventLog: Sendable {
    /// The line format.
    public let format: LogFormat
    /// Whether lines go to journald.
    public let forJournal: Bool
    /// Lines less important than this are left out.
    public let minimumLevel: LogLevel
    private let write: @Sendable (String) -> Void
    private let now: @Sendable () -> Double
    private let lock = Mutex(())

    /// A log writing lines with `write`; `now` stamps them (epoch seconds).
    public init(format: LogFormat, forJournal: Bool = false, minimumLevel: LogLevel = .info,
                now: @escaping @Sendable () -> Double, write: @escaping @Sendable (String) -> Void) {
        self.format = format
        self.forJournal = forJournal
        self.minimumLevel = minimumLevel
        self.now = now
        self.write = write
    }

    /// Writes one event: its name (`update-succeeded`), a sentence, and fields (strings and numbers).
    public func log(_ level: LogLevel, _ event: String, _ message: String, _ fields: [(String, JSON)] = []) {
        guard level.isWritten(keeping: minimumLevel) else { return }
        let line = Self.line(format: format, forJournal: forJournal, time: now(), level: level, event: event,
                             message: message, fields: fields)
        lock.withLock { _ in write(line + "\n") }
    }

    /// The text of one line, without its line break.
    public static func line(format: LogFormat, forJournal: Bool, time: Double, level: LogLevel, event: String,
                            message: String, fields: [(String, JSON)]) -> String {
        let stamp = Timestamp(timeIntervalSince1970: (time * 1000).rounded() / 1000).rfc3339String
        switch format {
        case .json:
            var object = JSONObject()
            object["time"] = .string(stamp)
            object["level"] = .string(level.name)
            object["event"] = .string(event)
            object["message"] = .string(message)
            for (key, value) in fields where !object.contains(key) { object[key] = value }
            return JSON.object(object).serialized()
        case .text:
            var line = forJournal ? "<\(level.rawValue)>" : "\(stamp) "
            line += "\(level.name) \(event): \(message.replacingLineBreaks())"
            for (key, value) in fields {
                line += " \(key)=\(textValue(value))"
            }
            return line
        }
    }

    private static func textValue(_ value: JSON) -> String {
        switch value {
        case .string(let text):
            let needsQuotes = text.isEmpty || text.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline }
            guard needsQuotes else { return text }
            let escaped = text.replacingLineBreaks().replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            return "\"\(escaped)\""
        case .number(let number):
            return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        default:
            return value.serialized()
        }
    }
}

extension String {
    /// The text on one line: line breaks become spaces.
    fileprivate func replacingLineBreaks() -> String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
