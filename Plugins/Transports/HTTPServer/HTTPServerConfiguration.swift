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
        /// connection is closed. A `Content-Length` over the limit is answered at once, before the body
        /// is read. A chunked body is cut off at the limit: libmicrohttpd 0.9.75 cannot answer while a
        /// body is arriving, so the rest is read and dropped and the 413 goes out when it ends; past
        /// twice the limit the connection is closed without an answer. Default 1 MiB.
        public var maxRequestBodyBytes: Int
        /// Memory per connection for the request line and header fields (libmicrohttpd's
        /// `MHD_OPTION_CONNECTION_MEMORY_LIMIT`, which also holds the read and write buffers, so the
        /// usable header size is somewhat smaller). A request whose headers do not fit is answered by
        /// libmicrohttpd itself: 431 (Request Header Fields Too Large), or 414 when the request line
        /// alone is too long, with a small HTML body, and the connection is closed. At least 4 KiB;
        /// default 32 KiB.
        public var maxHeaderBytes: Int
        /// A connection with no traffic for this long is closed (`MHD_OPTION_CONNECTION_TIMEOUT`,
        /// whole seconds); nil for never. Parked event streams do not time out. It is also what ends
        /// a request whose client sent part of a body and half-closed in the same instant:
        /// libmicrohttpd 0.9.75's edge-triggered epoll loop can miss that end of file. Default 60 s.
        public var connectionTimeout: Duration?
        /// The most connections open at once (`MHD_OPTION_CONNECTION_LIMIT`, shared out among the
        /// threads); beyond it new connections are closed at once. Default 4096.
        public var maxConnections: Int
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
