import HTTPCore
/// Turns the bytes of a `text/event-stream` body into events, however the bytes are split into chunks.
///
/// Follows the WHATWG "event stream interpretation" rules: lines end with CRLF, LF or CR (a CRLF split
/// across chunks counts once); a leading UTF-8 BOM is dropped; lines starting with `:` are comments;
/// `field: value` loses one space after the colon; `data:` lines are joined with `\n`; `id:` values
/// containing NUL and non-numeric `retry:` values are ignored; an event is dispatched at a blank line
/// and only if it has data; an event left unfinished when the stream ends is discarded.
public struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var lastByteWasCR = false
    private var isFirstLine = true
    private var eventType = ""
    private var data = ""
    private var hasData = false
    private var lastEventID: String?
    private var reconnectionTime: Duration?

    /// A parser at the start of a stream.
    public init() {}

    /// Parses `bytes` and returns the events they complete, in order.
    public mutating func consume(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            consume(byte: byte) { events.append($0) }
        }
        return events
    }

    /// Parses a raw buffer (a libcurl write chunk), handing each completed event to `dispatch`.
    mutating func consume(_ buffer: UnsafeRawBufferPointer, dispatch: (ServerSentEvent) -> Void) {
        for byte in buffer {
            consume(byte: byte, dispatch: dispatch)
        }
    }

    private mutating func consume(byte: UInt8, dispatch: (ServerSentEvent) -> Void) {
        switch byte {
        case UInt8(ascii: "\n") where lastByteWasCR:
            lastByteWasCR = false  // the LF of a CRLF: the line already ended at the CR
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            lastByteWasCR = byte == UInt8(ascii: "\r")
            endLine(dispatch: dispatch)
        default:
            lastByteWasCR = false
            line.append(byte)
        }
    }

    private mutating func endLine(dispatch: (ServerSentEvent) -> Void) {
        defer { line.removeAll(keepingCapacity: true) }
        if isFirstLine {
            isFirstLine = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        if line.isEmpty {
            dispatchEvent(dispatch)
            return
        }
        if line.first == UInt8(ascii: ":") { return }
        let field: String
        var value: Substring
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: line[..<colon], as: UTF8.self)
            var valueStart = colon + 1
            if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
            value = Substring(String(decoding: line[valueStart...], as: UTF8.self))
        } else {
            field = String(decoding: line, as: UTF8.self)
            value = ""
        }
        apply(field: field, value: value)
    }

    private mutating func apply(field: String, value: Substring) {
        switch field {
        case "event":
            eventType = String(value)
        case "data":
            if hasData { data += "\n" }
            data += value
            hasData = true
        case "id":
            guard !value.contains("\u{0}") else { return }
            lastEventID = value.isEmpty ? nil : String(value)
        case "retry":
            guard !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let milliseconds = Int(value) else { return }
            reconnectionTime = .milliseconds(milliseconds)
        default:
            return  // unknown fields are ignored
        }
    }

    private mutating func dispatchEvent(_ dispatch: (ServerSentEvent) -> Void) {
        defer {
            eventType = ""
            data = ""
            hasData = false
        }
        guard hasData else { return }
        dispatch(ServerSentEvent(event: eventType.isEmpty || eventType == "message" ? nil : eventType, data: data,
                                 id: lastEventID, reconnectionTime: reconnectionTime))
    }
}
