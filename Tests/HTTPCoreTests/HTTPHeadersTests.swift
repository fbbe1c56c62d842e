import HTTPCore
import Testing

@Suite("HTTP headers")
struct HTTPHeadersTests {
    @Test("header lookup ignores case and keeps every value in order")
    func headers() {
        let headers = HTTPHeaders([("Content-Type", "application/json"), ("Set-Cookie", "a=1"), ("set-cookie", "b=2")])
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers["X-Missing"] == nil)
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers.count == 3)
    }

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
}
