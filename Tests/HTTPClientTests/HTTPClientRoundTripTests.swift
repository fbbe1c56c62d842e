import FleetErrors
import HTTPClient
import Testing

@Suite("HTTP client round trips")
struct HTTPClientRoundTripTests {
    @Test("a GET returns status, case-insensitive headers and body")
    func fixedGET() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let response = try await onThread { try client.send(HTTPClientRequest(url: server.baseURL + "/fixed")) }
        #expect(response.status == 200)
        #expect(response.isSuccess)
        #expect(response.bodyText == "hello")
        #expect(response.headers["x-fixed"] == "yes")
        #expect(response.headers["CONTENT-TYPE"] == "text/plain")
    }

    @Test("a HEAD returns the headers and no body")
    func head() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let response = try await onThread { try client.send(HTTPClientRequest(method: .head, url: server.baseURL + "/fixed")) }
        #expect(response.status == 200)
        #expect(response.headers["Content-Length"] == "5")
        #expect(response.body.isEmpty)
    }

    @Test("method, headers and body reach the server intact", arguments: [HTTPMethod.post, .put, .patch, .delete, .get])
    func echo(method: HTTPMethod) async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let body: [UInt8]? = method == .get ? nil : Array(#"{"name":"providers/p/trips/t1","café":"✓"}"#.utf8)
        let request = HTTPClientRequest(method: method, url: server.baseURL + "/echo",
                                        headers: [("Authorization", "Bearer token-123"), ("Content-Type", "application/json"),
                                                  ("X-Empty", "")],
                                        body: body)
        let response = try await onThread { try client.send(request) }
        #expect(response.status == 200)
        #expect(response.headers["X-Echo-Method"] == method.rawValue)
        #expect(response.headers["X-Echo-Authorization"] == "Bearer token-123")
        #expect(response.headers["X-Echo-Content-Type"] == "application/json")
        #expect(response.headers["X-Echo-X-Empty"] == "")
        #expect(response.headers["X-Echo-Expect"] == nil)
        #expect(response.body == (body ?? []))
        if let body { #expect(response.headers["X-Echo-Content-Length"] == "\(body.count)") }
    }

    @Test("a body-carrying method without a body sends Content-Length 0 and no form content type",
          arguments: [HTTPMethod.post, .put])
    func emptyBody(method: HTTPMethod) async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let response = try await onThread { try client.send(HTTPClientRequest(method: method, url: server.baseURL + "/echo")) }
        #expect(response.headers["X-Echo-Method"] == method.rawValue)
        #expect(response.headers["X-Echo-Content-Length"] == "0")
        #expect(response.headers["X-Echo-Content-Type"] == nil)
        #expect(response.body.isEmpty)
    }

    @Test("a 2 MB POST goes without Expect: 100-continue and comes back whole")
    func largeBody() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let body = (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let response = try await onThread {
            try client.send(HTTPClientRequest(method: .post, url: server.baseURL + "/echo", body: body))
        }
        #expect(response.headers["X-Echo-Expect"] == nil)
        #expect(response.body == body)
    }

    @Test("Accept-Encoding is offered only when the configuration asks for it", arguments: [false, true])
    func acceptEncoding(enabled: Bool) async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient(configuration: HTTPClientConfiguration(acceptsCompressedResponses: enabled))
        let response = try await onThread { try client.send(HTTPClientRequest(url: server.baseURL + "/echo")) }
        let offered = response.headers["X-Echo-Accept-Encoding"]
        #expect(enabled ? offered?.contains("gzip") == true : offered == nil)
        #expect(response.headers["X-Echo-User-Agent"] == client.configuration.userAgent)
    }

    @Test("a non-2xx status is a response with its body, not an error")
    func notFound() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let response = try await onThread { try client.send(HTTPClientRequest(url: server.baseURL + "/not-found")) }
        #expect(response.status == 404)
        #expect(!response.isSuccess)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.bodyText == TestHTTPServer.notFoundJSON)
    }

    @Test("50 sequential calls on one thread use one connection")
    func connectionReuse() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let statuses = try await onThread {
            try (0..<50).map { index in
                let path = index.isMultiple(of: 2) ? "/fixed" : "/echo"
                return try client.send(HTTPClientRequest(method: .post, url: server.baseURL + path, body: [UInt8(index)])).status
            }
        }
        #expect(statuses == Array(repeating: 200, count: 50))
        #expect(server.acceptedConnections == 1)
    }

    @Test("8 threads calling at once each get their own answers, over at most 8 connections")
    func concurrentCalls() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let mismatches = try await onThreads(8) { thread in
            var mismatches = 0
            for call in 0..<25 {
                let body = Array("thread \(thread) call \(call)".utf8)
                let response = try client.send(HTTPClientRequest(method: .put, url: server.baseURL + "/echo",
                                                                 headers: [("X-Thread", "\(thread)")], body: body))
                if response.body != body || response.headers["X-Echo-X-Thread"] != "\(thread)" { mismatches += 1 }
            }
            return mismatches
        }
        #expect(mismatches == Array(repeating: 0, count: 8))
        #expect(server.acceptedConnections <= 8)
    }

    @Test("the async wrapper returns the same response")
    func asyncSend() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let client = try HTTPClient()
        let response = try await client.send(HTTPClientRequest(url: server.baseURL + "/fixed"))
        #expect(response.bodyText == "hello")
    }
}
