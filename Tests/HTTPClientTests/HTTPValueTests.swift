import HTTPClient
import Testing
import HTTPCore

@Suite("HTTP values")
struct HTTPValueTests {
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
