import HTTPCore
/// A complete HTTP response: status, header fields and body.
///
/// The server adds `Content-Length` and `Date` itself; a `Content-Length` or `Transfer-Encoding`
/// field set here is ignored.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code (200, 404, …).
    public var status: Int
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: [UInt8]

    /// A response from its parts.
    public init(status: Int = 200, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(text.utf8))
    }

    /// An `application/json` response from already encoded JSON bytes.
    public static func json(_ body: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: body)
    }
}
