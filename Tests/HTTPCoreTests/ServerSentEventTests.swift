import HTTPCore
import Testing

@Suite("Server-sent events")
struct ServerSentEventTests {
    @Test func eventsAreFramedLineByLine() {
        let event = ServerSentEvent(event: "update", data: "line one\nline two\r\nline three\rend", id: "42")
        #expect(String(decoding: event.encoded, as: UTF8.self)
            == "event: update\nid: 42\ndata: line one\ndata: line two\ndata: line three\ndata: end\n\n")
        #expect(String(decoding: ServerSentEvent(data: "").encoded, as: UTF8.self) == "data: \n\n")
    }

    @Test func lineBreaksCannotInjectFields() {
        let event = ServerSentEvent(event: "a\nid: forged", data: "x", id: "1\r\ndata: forged")
        #expect(String(decoding: event.encoded, as: UTF8.self) == "event: aid: forged\nid: 1data: forged\ndata: x\n\n")
        #expect(String(decoding: ServerSentEvent.comment("keep\nalive"), as: UTF8.self) == ": keepalive\n\n")
        #expect(String(decoding: ServerSentEvent.retry(after: .milliseconds(2500)), as: UTF8.self) == "retry: 2500\n\n")
    }
}
