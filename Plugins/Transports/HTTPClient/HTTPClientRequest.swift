/// One HTTP request: method, absolute URL, header fields, optional body and time limit.
public struct HTTPClientRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The absolute URL, `http://` or `https://` (other schemes are refused).
    public var url: String
    /// Header fields in sending order; names and values must not contain CR or LF.
    ///
    /// Set `Content-Type` yourself when there is a body: none is added.
    public var headers: [(name: String, value: String)]
    /// The body, or nil for none. A `POST`, `PUT` or `PATCH` without a body is sent with `Content-Length: 0`.
    public var body: [UInt8]?
    /// The most the whole call may take, from connecting to the last body byte.
    ///
    /// nil uses the client's `defaultTimeout` for `send` and no limit for `stream`
    /// (a stream is watched by the stall detector instead).
    public var timeout: Duration?

    /// A request; only `url` is required.
    public init(method: HTTPMethod = .get, url: String, headers: [(name: String, value: String)] = [],
                body: [UInt8]? = nil, timeout: Duration? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// The first value of the header `name` (case-insensitive), if the request sets it.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
