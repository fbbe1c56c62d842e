import FleetErrors
import Foundation
import Glibc
import HTTPServer
import Testing

@Suite("Starting and stopping")
struct LifecycleTests {
    @Test func ephemeralPortIsReported() throws {
        let server = HTTPServer(configuration: .init(host: "localhost", port: 0, accessLog: { _ in })) { _ in .response(.text("hi")) }
        defer { server.stop(gracePeriod: .zero) }
        let address = try server.start()
        #expect(address.host == "127.0.0.1")
        #expect(address.port > 0)
        #expect(server.boundAddress == address)
        #expect(address.description == "127.0.0.1:\(address.port)")
        let connection = try RawHTTPConnection(port: address.port)
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().text == "hi")
        #expect(server.openConnectionCount == 1)
    }

    @Test(.enabled(if: RawHTTPConnection.hasIPv6Loopback))
    func ipv6LiteralsAreServed() throws {
        let seen = Box("")
        let server = HTTPServer(configuration: .init(host: "[::1]", port: 0, accessLog: { _ in })) { request in
            seen.value = request.remoteAddress
            return .response(.text("six"))
        }
        defer { server.stop(gracePeriod: .zero) }
        let address = try server.start()
        #expect(address.host == "::1")
        #expect(address.description == "[::1]:\(address.port)")
        let connection = try RawHTTPConnection(host: "::1", port: address.port)
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().text == "six")
        #expect(seen.value == "::1")
    }

    @Test func aPortInUseSaysSo() throws {
        let first = try TestServer(handler: echo)
        let second = HTTPServer(configuration: .init(host: "127.0.0.1", port: first.port, diagnostics: { _ in })) { _ in .response(.text("")) }
        #expect {
            try second.start()
        } throws: { error in
            (error as? FleetError)?.cause == ErrorCause.addressInUse.id
        }
    }

    @Test(arguments: ["example.com", "256.1.1.1", "", "::g"])
    func hostsThatAreNotIPLiteralsAreRefused(host: String) {
        let server = HTTPServer(configuration: .init(host: host, port: 0)) { _ in .response(.text("")) }
        #expect {
            try server.start()
        } throws: { error in
            (error as? FleetError)?.cause == ErrorCause.badListenAddress.id && (error as? FleetError)?.field == "host"
        }
    }

    @Test func portOutOfRangeIsRefused() {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 70_000)) { _ in .response(.text("")) }
        #expect(throws: FleetError.self) { try server.start() }
    }

    @Test func startingTwiceIsRefused() throws {
        let server = try TestServer(handler: echo)
        #expect(throws: FleetError.self) { try server.server.start() }
    }

    @Test func gracefulStopFinishesTheRequestInFlightAndRefusesNewConnections() throws {
        let entered = Signal(), gate = Signal(), stopped = Signal()
        let server = try TestServer { request in
            if request.path == "/slow" {
                entered.fire()
                _ = gate.wait()
                return .response(.text("slow done"))
            }
            return echo(request)
        }
        let slow = try server.connect()
        try slow.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(entered.wait())
        Thread.detachNewThread {
            server.server.stop(gracePeriod: .seconds(60))
            stopped.fire()
        }
        #expect(waitUntilConnectionsAreRefused(port: server.port))
        #expect(!stopped.wait(seconds: 0), "stop must wait for the request in flight")
        gate.fire()
        let response = try slow.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "slow done")
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(stopped.wait())
        #expect(server.accessLog.map(\.status) == [200])
        #expect(server.server.boundAddress == nil)
    }

    @Test func stopAcceptingKeepsServingOpenConnections() throws {
        let server = try TestServer(handler: echo)
        let open = try server.connect()
        try open.send("GET /before HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try open.readResponse().header("Connection") == nil)
        server.server.stopAccepting()
        #expect(throws: POSIXError(.ECONNREFUSED)) { try server.connect() }
        try open.send("GET /during HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try open.readResponse()
        #expect(response.text.hasPrefix("GET /during"))
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(open.isClosedByServer())
        server.server.stop(gracePeriod: .seconds(10))
    }

    @Test func stopClosesOpenEventStreams() throws {
        let opened = Signal(), closed = Signal()
        let reason = Box<EventStream.CloseReason?>(nil)
        let server = try TestServer { _ in
            let stream = EventStream()
            stream.onClose { why in
                reason.value = why
                closed.fire()
            }
            stream.send(data: "hello")
            opened.fire()
            return .eventStream(stream)
        }
        let connection = try server.connect()
        try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(opened.wait())
        _ = try connection.readHead()
        var reader = EventStreamReader(connection: connection)
        #expect(try reader.next()?.data == "hello")
        server.server.stop(gracePeriod: .seconds(10))
        #expect(closed.wait())
        #expect(reason.value == .serverStopping)
        #expect(try reader.remainingEvents() == [])
        #expect(reader.ended)
    }

    @Test func stopWithoutGraceClosesParkedStreams() throws {
        let opened = Signal(), closed = Signal()
        let server = try TestServer { _ in
            let stream = EventStream()
            stream.onClose { _ in closed.fire() }
            opened.fire()
            return .eventStream(stream)
        }
        var connections: [RawHTTPConnection] = []
        for _ in 0..<20 {
            let connection = try server.connect()
            try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            connections.append(connection)
        }
        for _ in 0..<20 { #expect(opened.wait()) }
        server.server.stop(gracePeriod: .zero)
        for _ in 0..<20 { #expect(closed.wait()) }
        #expect(server.server.openEventStreamCount == 0)
    }

    @Test func nothingOutlivesTheServerAfterAMixOfEndings() throws {
        let weakStreams = Box<[WeakReference<EventStream>]>([])
        let streamOpened = Signal()
        let server = try TestServer(configure: { $0.maxRequestBodyBytes = 100 }) { request in
            guard request.path == "/events" else { return echo(request) }
            let stream = EventStream()
            stream.send(data: "hi")
            weakStreams.update { $0.append(WeakReference(stream)) }
            streamOpened.fire()
            return .eventStream(stream)
        }
        // Answered, refused for size, abandoned mid-body, a stream whose client vanished, a stream still open.
        let plain = try server.connect()
        try plain.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try plain.readResponse().status == 200)
        let tooBig = try server.connect()
        try tooBig.send("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n")
        #expect(try tooBig.readResponse().status == 413)
        let abandoned = try server.connect()
        try abandoned.send("POST /short HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\nExpect: 100-continue\r\n\r\n")
        _ = try abandoned.readHead()
        try abandoned.send("part")
        abandoned.reset()
        let vanished = try server.connect()
        try vanished.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try vanished.readHead()
        vanished.reset()
        let open = try server.connect()
        try open.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try open.readHead()
        #expect(streamOpened.wait() && streamOpened.wait())

        server.server.stop(gracePeriod: .seconds(10))
        #expect(server.server.requestsInFlight == 0)
        #expect(server.server.openEventStreamCount == 0)
        #expect(weakStreams.value.count == 2)
        #expect(weakStreams.value.allSatisfy { $0.object == nil }, "libmicrohttpd released every stream")
        #expect(server.accessLog.map(\.status).sorted() == [0, 200, 200, 200, 413])
    }

    /// Connects until the server refuses (it has stopped listening); false if it never does within 20 s.
    private func waitUntilConnectionsAreRefused(port: Int) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        while ContinuousClock.now < deadline {
            do {
                try RawHTTPConnection(port: port).close()
                sched_yield()
            } catch let error as POSIXError where error.code == .ECONNREFUSED {
                return true
            } catch {
                // A connection caught in the backlog while listening stops is reset; try again.
                sched_yield()
            }
        }
        return false
    }
}
