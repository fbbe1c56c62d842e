/// One server-sent event (the `text/event-stream` format of the HTML standard) and its wire form.
///
/// `data` may hold several lines: each becomes its own `data:` line, and the client joins them
/// again with `\n`. Line breaks in `event` and `id` would start new fields, so they are removed.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type (`event:`), nil for the default `message`.
    public var event: String?
    /// The payload (`data:` lines).
    public var data: String
    /// The event ID (`id:`) a reconnecting client sends back as `Last-Event-ID`, or nil.
    public var id: String?

    /// An event with this payload, and optionally a type and an ID.
    public init(event: String? = nil, data: String, id: String? = nil) {
        self.event = event
        self.data = data
        self.id = id
    }

    /// The event as sent: `event:`, `id:` and `data:` lines, then a blank line.
    public var encoded: [UInt8] {
        var text = ""
        if let event { text += "event: \(Self.singleLine(event))\n" }
        if let id { text += "id: \(Self.singleLine(id))\n" }
        for line in Self.lines(of: data) { text += "data: \(line)\n" }
        text += "\n"
        return Array(text.utf8)
    }

    /// A comment line (`: text`), which clients ignore; used as a heartbeat.
    public static func comment(_ text: String) -> [UInt8] {
        Array((": " + singleLine(text) + "\n\n").utf8)
    }

    /// The `retry:` field, telling the client how long to wait before reconnecting.
    public static func retry(after delay: Duration) -> [UInt8] {
        let milliseconds = max(0, delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000)
        return Array("retry: \(milliseconds)\n\n".utf8)
    }

    /// The lines of `text`, split at CRLF, CR or LF as the event-stream format does.
    private static func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        while index != text.endIndex {
            // "\r\n" is one Character in Swift, so one comparison covers the three kinds of break.
            if text[index] == "\n" || text[index] == "\r" || text[index] == "\r\n" {
                lines.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        lines.append(text[start...])
        return lines
    }

    /// The text without CR and LF (they would end the field early); NUL is dropped too.
    private static func singleLine(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" && $0 != "\0" })
    }
}
