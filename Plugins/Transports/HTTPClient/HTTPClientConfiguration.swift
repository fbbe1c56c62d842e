/// Settings shared by every call of one `HTTPClient`.
public struct HTTPClientConfiguration: Sendable {
    /// The time limit of a `send` whose request sets none.
    public var defaultTimeout: Duration
    /// The most connecting (DNS, TCP and TLS) may take; a call that cannot connect in time fails UNAVAILABLE.
    public var connectTimeout: Duration
    /// How long a stream may go without receiving a byte before the server is presumed dead
    /// (UNAVAILABLE, `serverStalled`); nil to wait for ever. Checked about once a second.
    ///
    /// Fleet Engine style streams send heartbeats every few seconds, so a few times that interval is right.
    public var streamStallTimeout: Duration?
    /// The `User-Agent` header sent unless a request sets its own.
    public var userAgent: String
    /// Whether to offer `Accept-Encoding` with every encoding libcurl can decode (gzip, deflate, …)
    /// and decode the response transparently.
    public var acceptsCompressedResponses: Bool
    /// Certificate checking.
    public var tls: TLSSettings
    /// The most idle connection handles kept for reuse; each holds its own keep-alive connections.
    public var maxIdleHandles: Int

    /// A configuration; every setting has a default fit for Fleet Engine.
    public init(defaultTimeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(10),
                streamStallTimeout: Duration? = .seconds(30), userAgent: String = "fleet-engine-swift/1",
                acceptsCompressedResponses: Bool = false, tls: TLSSettings = TLSSettings(),
                maxIdleHandles: Int = 16) {
        self.defaultTimeout = defaultTimeout
        self.connectTimeout = connectTimeout
        self.streamStallTimeout = streamStallTimeout
        self.userAgent = userAgent
        self.acceptsCompressedResponses = acceptsCompressedResponses
        self.tls = tls
        self.maxIdleHandles = maxIdleHandles
    }
}
