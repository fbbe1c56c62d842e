import Foundation
import HTTPServer
import Testing

@Suite("Requests reach the handler whole")
struct RequestHandlingTests {
    @Test func getIsAnsweredWithTheHandlersResponse() throws {
        let seen = Box<HTTPRequest?>(nil)
        let server = try TestServer { request in
            seen.value = request
            return .response(HTTPResponse(status: 201, headers: [("X-Kind", "test"), ("X-Kind", "second")],
                                          body: Array("made".utf8)))
        }
        let connection = try server.connect()
        try connection.send("GET /v1/providers/p/trips/t HTTP/1.1\r\nHost: example\r\nX-Custom-Header: One\r\nx-custom-header: Two\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 201)
        #expect(response.text == "made")
        #expect(response.headers.filter { $0.name == "X-Kind" }.map(\.value) == ["test", "second"])
        let request = try #require(seen.value)
        #expect(request.method == "GET")
        #expect(request.path == "/v1/providers/p/trips/t")
        #expect(request.httpVersion == "HTTP/1.1")
        #expect(request.remoteAddress == "127.0.0.1")
        #expect(request.headers["host"] == "example")
        #expect(request.headers["X-CUSTOM-HEADER"] == "One")
        #expect(request.headers.values(for: "x-custom-header") == ["One", "Two"])
        #expect(request.body.isEmpty)
    }

    @Test func postBodyArrivesByteForByte() throws {
        let server = try TestServer { request in .response(HTTPResponse(body: request.body.reversed())) }
        let body: [UInt8] = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let connection = try server.connect()
        try connection.send(Array("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.body == body.reversed())
    }

    @Test func chunkedUploadIsReassembled() throws {
        let server = try TestServer(handler: echo)
        let connection = try server.connect()
        try connection.send("POST /chunks HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        try connection.send("5\r\nhello\r\n")
        try connection.send("1;ext=1\r\n \r\n6\r\nworld!\r\n0\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.text == "POST /chunks HTTP/1.1\nbody hello world!\n")
    }

    @Test func keepAliveCarriesSeveralRequests() throws {
        let server = try TestServer(handler: echo)
        let connection = try server.connect()
        for index in 0..<5 {
            try connection.send("GET /n/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().text == "GET /n/\(index) HTTP/1.1\nbody \n")
        }
        #expect(server.waitForAccessLog(count: 5).map(\.path) == (0..<5).map { "/n/\($0)" })
    }

    @Test func unknownMethodsAreTheHandlersBusiness() throws {
        let server = try TestServer { request in .response(.text(request.method, status: request.method == "BREW" ? 418 : 405)) }
        let connection = try server.connect()
        try connection.send("BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 418)
        #expect(response.text == "BREW")
    }

    @Test func queryKeepsOrderRepeatsAndDecodes() throws {
        let seen = Box<[HTTPQueryItem]>([])
        let server = try TestServer { request in
            seen.value = request.query
            return .response(.text("ok"))
        }
        let connection = try server.connect()
        try connection.send("GET /q?a=1&b=x+y&a=2&c=%2B%26%3D&flag&e=caf%C3%A9&bad=%zz&%41%42=%20 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().status == 200)
        #expect(seen.value == [
            HTTPQueryItem(name: "a", value: "1"), HTTPQueryItem(name: "b", value: "x y"),
            HTTPQueryItem(name: "a", value: "2"), HTTPQueryItem(name: "c", value: "+&="),
            HTTPQueryItem(name: "flag", value: ""), HTTPQueryItem(name: "e", value: "café"),
            HTTPQueryItem(name: "bad", value: "%zz"), HTTPQueryItem(name: "AB", value: " "),
        ])
    }

    @Test func pathKeepsEscapesSoTheRouterCanTellSlashesApart() throws {
        let seen = Box<HTTPRequest?>(nil)
        let server = try TestServer { request in
            seen.value = request
            return .response(.text("ok"))
        }
        let connection = try server.connect()
        try connection.send("GET /v1/a%2Fb/../%2e%2E/caf%C3%A9?x=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().status == 200)
        let request = try #require(seen.value)
        #expect(request.path == "/v1/a%2Fb/../%2e%2E/caf%C3%A9")
        #expect(request.pathSegments == ["v1", "a/b", "..", "..", "café"])
        #expect(request.queryValue("x") == "1")
    }

    @Test func oddBytesInThePathDoNotCrash() throws {
        let seen = Box<[String]>([])
        let server = try TestServer { request in
            seen.update { $0.append(request.path) }
            return .response(.text(request.pathSegments == nil ? "unroutable" : "routable"))
        }
        let connection = try server.connect()
        try connection.send(Array("GET /a/".utf8) + [0xFF, 0xC3, 0x28, 0x01] + Array("/%00/%C3 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let response = try connection.readResponse()
        #expect(response.text == "unroutable")
        #expect(seen.value == ["/a/%FF%C3(%01/%00/%C3"])
        // The server is still serving.
        let next = try server.connect()
        try next.send("GET /fine HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try next.readResponse().text == "routable")
    }

    @Test func accessLogHasOneEntryPerRequest() throws {
        let server = try TestServer { request in .response(HTTPResponse(status: 404, body: Array("missing".utf8))) }
        let connection = try server.connect()
        try connection.send("DELETE /gone HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try connection.readResponse()
        let log = server.waitForAccessLog(count: 1)
        let entry = try #require(log.first)
        #expect(log.count == 1)
        #expect(entry.method == "DELETE")
        #expect(entry.path == "/gone")
        #expect(entry.status == 404)
        #expect(entry.bodyBytes == 7)
        #expect(entry.remoteAddress == "127.0.0.1")
        #expect(entry.outcome == .completed)
        #expect(entry.durationMilliseconds >= 0)
    }

    @Test func statusOutsideHTTPsRangeBecomes500() throws {
        let server = try TestServer { _ in .response(HTTPResponse(status: 42)) }
        let connection = try server.connect()
        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().status == 500)
    }
}
