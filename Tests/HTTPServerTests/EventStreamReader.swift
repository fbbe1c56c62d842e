/// Reads server-sent events from a chunked `text/event-stream` body on a raw connection.
struct EventStreamReader {
    struct Event: Equatable {
        var event: String?
        var data: String
        var id: String?
    }

    let connection: RawHTTPConnection
    private var text = ""
    /// Comment lines seen (without the leading colon and space).
    private(set) var comments: [String] = []
    /// Whether the last chunk (end of stream) was read.
    private(set) var ended = false

    init(connection: RawHTTPConnection) {
        self.connection = connection
    }

    /// The next event (comments are collected on the side); nil when the stream ends first.
    mutating func next() throws -> Event? {
        while true {
            if let block = takeBlock() {
                if let event = parse(block) { return event }
                continue
            }
            guard !ended, let chunk = try connection.readChunk() else {
                ended = true
                return nil
            }
            text += String(decoding: chunk, as: UTF8.self)
        }
    }

    /// Reads chunks until the stream ends; returns the events that came before.
    mutating func remainingEvents() throws -> [Event] {
        var events: [Event] = []
        while let event = try next() { events.append(event) }
        return events
    }

    private mutating func takeBlock() -> String? {
        guard let range = text.range(of: "\n\n") else { return nil }
        let block = String(text[..<range.lowerBound])
        text.removeSubrange(..<range.upperBound)
        return block
    }

    /// An event from one block of lines, or nil for a block of comments and `retry:` only.
    private mutating func parse(_ block: String) -> Event? {
        var event = Event(event: nil, data: "", id: nil)
        var dataLines: [String] = []
        var hasFields = false
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                comments.append(String(line.dropFirst().drop { $0 == " " }))
                continue
            }
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            var value = parts.count > 1 ? String(parts[1]) : ""
            if value.hasPrefix(" ") { value.removeFirst() }
            switch name {
            case "event": event.event = value; hasFields = true
            case "id": event.id = value; hasFields = true
            case "data": dataLines.append(value); hasFields = true
            default: break
            }
        }
        guard hasFields else { return nil }
        event.data = dataLines.joined(separator: "\n")
        return event
    }
}
