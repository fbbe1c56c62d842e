import HTTPClient
import Testing
import HTTPCore

@Suite("HTTP values")
struct HTTPValueTests {
    @Test("header lookup ignores case and keeps every value in order")
    func headers() {
        let headers = HTTPHeaders([("Content-Type", "application/json"), ("Set-Cookie", "a=1"), ("set-cookie", "b=2")])
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers["X-Missing"] == nil)
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers.count == 3)
    }

    @Test("methods are upper-cased and know whether they are idempotent")
    func methods() {
        #expect(HTTPMethod(rawValue: "patch") == .patch)
        #expect(HTTPMethod.get.isIdempotent && HTTPMethod.put.isIdempotent && HTTPMethod.delete.isIdempotent)
        #expect(!HTTPMethod.post.isIdempotent && !HTTPMethod.patch.isIdempotent)
    }

    @Test("request header lookup ignores case")
    func requestHeader() {
        let request = HTTPClientRequest(url: "http://x", headers: [("Authorization", "Bearer t")])
        #expect(request.header("authorization") == "Bearer t")
        #expect(request.header("accept") == nil)
    }
}
