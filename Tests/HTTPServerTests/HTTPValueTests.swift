import HTTPServer
import Testing
import HTTPCore

@Suite("HTTP values")
struct HTTPValueTests {
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
