import HTTPCore
/// One HTTP request, read completely (body included) before the handler sees it.
///
/// `path` is the path exactly as the client sent it, with its `%xx` escapes: route on
/// `pathSegments`, which decodes each segment on its own, so that an escaped slash (`%2F`) stays
/// inside its segment and `.`/`..` segments can be refused.
public struct HTTPRequest: Sendable, Hashable {
    /// The method, as sent (`GET`, `POST`, …); unknown methods are passed on, not refused.
    public var method: String
    /// The path as sent, without the query, escapes kept; raw bytes outside printable ASCII (which
    /// a client should have escaped) are escaped as `%XX`, so the path is always ASCII.
    public var path: String
    /// The query's items in order, decoded; repeated names are kept.
    public var query: [HTTPQueryItem]
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The body (empty when there was none), de-chunked.
    public var body: [UInt8]
    /// The client's IP address (`127.0.0.1`, `::1`), empty when unknown.
    public var remoteAddress: String
    /// The protocol version of the request line, e.g. `HTTP/1.1`.
    public var httpVersion: String

    /// A request from its parts; the server builds these, tests and in-memory transports may too.
    public init(method: String, path: String, query: [HTTPQueryItem] = [], headers: HTTPHeaders = [:],
                body: [UInt8] = [], remoteAddress: String = "", httpVersion: String = "HTTP/1.1") {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.httpVersion = httpVersion
    }

    /// The path's segments, each percent-decoded on its own; nil when the path does not start with
    /// `/`, holds a malformed escape, or decodes to bytes that are not UTF-8 or contain NUL.
    ///
    /// `/` gives `[]`; `/a//b/` gives `["a", "", "b", ""]`; `/a%2Fb` gives `["a/b"]`; `.` and `..`
    /// (also when written `%2E%2E`) are returned as they are, for the router to refuse.
    public var pathSegments: [String]? {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        if bytes.count == 1 { return [] }
        var segments: [String] = []
        for raw in bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let decoded = PercentEncoding.strict(raw), !decoded.contains(0),
                  let segment = String(validating: decoded, as: UTF8.self) else { return nil }
            segments.append(segment)
        }
        return segments
    }

    /// The whole path percent-decoded, for display and logs; nil when `pathSegments` is nil.
    /// Do not route on it: `a%2Fb` and `a/b` look the same here.
    public var decodedPath: String? {
        pathSegments.map { "/" + $0.joined(separator: "/") }
    }

    /// The value of the first query item with this name, or nil.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The values of every query item with this name, in order.
    public func queryValues(_ name: String) -> [String] {
        query.filter { $0.name == name }.map(\.value)
    }
}
