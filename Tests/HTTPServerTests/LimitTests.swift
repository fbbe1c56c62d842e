import Foundation
import HTTPServer
import Testing

@Suite("Limits: oversized and broken requests are refused and the server keeps serving")
struct LimitTests {
    /// A server with a 1 KiB body limit and a recognisable error body.
    private func limitedServer(handled: Box<Int>) throws -> TestServer {
        try TestServer(configure: { configuration in
            configuration.maxRequestBodyBytes = 1024
            configuration.maxHeaderBytes = 8 * 1024
            configuration.errorBody = { status, message in
                HTTPResponse(status: status, headers: [("Content-Type", "application/json")],
                             body: Array(#"{"custom":\#(status),"message":"\#(message)"}"#.utf8))
            }
        }) { request in
            handled.update { $0 += 1 }
            return echo(request)
        }
    }

    private func expectStillServing(_ server: TestServer) throws {
        let connection = try server.connect()
        try connection.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text.hasPrefix("GET /after"))
    }

    @Test func declaredBodyOverTheLimitIsRefusedBeforeItIsSent() throws {
        let handled = Box(0)
        let server = try limitedServer(handled: handled)
        let connection = try server.connect()
        try connection.send("PUT /big HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(response.text == #"{"custom":413,"message":"The request body is larger than the server accepts: 5000 bytes; the limit is 1024 bytes"}"#)
        #expect(connection.isClosedByServer())
        #expect(handled.value == 0)
        try expectStillServing(server)
        #expect(server.waitForAccessLog(count: 2).first?.status == 413)
    }

    @Test func defaultErrorBodyIsGoogleShapedJSON() throws {
        let server = try TestServer(configure: { $0.maxRequestBodyBytes = 10 }, handler: echo)
        let connection = try server.connect()
        try connection.send("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.header("Content-Type") == "application/json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["code"] as? Int == 413)
        #expect(error["status"] as? String == "RESOURCE_EXHAUSTED")
        #expect((error["message"] as? String)?.contains("11 bytes; the limit is 10 bytes") == true)
    }

    @Test func chunkedBodyOverTheLimitIsRefused() throws {
        let handled = Box(0)
        let server = try limitedServer(handled: handled)
        let connection = try server.connect()
        let chunk = String(repeating: "x", count: 700)
        try connection.send("POST /big HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "2bc\r\n\(chunk)\r\n2bc\r\n\(chunk)\r\n0\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.text.contains("1400 bytes"))
        #expect(connection.isClosedByServer())
        #expect(handled.value == 0)
        try expectStillServing(server)
    }

    @Test func bodyAtTheLimitIsAccepted() throws {
        let handled = Box(0)
        let server = try limitedServer(handled: handled)
        let connection = try server.connect()
        try connection.send("POST /exact HTTP/1.1\r\nHost: x\r\nContent-Length: 1024\r\n\r\n" + String(repeating: "y", count: 1024))
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(handled.value == 1)
    }

    @Test func truncatedBodyEndsTheRequestWithoutCallingTheHandler() throws {
        let handled = Box(0)
        let server = try limitedServer(handled: handled)
        let connection = try server.connect()
        // "100 Continue" shows the headers were taken in: the server now holds a request to end.
        try connection.send("POST /short HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n")
        #expect(try connection.readHead() == "HTTP/1.1 100 Continue")
        try connection.send("only this")
        // A reset, not a half-close: libmicrohttpd 0.9.75 (epoll, edge-triggered) can miss an end of
        // file that arrives together with data, and then only the connection timeout ends the request.
        connection.reset()
        let log = server.waitForAccessLog(count: 1)
        #expect(log.first?.status == 0)
        #expect(log.first?.outcome == .clientClosed)
        #expect(handled.value == 0)
        try expectStillServing(server)
    }

    @Test func bytesBeyondContentLengthAreNotPartOfTheBody() throws {
        let handled = Box(0)
        let server = try limitedServer(handled: handled)
        let connection = try server.connect()
        try connection.send("POST /lie HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcdef\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.text == "POST /lie HTTP/1.1\nbody abc\n")
        try expectStillServing(server)
    }

    @Test func hugeHeadersAreRefusedWith431() throws {
        let handled = Box(0)
        let server = try limitedServer(handled: handled)
        let connection = try server.connect()
        try connection.send("GET /h HTTP/1.1\r\nHost: x\r\nX-Huge: \(String(repeating: "h", count: 7000))\r\nX-More: \(String(repeating: "m", count: 3000))\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 431)
        #expect(handled.value == 0)
        try expectStillServing(server)
    }
}
