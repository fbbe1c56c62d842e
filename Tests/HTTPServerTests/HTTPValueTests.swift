import HTTPServer
import Testing
import HTTPCore

@Suite("HTTP values")
struct HTTPValueTests {
    @Test func headersAreLookedUpWithoutRegardToCase() {
        var headers: HTTPHeaders = [("Content-Type", "text/plain"), ("Set-Cookie", "a=1"), ("set-cookie", "b=2")]
        #expect(headers["content-type"] == "text/plain")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers["Content-Length"] == nil)
        headers.set(name: "SET-cookie", value: "c=3")
        #expect(headers.values(for: "set-cookie") == ["c=3"])
        headers.remove(name: "content-TYPE")
        #expect(headers.count == 1)
        #expect(!headers.contains("Content-Type"))
    }

    @Test(arguments: [
        ("/", [String]?.some([])),
        ("/v1/providers/p/trips/t", ["v1", "providers", "p", "trips", "t"]),
        ("/a//b/", ["a", "", "b", ""]),
        ("/a%2Fb", ["a/b"]),
        ("/%2e%2E/.", ["..", "."]),
        ("/caf%C3%A9", ["café"]),
        ("/bad%zz", nil),
        ("/bad%C3", nil),
        ("/nul%00", nil),
        ("relative", nil),
        ("", nil),
    ])
    func pathSegmentsDecodeEachSegmentOnItsOwn(path: String, expected: [String]?) {
        #expect(HTTPRequest(method: "GET", path: path).pathSegments == expected)
    }

    @Test func decodedPathIsForDisplayOnly() {
        #expect(HTTPRequest(method: "GET", path: "/a%2Fb/c%20d").decodedPath == "/a/b/c d")
        #expect(HTTPRequest(method: "GET", path: "/%ff").decodedPath == nil)
    }

    @Test func queryLookupsKeepOrder() {
        let request = HTTPRequest(method: "GET", path: "/", query: [.init(name: "a", value: "1"), .init(name: "b", value: "2"), .init(name: "a", value: "3")])
        #expect(request.queryValue("a") == "1")
        #expect(request.queryValues("a") == ["1", "3"])
        #expect(request.queryValue("c") == nil)
    }

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

    @Test func defaultErrorBodyEscapesTheMessage() {
        let response = HTTPResponse.jsonError(status: 413, message: "too \"big\"\n\\ \u{1}")
        #expect(response.status == 413)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self)
            == #"{"error":{"code":413,"message":"too \"big\"\n\\ \u0001","status":"RESOURCE_EXHAUSTED"}}"#)
    }

    @Test(arguments: [(400, "INVALID_ARGUMENT"), (404, "NOT_FOUND"), (413, "RESOURCE_EXHAUSTED"), (418, "FAILED_PRECONDITION"),
                      (500, "INTERNAL"), (503, "UNAVAILABLE"), (599, "UNKNOWN")])
    func errorStatusNamesFollowGoogle(status: Int, name: String) {
        #expect(HTTPResponse.statusName(forHTTPStatus: status) == name)
    }

    @Test func accessLogLineIsOneLine() {
        let entry = HTTPAccessLogEntry(method: "GET", path: "/x", status: 200, durationMilliseconds: 1.234,
                                       bodyBytes: 12, remoteAddress: "::1", outcome: .timedOut)
        #expect(entry.line == "::1 \"GET /x\" 200 12B 1.23ms timedOut")
    }
}
