import Dispatch
import Foundation
import Glibc
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 for the client's tests: POSIX sockets, one thread per
/// connection, keep-alive, and a fixed set of routes that each exercise one client behaviour.
///
/// Routes: `/fixed`, `/echo` (method, headers and body sent back), `/hang` (never answers; waits
/// for the client to hang up), `/sse` (a finite event stream in mixed line endings), `/sse/five-then-hold`,
/// `/sse/one-then-hold`, `/sse/echo-headers` (one event per request header), `/close-mid-body`, `/reset` (RST after the request), `/not-found` (404 with
/// Google's error JSON). Counts accepted connections.
final class TestHTTPServer: Sendable {
    /// The port the server listens on.
    let port: Int
    /// Signalled each time a `/hang` or `*-then-hold` request has been read and answered as far as it goes.
    let holding = DispatchSemaphore(value: 0)
    private let listener: Int32
    private let state = Mutex(State())

    private struct State {
        var acceptedConnections = 0
        var openConnections: Set<Int32> = []
        var stopped = false
    }

    /// The body of `/not-found`: Google's error JSON.
    static let notFoundJSON = #"{"error":{"code":404,"message":"Trip providers/p/trips/t not found.","status":"NOT_FOUND"}}"#

    /// The raw body of `/sse`, in the pieces it is written in: comments, CRLF, LF and CR line ends,
    /// multi-line data, `retry:`, a blank line without data, and an unfinished event at the end.
    static let eventStreamPieces: [String] = [
        ": comment at the start\r\n",
        "event: greeting\r\nid: 1\r\nda", "ta: hello\r", "\n\r\n",
        "data: first line\ndata: second line\ndata:third line without space\n\n",
        "retry: 2500\revent: update\rid: 2\rdata: {\"x\":1}\r\r",
        ": heartbeat\n\n",
        "data: last\r\n\r\n",
        "data: unfinished\n",
    ]

    /// Starts listening on an ephemeral port.
    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestServerError(what: "socket", code: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            close(fd)
            throw TestServerError(what: "bind/listen", code: errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    /// The base URL, `http://127.0.0.1:PORT`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The number of TCP connections accepted so far.
    var acceptedConnections: Int { state.withLock { $0.acceptedConnections } }

    /// Stops accepting and hangs up every open connection.
    func stop() {
        state.withLock { state in
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for connection in state.openConnections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            let admitted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.acceptedConnections += 1
                state.openConnections.insert(connection)
                return true
            }
            guard admitted else {
                close(connection)
                break
            }
            Thread { [self] in
                serve(connection)
                state.withLock { _ = $0.openConnections.remove(connection) }
                close(connection)
            }.start()
        }
        close(listener)
    }

    private func serve(_ connection: Int32) {
        var reader = TestRequestReader(socket: connection)
        while let request = reader.next() {
            guard respond(to: request, on: connection) else { return }
        }
    }

    /// Answers one request; false when the connection must close afterwards.
    private func respond(to request: TestRequest, on connection: Int32) -> Bool {
        switch request.path {
        case "/fixed":
            let body = request.method == "HEAD" ? [] : Array("hello".utf8)
            let head = Self.head(status: 200, reason: "OK",
                                 headers: [("Content-Type", "text/plain"), ("X-Fixed", "yes"), ("Content-Length", "5")])
            return write(head + body, to: connection)
        case "/echo":
            var headers = [("X-Echo-Method", request.method)]
            headers += request.headers.map { ("X-Echo-\($0.name)", $0.value) }
            return write(Self.response(status: 200, reason: "OK", headers: headers, body: request.body), to: connection)
        case "/not-found":
            return write(Self.response(status: 404, reason: "Not Found", headers: [("Content-Type", "application/json")],
                                       body: Array(Self.notFoundJSON.utf8)), to: connection)
        case "/hang":
            holding.signal()
            Self.waitForHangUp(connection)
            return false
        case "/sse":
            guard write(Self.eventStreamHead, to: connection) else { return false }
            for piece in Self.eventStreamPieces {
                guard write(Array(piece.utf8), to: connection) else { return false }
            }
            return false  // the stream ends when the connection closes
        case "/sse/echo-headers":
            var bytes = Self.eventStreamHead
            for (name, value) in request.headers { bytes += Array("data: \(name): \(value)\n\n".utf8) }
            _ = write(bytes, to: connection)
            return false
        case "/sse/five-then-hold", "/sse/one-then-hold":
            let count = request.path == "/sse/five-then-hold" ? 5 : 1
            var bytes = Self.eventStreamHead
            for number in 1...count { bytes += Array("id: \(number)\ndata: event \(number)\n\n".utf8) }
            guard write(bytes, to: connection) else { return false }
            holding.signal()
            Self.waitForHangUp(connection)
            return false
        case "/close-mid-body":
            _ = write(Self.head(status: 200, reason: "OK", headers: [("Content-Length", "100")]) + Array("0123456789".utf8),
                      to: connection)
            return false
        case "/reset":
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)  // close() now sends RST
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            return false
        default:
            return write(Self.response(status: 404, reason: "Not Found", headers: [], body: Array("no route".utf8)), to: connection)
        }
    }

    private static let eventStreamHead = head(status: 200, reason: "OK",
                                              headers: [("Content-Type", "text/event-stream"), ("Connection", "close")])

    private static func head(status: Int, reason: String, headers: [(String, String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    private static func response(status: Int, reason: String, headers: [(String, String)], body: [UInt8]) -> [UInt8] {
        head(status: status, reason: reason, headers: headers + [("Content-Length", "\(body.count)")]) + body
    }

    /// Writes all of `bytes`; false if the peer is gone.
    private func write(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Blocks until the client closes the connection (or the server is stopped): no timer involved.
    private static func waitForHangUp(_ connection: Int32) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            let received = scratch.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if received < 0, errno == EINTR { continue }
            if received <= 0 { return }
        }
    }
}

/// A socket call of the test server failed.
struct TestServerError: Error {
    let what: String
    let code: Int32
}
