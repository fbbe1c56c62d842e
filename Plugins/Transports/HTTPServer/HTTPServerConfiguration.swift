import Foundation

extension HTTPServer {
    /// How an `HTTPServer` listens, what it accepts, and where it reports.
    public struct Configuration: Sendable {
        /// The address to listen on: an IPv4 or IPv6 literal (`127.0.0.1`, `0.0.0.0`, `::1`, `[::]`) or `localhost` (127.0.0.1).
        public var host: String
        /// The TCP port; 0 picks a free one (`start()` returns it).
        public var port: Int
        /// Threads serving connections, each with its own epoll loop. Handlers run on them, so a slow
        /// handler holds one thread. Default: one per core.
        public var threadPoolSize: Int
        /// The largest request body accepted; a larger one gets 413 (from `errorBody`) and the
        /// connection is closed. A `Content-Length` over the limit is answered at once, before the
        /// body is read, and the connection closes lingering: what the client still sends is read
        /// and dropped (up to `LingeringClose.maxBytes`, for a few seconds), so that it reads the
        /// 413 instead of meeting a reset. A chunked body is answered 413 as soon as it passes the
        /// limit, and closed the same way. Default 1 MiB.
        public var maxRequestBodyBytes: Int
        /// The most bytes of request line and header fields a request may carry; more is answered
        /// 431 (from `errorBody`) and the connection closed, whether in many fields or one. Each
        /// connection's memory (libmicrohttpd's `MHD_OPTION_CONNECTION_MEMORY_LIMIT`, which also
        /// holds the read and write buffers) is twice this plus 8 KiB, so that a request just over
        /// the limit is still read and answered with the error body; one over about twice the limit
        /// is answered 431 by libmicrohttpd itself, with a short HTML body. At least 4 KiB;
        /// default 32 KiB.
        public var maxHeaderBytes: Int
        /// A connection with no traffic for this long is closed (`MHD_OPTION_CONNECTION_TIMEOUT`,
        /// whole seconds); nil for never. Parked event streams do not time out. It is also what ends
        /// a request whose client sent part of a body and half-closed in the same instant:
        /// libmicrohttpd 0.9.75's edge-triggered epoll loop can miss that end of file. Default 60 s.
        public var connectionTimeout: Duration?
        /// The most connections open at once; beyond it a new connection is closed as soon as it is
        /// accepted (refused, never left waiting in the listen queue). Default 4096.
        public var maxConnections: Int
        /// The most connections open at once from one client address; beyond it a new connection
        /// from that address is closed as soon as it is accepted, and the diagnostics get one line
        /// per address every 10 s saying how many were refused. Behind a reverse proxy every client shares the proxy's
        /// address. nil for no limit. Default 1024.
        public var maxConnectionsPerClient: Int?
        /// How long a request's line and header fields may take to arrive, counted from when the
        /// connection opened or its previous exchange ended. Past it a connection that has sent a
        /// request line is answered 408 (from `errorBody`) and closed; one that has sent nothing
        /// (an idle keep-alive connection) is closed without an answer. libmicrohttpd's own timeout
        /// (`connectionTimeout`) counts only silence, so a client sending a header line every few
        /// seconds would never meet it. nil for no deadline. Default 30 s.
        public var headerTimeout: Duration?
        /// How long a request's body may take to arrive once its headers are in; past it the
        /// request is answered 408 and the connection closed. nil for no deadline. Default 60 s.
        public var bodyTimeout: Duration?
        /// The most event streams open at once; one more is answered 429 (from `errorBody`) instead.
        /// nil for no limit. Default 3072, leaving room under `maxConnections` for other requests.
        public var maxEventStreams: Int?
        /// The most event streams open at once from one client address; one more is answered 429.
        /// nil for no limit. Default 512.
        public var maxEventStreamsPerClient: Int?
        /// How often a `: keepalive` comment is written to every open event stream. Default 15 s.
        public var eventStreamHeartbeat: Duration
        /// Builds the response for errors the server answers by itself (413); the default is
        /// `HTTPResponse.jsonError(status:message:)`.
        public var errorBody: @Sendable (_ status: Int, _ message: String) -> HTTPResponse
        /// Called once per finished request, on a server thread; the default writes one line to stderr.
        public var accessLog: @Sendable (HTTPAccessLogEntry) -> Void
        /// Receives libmicrohttpd's own messages (bind failures, protocol errors); default: stderr.
        public var diagnostics: @Sendable (String) -> Void

        /// A configuration with the defaults documented on each property.
        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            threadPoolSize: Int = ProcessInfo.processInfo.activeProcessorCount,
            maxRequestBodyBytes: Int = 1 << 20,
            maxHeaderBytes: Int = 32 * 1024,
            connectionTimeout: Duration? = .seconds(60),
            maxConnections: Int = 4096,
            maxConnectionsPerClient: Int? = 1024,
            headerTimeout: Duration? = .seconds(30),
            bodyTimeout: Duration? = .seconds(60),
            maxEventStreams: Int? = 3072,
            maxEventStreamsPerClient: Int? = 512,
            eventStreamHeartbeat: Duration = .seconds(15),
            errorBody: @escaping @Sendable (_ status: Int, _ message: String) -> HTTPResponse = HTTPResponse.jsonError,
            accessLog: @escaping @Sendable (HTTPAccessLogEntry) -> Void = HTTPAccessLogEntry.writeToStandardError,
            diagnostics: @escaping @Sendable (String) -> Void = Configuration.writeDiagnosticToStandardError
        ) {
            self.host = host
            self.port = port
            self.threadPoolSize = threadPoolSize
            self.maxRequestBodyBytes = maxRequestBodyBytes
            self.maxHeaderBytes = maxHeaderBytes
            self.connectionTimeout = connectionTimeout
            self.maxConnections = maxConnections
            self.maxConnectionsPerClient = maxConnectionsPerClient
            self.headerTimeout = headerTimeout
            self.bodyTimeout = bodyTimeout
            self.maxEventStreams = maxEventStreams
            self.maxEventStreamsPerClient = maxEventStreamsPerClient
            self.eventStreamHeartbeat = eventStreamHeartbeat
            self.errorBody = errorBody
            self.accessLog = accessLog
            self.diagnostics = diagnostics
        }

        /// The default diagnostics hook: writes `libmicrohttpd: <message>` to standard error.
        @Sendable public static func writeDiagnosticToStandardError(_ message: String) {
            StandardError.write("libmicrohttpd: \(message)")
        }
    }
}
