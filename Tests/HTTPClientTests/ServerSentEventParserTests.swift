import HTTPClient
import Testing
import HTTPCore

@Suite("Server-sent event parsing")
struct ServerSentEventParserTests {
    static let fixture = TestHTTPServer.eventStreamPieces.joined()

    static let expectedFixtureEvents = [
        ServerSentEvent(event: "greeting", data: "hello", id: "1"),
        ServerSentEvent(data: "first line\nsecond line\nthird line without space", id: "1"),
        ServerSentEvent(event: "update", data: #"{"x":1}"#, id: "2", reconnectionTime: .milliseconds(2500)),
        ServerSentEvent(data: "last", id: "2", reconnectionTime: .milliseconds(2500)),
    ]

    /// Feeds `text` in pieces of `chunkSize` bytes and collects every event.
    static func parse(_ text: String, chunkSize: Int) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        let bytes = Array(text.utf8)
        var events: [ServerSentEvent] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunkSize)
            events += parser.consume(bytes[start..<end])
            start = end
        }
        return events
    }

    @Test("the same events whatever the chunk size, byte by byte included", arguments: [1, 2, 3, 5, 7, 64, 10_000])
    func chunking(chunkSize: Int) {
        #expect(Self.parse(Self.fixture, chunkSize: chunkSize) == Self.expectedFixtureEvents)
    }

    @Test("a CRLF split between chunks ends one line, not two")
    func splitCRLF() {
        var parser = ServerSentEventParser()
        var events = parser.consume(Array("data: a\r".utf8))
        events += parser.consume(Array("\ndata: b\r\n".utf8))
        #expect(events.isEmpty)
        events += parser.consume(Array("\r\n".utf8))
        #expect(events == [ServerSentEvent(data: "a\nb")])
    }

    @Test("CR alone, LF alone and CRLF all end lines")
    func lineEnds() {
        let text = "data: cr\r\rdata: lf\n\ndata: crlf\r\n\r\n"
        #expect(Self.parse(text, chunkSize: 1).map(\.data) == ["cr", "lf", "crlf"])
    }

    @Test("comments are ignored and a blank line without data dispatches nothing")
    func comments() {
        let text = ": only a comment\n\n:another\r\n\r\nevent: lonely\n\ndata: kept\n\n"
        let events = Self.parse(text, chunkSize: 4)
        #expect(events == [ServerSentEvent(data: "kept")])  // the type of a data-less event does not leak
    }

    @Test("one space after the colon is dropped, no more; a field without a colon has an empty value")
    func fieldValues() {
        let text = "data:  two spaces\ndata\ndata:\n\n"
        #expect(Self.parse(text, chunkSize: 3).map(\.data) == [" two spaces\n\n"])
    }

    @Test("an empty data field still makes an event")
    func emptyData() {
        #expect(Self.parse("data\n\n", chunkSize: 1) == [ServerSentEvent(data: "")])
    }

    @Test("the event type applies to one event only")
    func typeResets() {
        let events = Self.parse("event: a\ndata: 1\n\ndata: 2\n\n", chunkSize: 2)
        #expect(events.map(\.type) == ["a", "message"])
    }

    @Test("ids persist across events; an empty id resets; an id containing NUL is ignored")
    func ids() {
        let text = "id: 7\ndata: a\n\ndata: b\n\nid: x\u{0}y\ndata: c\n\nid\ndata: d\n\n"
        let events = Self.parse(text, chunkSize: 5)
        #expect(events.map(\.id) == ["7", "7", "7", nil])
    }

    @Test("retry takes digits only")
    func retry() {
        let text = "retry: 1500\ndata: a\n\nretry: soon\ndata: b\n\nretry: -3\ndata: c\n\nretry: 20\ndata: d\n\n"
        let events = Self.parse(text, chunkSize: 1)
        #expect(events.map(\.reconnectionTime) == [.milliseconds(1500), .milliseconds(1500), .milliseconds(1500), .milliseconds(20)])
    }

    @Test("a leading byte order mark is dropped")
    func byteOrderMark() {
        #expect(Self.parse("\u{FEFF}data: x\n\n", chunkSize: 1) == [ServerSentEvent(data: "x")])
    }

    @Test("an event without its blank line is never dispatched")
    func unfinishedEvent() {
        #expect(Self.parse("data: complete\n\ndata: cut", chunkSize: 1).map(\.data) == ["complete"])
    }

    @Test("unknown fields are ignored; multi-byte UTF-8 split across chunks survives")
    func unknownFieldsAndUTF8() {
        let text = "foo: bar\ndata: café → 🚕\n\n"
        #expect(Self.parse(text, chunkSize: 1) == [ServerSentEvent(data: "café → 🚕")])
    }
}
