import HTTPCore
/// A complete HTTP response: status, header fields and body.
///
/// Any status is a response, not an error: a 404 with Google's error JSON comes back here
/// for the layer above to turn into a `FleetError`.
public struct HTTPClientResponse: Sendable {
    /// The HTTP status code (200, 404, …).
    public var status: Int
    /// The header fields of the final response (not of a `100 Continue` or a redirect).
    public var headers: HTTPHeaders
    /// The body bytes, decoded from any content encoding the client asked for.
    public var body: [UInt8]

    /// A response from its parts.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The body as UTF-8 text (invalid sequences become U+FFFD).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
