import FleetErrors
import Foundation
import Glibc
import HTTPClient
import Testing
import FleetConcurrency

@Suite("HTTP client failures")
struct HTTPClientFailureTests {
    /// A port nobody listens on: bound, then closed without listening.
    static func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw TestServerError(what: "bind", code: errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test("a call past its deadline fails DEADLINE_EXCEEDED")
    func deadline() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let url = server.baseURL + "/hang"
        let error = await #expect(throws: FleetError.self) {
            try await onThread { try client.send(HTTPClientRequest(url: url, timeout: .milliseconds(300))) }
        }
        #expect(error?.code == .deadlineExceeded)
        #expect(error?.cause == ErrorCause.callDeadlineExceeded.id)
        #expect(error?.message.contains(url) == true)
        #expect(error?.requestMayHaveBeenSent == true)
    }

    @Test("the client's default timeout applies when the request sets none")
    func defaultTimeout() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient(configuration: HTTPClientConfiguration(defaultTimeout: .milliseconds(200)))
        let error = await #expect(throws: FleetError.self) {
            try await onThread { try client.send(HTTPClientRequest(url: server.baseURL + "/hang")) }
        }
        #expect(error?.code == .deadlineExceeded)
    }

    @Test("a refused connection fails UNAVAILABLE, naming the URL, and was not sent")
    func refused() async throws {
        let url = "http://127.0.0.1:\(try Self.closedPort())/v1/providers/p/trips/t"
        let client = try HTTPClient()
        let error = await #expect(throws: FleetError.self) {
            try await onThread { try client.send(HTTPClientRequest(method: .post, url: url, body: [1])) }
        }
        #expect(error?.code == .unavailable)
        #expect(error?.cause == ErrorCause.serverUnreachable.id)
        #expect(error?.message.contains("POST \(url)") == true)
        #expect(error?.requestMayHaveBeenSent == false)
        #expect(error?.retryClass == .retryable)
    }

    @Test("a host that does not resolve fails UNAVAILABLE")
    func unresolvableHost() async throws {
        let client = try HTTPClient()
        let error = await #expect(throws: FleetError.self) {
            try await onThread { try client.send(HTTPClientRequest(url: "http://no-such-host.invalid/", timeout: .seconds(20))) }
        }
        #expect(error?.code == .unavailable)
        #expect(error?.cause == ErrorCause.serverUnreachable.id)
    }

    @Test("a connection closed in the middle of the body fails UNAVAILABLE after sending")
    func closedMidBody() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let error = await #expect(throws: FleetError.self) {
            try await onThread { try client.send(HTTPClientRequest(url: server.baseURL + "/close-mid-body")) }
        }
        #expect(error?.code == .unavailable)
        #expect(error?.cause == ErrorCause.connectionLost.id)
        #expect(error?.requestMayHaveBeenSent == true)
    }

    @Test("a connection reset fails UNAVAILABLE after sending")
    func reset() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let error = await #expect(throws: FleetError.self) {
            try await onThread { try client.send(HTTPClientRequest(method: .put, url: server.baseURL + "/reset", body: [1, 2])) }
        }
        #expect(error?.code == .unavailable)
        #expect(error?.cause == ErrorCause.connectionLost.id)
    }

    @Test("https to a server that does not speak TLS fails UNAVAILABLE before sending")
    func tlsFailure() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let error = await #expect(throws: FleetError.self) {
            try await onThread { try client.send(HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/fixed")) }
        }
        #expect(error?.code == .unavailable)
        #expect(error?.cause == ErrorCause.tlsHandshakeFailed.id)
        #expect(error?.requestMayHaveBeenSent == false)
    }

    @Test("a header with a line break is refused before anything is sent")
    func headerInjection() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let request = HTTPClientRequest(url: server.baseURL + "/echo", headers: [("X-Bad", "a\r\nX-Injected: yes")])
        let error = await #expect(throws: FleetError.self) { try await onThread { try client.send(request) } }
        #expect(error?.code == .invalidArgument)
        #expect(error?.field == "headers")
        #expect(server.acceptedConnections == 0)
    }

    @Test("schemes other than http and https are refused", arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x", "not a url"])
    func badScheme(url: String) async throws {
        let client = try HTTPClient()
        let error = await #expect(throws: FleetError.self) { try await onThread { try client.send(HTTPClientRequest(url: url)) } }
        #expect(error?.code == .invalidArgument)
        #expect(error?.cause == ErrorCause.invalidHTTPRequest.id)
    }

    @Test("cancelling from another thread stops a call in progress with CANCELLED")
    func cancelSend() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let cancellation = Cancellation()
        Thread {
            server.holding.wait()  // the request is at the server
            cancellation.cancel()
        }.start()
        let error = await #expect(throws: FleetError.self) {
            try await onThread {
                try client.send(HTTPClientRequest(url: server.baseURL + "/hang", timeout: .seconds(60)), cancellation: cancellation)
            }
        }
        #expect(error?.code == .cancelled)
    }

    @Test("a call given a cancelled switch does not connect")
    func alreadyCancelled() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let cancellation = Cancellation()
        cancellation.cancel()
        let error = await #expect(throws: FleetError.self) {
            try await onThread { try client.send(HTTPClientRequest(url: server.baseURL + "/fixed"), cancellation: cancellation) }
        }
        #expect(error?.code == .cancelled)
        #expect(server.acceptedConnections == 0)
    }

    @Test("cancelling the task cancels the async call")
    func cancelAsyncSend() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let task = Task { try await client.send(HTTPClientRequest(url: server.baseURL + "/hang", timeout: .seconds(60))) }
        _ = try await onThread { server.holding.wait() }
        task.cancel()
        let error = await #expect(throws: FleetError.self) { try await task.value }
        #expect(error?.code == .cancelled)
    }

    @Test("the client still works after failures, on the same handles")
    func recoversAfterFailures() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let statuses = try await onThread {
            var statuses: [Int] = []
            for _ in 0..<3 {
                _ = try? client.send(HTTPClientRequest(url: server.baseURL + "/close-mid-body"))
                statuses.append(try client.send(HTTPClientRequest(url: server.baseURL + "/fixed")).status)
            }
            return statuses
        }
        #expect(statuses == [200, 200, 200])
    }
}
