import FleetErrors
import Synchronization

/// An HTTP/1.1 server on GNU libmicrohttpd that hands every complete request to one handler.
///
/// The handler runs on one of the server's threads and returns a reply: a complete response, or an
/// event stream that stays open (see `EventStream`). It knows nothing about routes: it sees the
/// method, path, query, headers and body, and answers. Bodies over the limit are answered 413
/// before the handler sees them.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0)) { request in
///     .response(.text("hello"))
/// }
/// let address = try server.start()   // e.g. 127.0.0.1:43567
/// …
/// server.stop(gracePeriod: .seconds(10))
/// ```
public final class HTTPServer: Sendable {
    /// The address a started server listens on.
    public struct BoundAddress: Sendable, Hashable, CustomStringConvertible {
        /// The IP literal listened on (`127.0.0.1`, `::1`).
        public var host: String
        /// The TCP port, the real one when port 0 was asked for.
        public var port: Int

        /// `127.0.0.1:8080`, or `[::1]:8080` for IPv6.
        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// The configuration the server was made with.
    public let configuration: Configuration
    private let dispatcher: RequestDispatcher
    private let diagnostics: DiagnosticsSink
    private let lifecycle = Mutex<Lifecycle>(.idle)

    /// A server that will answer every request with `handler`; call `start()` to listen.
    public init(configuration: Configuration, handler: @escaping @Sendable (HTTPRequest) -> HTTPReply) {
        self.configuration = configuration
        dispatcher = RequestDispatcher(configuration: configuration, handler: handler)
        diagnostics = DiagnosticsSink(forward: configuration.diagnostics)
    }

    deinit {
        stop(gracePeriod: .zero)
    }

    /// Starts listening and serving; returns the address, with the real port when 0 was asked for.
    /// Throws `BAD_LISTEN_ADDRESS` for a host that is not an IP literal or `localhost`, and
    /// `LISTEN_FAILED` when the address cannot be bound (in use, not on this machine) or the server
    /// was started before.
    @discardableResult
    public func start() throws(FleetError) -> BoundAddress {
        let address = try ListenAddress(host: configuration.host, port: configuration.port)
        // Each connection is a descriptor; leave room for the store, logs and the listening socket.
        let wanted = configuration.maxConnections + 64
        let limit = OpenFileLimit.raise(toAtLeast: wanted)
        if limit < wanted {
            diagnostics.receive("the open-file limit is \(limit) (hard limit), below the \(configuration.maxConnections) connections allowed: "
                        + "connections past it will be refused; raise LimitNOFILE")
        }
        return try lifecycle.withLock { state throws(FleetError) -> BoundAddress in
            guard case .idle = state else {
                throw FleetError(.listenFailed, detail: "the server was already started")
            }
            let daemon = try RunningDaemon(address: address, configuration: configuration, dispatcher: dispatcher,
                                           diagnostics: diagnostics)
            state = .running(daemon)
            return daemon.boundAddress
        }
    }

    /// The address the server listens on, nil unless it is running.
    public var boundAddress: BoundAddress? {
        lifecycle.withLock { state in
            if case .running(let daemon) = state { return daemon.boundAddress }
            return nil
        }
    }

    /// Connections open now (idle keep-alive ones and event streams included); 0 unless running.
    public var openConnectionCount: Int {
        lifecycle.withLock { state in
            if case .running(let daemon) = state { return daemon.connectionCount }
            return 0
        }
    }

    /// Requests whose headers have arrived and whose exchange has not ended (event streams not included).
    public var requestsInFlight: Int { dispatcher.activity.requestCount }

    /// Event streams being sent now.
    public var openEventStreamCount: Int { dispatcher.activity.openStreams.count }

    /// Stops accepting connections: from now on a connection attempt is refused, while the
    /// connections already open are still served (their replies then carry `Connection: close`).
    /// The first step of `stop(gracePeriod:)`; call it alone to drain before stopping.
    public func stopAccepting() {
        lifecycle.withLock { state in
            guard case .running(var daemon) = state else { return }
            dispatcher.isStopping.store(true, ordering: .relaxed)
            daemon.stopListening()
            state = .running(daemon)
        }
    }

    /// Stops gracefully: stops accepting, lets requests in flight finish until the grace period
    /// ends, closes the event streams (reason `.serverStopping`), then closes every connection and
    /// joins the server's threads. A handler still running past the grace period delays the end
    /// until it returns; so never call this from a handler. Returns at once if the server is not
    /// running (or another thread is already stopping it).
    public func stop(gracePeriod: Duration = .seconds(10)) {
        let deadline = ContinuousClock.now.advanced(by: gracePeriod)
        stopAccepting()
        let taken: RunningDaemon? = lifecycle.withLock { state in
            guard case .running(let daemon) = state else { return nil }
            state = .stopping
            return daemon
        }
        guard let daemon = taken else { return }
        if !dispatcher.activity.waitForRequests(until: deadline) {
            // Answers still awaited after the grace period: 503 instead (libmicrohttpd must not be
            // stopped with their connections parked; an answer given later is ignored).
            for reply in dispatcher.activity.parkedReplies {
                reply.complete { [configuration] in configuration.errorBody(503, "The server stopped before the call finished; it may or may not have been applied") }
            }
            _ = dispatcher.activity.waitForRequests(until: .now.advanced(by: .seconds(2)))
        }
        // Waking every parked stream before the daemon stops is required: libmicrohttpd aborts
        // when stopped with a connection still suspended.
        for stream in dispatcher.activity.refuseNewStreams() { stream.requestClose(.serverStopping) }
        _ = dispatcher.activity.waitForStreams(until: deadline)
        daemon.shutDown()
        lifecycle.withLock { $0 = .stopped }
    }

    private enum Lifecycle {
        case idle
        case running(RunningDaemon)
        case stopping
        case stopped
    }
}
