import Foundation
import HTTPServer
import Testing

@Suite("Event streams")
struct EventStreamTests {
    /// A server whose every request opens a stream, handed to the test through `streams`.
    private func streamingServer(streams: Box<[EventStream]>, opened: Signal,
                                 prepare: @escaping @Sendable (EventStream) -> Void = { _ in },
                                 configure: (inout HTTPServer.Configuration) -> Void = { _ in }) throws -> TestServer {
        try TestServer(configure: configure) { request in
            if request.path != "/events" { return echo(request) }
            let stream = EventStream(headers: [("X-Stream", "yes")], maxBufferedBytes: 4096)
            prepare(stream)
            streams.update { $0.append(stream) }
            opened.fire()
            return .eventStream(stream)
        }
    }

    @Test func clientReceivesEventsInOrderAndItsDisconnectIsReported() throws {
        let streams = Box<[EventStream]>([]), opened = Signal(), closed = Signal()
        let reason = Box<EventStream.CloseReason?>(nil)
        let server = try streamingServer(streams: streams, opened: opened, prepare: { stream in
            stream.onClose { why in
                reason.value = why
                closed.fire()
            }
        })
        let connection = try server.connect()
        try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(opened.wait())
        let stream = try #require(streams.value.first)
        let head = try connection.readHead()
        #expect(head.hasPrefix("HTTP/1.1 200"))
        #expect(head.contains("Content-Type: text/event-stream"))
        #expect(head.contains("Transfer-Encoding: chunked"))
        #expect(head.contains("X-Stream: yes"))

        #expect(stream.send(event: "tick", data: "one", id: "1"))
        #expect(stream.send(data: "two\nlines"))
        #expect(stream.send(event: "tick", data: "three", id: "3"))
        var reader = EventStreamReader(connection: connection)
        #expect(try reader.next() == .init(event: "tick", data: "one", id: "1"))
        #expect(try reader.next() == .init(event: nil, data: "two\nlines", id: nil))
        #expect(try reader.next() == .init(event: "tick", data: "three", id: "3"))
        #expect(server.server.openEventStreamCount == 1)

        connection.reset()
        // The server learns of the disconnect when it next writes; keep writing until it does.
        var noticed = false
        for attempt in 0..<100 where !noticed {
            stream.send(data: "after \(attempt)")
            noticed = closed.wait(seconds: 0.2)
        }
        #expect(noticed)
        #expect(reason.value == .clientDisconnected)
        #expect(stream.isClosed)
        #expect(!stream.send(data: "too late"))
        let entry = try #require(server.waitForAccessLog(count: 1).first)
        #expect(entry.path == "/events")
        #expect(entry.status == 200)
        #expect(entry.outcome == .clientClosed)
        #expect(server.server.openEventStreamCount == 0)
    }

    @Test func eventsSentBeforeReturningGoFirstAndCloseEndsTheStreamCleanly() throws {
        let streams = Box<[EventStream]>([]), opened = Signal(), closed = Signal()
        let reason = Box<EventStream.CloseReason?>(nil)
        let server = try streamingServer(streams: streams, opened: opened, prepare: { stream in
            stream.send(event: "snapshot", data: "{\"state\":\"NEW\"}", id: "0")
            stream.onClose { why in
                reason.value = why
                closed.fire()
            }
        })
        let connection = try server.connect()
        try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(opened.wait())
        let stream = try #require(streams.value.first)
        _ = try connection.readHead()
        var reader = EventStreamReader(connection: connection)
        #expect(try reader.next() == .init(event: "snapshot", data: "{\"state\":\"NEW\"}", id: "0"))
        stream.sendComment("keepalive")
        stream.send(data: "last")
        stream.close()
        #expect(try reader.remainingEvents() == [.init(event: nil, data: "last", id: nil)])
        #expect(reader.comments == ["keepalive"])
        #expect(closed.wait())
        #expect(reason.value == .closedByApplication)
        // The stream ended with its last chunk, so the connection carries the next request.
        try connection.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().text.hasPrefix("GET /after"))
        #expect(server.waitForAccessLog(count: 2).first?.outcome == .completed)
    }

    @Test func onCloseRegisteredLateRunsAtOnce() throws {
        let streams = Box<[EventStream]>([]), opened = Signal(), closed = Signal()
        let server = try streamingServer(streams: streams, opened: opened)
        let connection = try server.connect()
        try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(opened.wait())
        let stream = try #require(streams.value.first)
        _ = try connection.readHead()
        stream.close()
        var reader = EventStreamReader(connection: connection)
        #expect(try reader.remainingEvents() == [])
        _ = server.waitForAccessLog(count: 1)
        let reason = Box<EventStream.CloseReason?>(nil)
        stream.onClose { why in
            reason.value = why
            closed.fire()
        }
        #expect(closed.wait(seconds: 0))
        #expect(reason.value == .closedByApplication)
    }

    @Test func tooMuchWaitingDataCutsTheStream() throws {
        let streams = Box<[EventStream]>([]), opened = Signal(), closed = Signal()
        let reason = Box<EventStream.CloseReason?>(nil)
        let server = try streamingServer(streams: streams, opened: opened, prepare: { stream in
            stream.onClose { why in
                reason.value = why
                closed.fire()
            }
        })
        let connection = try server.connect()
        try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(opened.wait())
        let stream = try #require(streams.value.first)
        // One event larger than the stream's 4 KiB buffer limit.
        #expect(!stream.send(data: String(repeating: "z", count: 5000)))
        #expect(stream.isClosed)
        #expect(closed.wait())
        #expect(reason.value == .slowClient)
    }

    @Test func hundredsOfIdleStreamsHoldNoThreads() throws {
        let count = 300
        let streams = Box<[EventStream]>([]), opened = Signal()
        let server = try streamingServer(streams: streams, opened: opened)
        var connections: [RawHTTPConnection] = []
        for _ in 0..<count {
            let connection = try server.connect()
            try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            connections.append(connection)
        }
        for _ in 0..<count { #expect(opened.wait()) }
        for connection in connections { #expect(try connection.readHead().hasPrefix("HTTP/1.1 200")) }
        #expect(server.server.openEventStreamCount == count)
        // With every stream parked, the two server threads still answer ordinary requests.
        let plain = try server.connect()
        try plain.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try plain.readResponse().status == 200)
        for (index, stream) in streams.value.enumerated() { stream.send(data: "\(index)") }
        var received = Set<String>()
        for connection in connections {
            var reader = EventStreamReader(connection: connection)
            if let event = try reader.next() { received.insert(event.data) }
        }
        #expect(received == Set((0..<count).map(String.init)))
    }
}
