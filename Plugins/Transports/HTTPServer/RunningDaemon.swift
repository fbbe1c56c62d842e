import CMicroHTTPD
import CMicroHTTPDShim
import Dispatch
import FleetErrors
import Glibc

/// A started libmicrohttpd daemon and what must outlive it: its options (the logger reads them),
/// its socket address, and the timer that writes heartbeats to open event streams.
struct RunningDaemon {
    let daemon: OpaquePointer
    /// The address it listens on, with the real port.
    let boundAddress: HTTPServer.BoundAddress
    private let options: UnsafeMutablePointer<cmhd_daemon_options>
    private let socketAddress: UnsafeMutablePointer<sockaddr_storage>
    private let heartbeat: any DispatchSourceTimer
    /// Enforces the header and body deadlines and notices closed event streams (`ConnectionRegistry.sweep`).
    private let sweeper: any DispatchSourceTimer
    /// The listening socket once `stopListening()` took it from the daemon; closed after it stops.
    private var quiescedSocket: Int32?

    /// Starts the daemon: threads, epoll loops, listening socket. Throws `LISTEN_FAILED` with
    /// libmicrohttpd's own reason when it refuses.
    init(address: ListenAddress, configuration: HTTPServer.Configuration, dispatcher: RequestDispatcher,
         diagnostics: DiagnosticsSink) throws(FleetError) {
        socketAddress = .allocate(capacity: 1)
        socketAddress.initialize(to: address.socketAddress)
        options = .allocate(capacity: 1)
        let timeoutSeconds = configuration.connectionTimeout.map { max(1, Int($0.components.seconds)) } ?? 0
        options.initialize(to: cmhd_daemon_options(
            ipv6: address.isIPv6 ? 1 : 0,
            turbo: 1,  // opportunistic reads and writes: about 8% more requests per second under wrk
            port: UInt16(configuration.port),
            bind_address: UnsafeRawPointer(socketAddress).assumingMemoryBound(to: sockaddr.self),
            thread_pool_size: UInt32(max(1, configuration.threadPoolSize)),
            connection_memory_limit: max(4096, configuration.maxHeaderBytes) * 2 + 8192,
            // Headroom above the limit the accept policy enforces: at its own limit libmicrohttpd
            // stops accepting, and new connections would wait in the listen queue instead of being refused.
            connection_limit: UInt32(max(1, configuration.maxConnections) + 16 * max(1, configuration.threadPoolSize)),
            connection_timeout_seconds: UInt32(timeoutSeconds),
            // The per-client limit is the accept policy's (ConnectionRegistry.admits), which sums up
            // refusals per client; libmicrohttpd's own would log one line per refused connection.
            per_ip_connection_limit: 0,
            listen_backlog: 0,
            keep_url_escaped: 1,
            access_handler: MicroHTTPDCallbacks.accessHandler,
            access_handler_context: Unmanaged.passUnretained(dispatcher).toOpaque(),
            request_completed: MicroHTTPDCallbacks.requestCompleted,
            request_completed_context: Unmanaged.passUnretained(dispatcher).toOpaque(),
            notify_connection: MicroHTTPDCallbacks.notifyConnection,
            notify_connection_context: Unmanaged.passUnretained(dispatcher).toOpaque(),
            uri_logger: MicroHTTPDCallbacks.requestLineArrived,
            uri_logger_context: nil,
            accept_policy: MicroHTTPDCallbacks.acceptPolicy,
            accept_policy_context: Unmanaged.passUnretained(dispatcher).toOpaque(),
            logger: MicroHTTPDCallbacks.log,
            logger_context: Unmanaged.passUnretained(diagnostics).toOpaque()))
        guard let daemon = cmhd_start_daemon(options) else {
            let failure = errno
            let reason = diagnostics.recentMessages.last ?? String(cString: strerror(errno))
            options.deinitialize(count: 1)
            options.deallocate()
            socketAddress.deallocate()
            let asked = HTTPServer.BoundAddress(host: address.host, port: configuration.port)
            if failure == EADDRINUSE || reason.lowercased().contains("address already in use") {
                throw FleetError(.addressInUse, detail: "\(asked) (\(reason))", field: "listen")
            }
            throw FleetError(.listenFailed, detail: "\(asked): \(reason)")
        }
        self.daemon = daemon
        boundAddress = HTTPServer.BoundAddress(host: address.host, port: Int(cmhd_daemon_bound_port(daemon)))
        heartbeat = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let interval = configuration.eventStreamHeartbeat.dispatchInterval
        heartbeat.schedule(deadline: .now() + interval, repeating: interval)
        heartbeat.setEventHandler { [activity = dispatcher.activity] in
            for stream in activity.openStreams { stream.sendComment("keepalive") }
        }
        heartbeat.resume()
        sweeper = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        sweeper.schedule(deadline: .now() + ConnectionRegistry.sweepInterval, repeating: ConnectionRegistry.sweepInterval)
        sweeper.setEventHandler { [connections = dispatcher.connections] in connections.sweep() }
        sweeper.resume()
    }

    /// Connections open now.
    var connectionCount: Int { Int(cmhd_daemon_connection_count(daemon)) }

    /// Takes the listening socket from the daemon and stops listening on it, so that new
    /// connection attempts are refused at once.
    mutating func stopListening() {
        guard quiescedSocket == nil else { return }
        let socket = MHD_quiesce_daemon(daemon)
        guard socket >= 0 else { return }
        // The daemon's threads may still hold the socket, so it is closed only after the daemon
        // stops; shutting it down now makes the kernel refuse new connections.
        _ = shutdown(socket, Int32(SHUT_RDWR))
        quiescedSocket = socket
    }

    /// Stops the daemon (closing every connection, joining its threads) and frees what it used.
    /// Every parked event stream must have been woken first (`EventStream.requestClose`).
    func shutDown() {
        heartbeat.cancel()
        sweeper.cancel()
        MHD_stop_daemon(daemon)
        if let quiescedSocket { _ = close(quiescedSocket) }
        options.deinitialize(count: 1)
        options.deallocate()
        socketAddress.deallocate()
    }
}

extension Duration {
    /// The duration as a Dispatch interval, at least one millisecond.
    var dispatchInterval: DispatchTimeInterval {
        let nanoseconds = components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
        return .nanoseconds(Int(max(1_000_000, nanoseconds)))
    }
}
