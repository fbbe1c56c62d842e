/// One server-sent event (the `text/event-stream` format of the HTML standard): what the server
/// writes (`encoded`) and what the client's parser reads, as the WHATWG EventSource rules define it.
///
/// `data` may hold several lines: each becomes its own `data:` line, and the client joins them
/// again with `\n`. Line breaks in `event` and `id` would start new fields, so they are removed.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type (`event:`), nil for the default `message`.
    public var event: String?
    /// The payload (`data:` lines).
    public var data: String
    /// The event ID (`id:`) a reconnecting client sends back as `Last-Event-ID`, or nil. An event
    /// read by a client carries the stream's last ID so far (the latest `id:` field, kept across
    /// events; nil before any, or after an empty `id:` reset it).
    public var id: String?
    /// The reconnection delay the server asked for most recently with `retry:`, on an event read by
    /// a client (the server sends it on its own, `retry(after:)`).
    public var reconnectionTime: Duration?

    /// An event with this payload, and optionally a type, an ID and the stream's reconnection delay.
    public init(event: String? = nil, data: String, id: String? = nil, reconnectionTime: Duration? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.reconnectionTime = reconnectionTime
    }

    /// The event type as a client dispatches it: `message` when the event named none.
    public var type: String { event ?? "message" }

    /// The event as sent: `event:`, `id:` and `data:` lines, then a blank line.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.utf8.count + 64)
        if let event { bytes += Array("event: \(Self.singleLine(event))\n".utf8) }
        if let id { bytes += Array("id: \(Self.singleLine(id))\n".utf8) }
        Self.appendDataLines(of: data, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
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

    /// Appends a `data:` line for each line of `text`, split at CRLF, CR or LF as the event-stream
    /// format does. Works on the UTF-8 bytes: a payload (a trip's JSON) may be large.
    private static func appendDataLines(of text: String, to bytes: inout [UInt8]) {
        let prefix: [UInt8] = Array("data: ".utf8)
        let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        let source = Array(text.utf8)
        var start = 0
        var index = 0
        bytes += prefix
        while index < source.count {
            let byte = source[index]
            if byte == lf || byte == cr {
                bytes += source[start..<index]
                bytes.append(lf)
                bytes += prefix
                index += (byte == cr && index + 1 < source.count && source[index + 1] == lf) ? 2 : 1
                start = index
            } else {
                index += 1
            }
        }
        bytes += source[start..<source.count]
        bytes.append(lf)
    }

    /// The text without CR and LF (they would end the field early); NUL is dropped too.
    private static func singleLine(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" && $0 != "\0" })
    }
}
