import CGRPC
import FleetErrors
import Foundation
import Synchronization

/// A gRPC server for unary calls on gRPC's C core, with no knowledge of the services it serves:
/// each call's method path, metadata, peer and request bytes go to one handler, which answers
/// with response bytes or a status, at once or later from any thread.
///
/// Each serving thread owns one completion queue with a few calls requested ahead on it (the
/// core's own advice, and measured: several threads on one shared queue served fewer calls), for
/// each method registered in the configuration and for any other method. With the core's `poll`
/// engine (the default here) each thread also reads and writes the connections the core gave its
/// queue, so a connection's calls run start to end on one thread. A stop lets calls in flight
/// finish within a grace period, then cancels the rest.
public final class GRPCServer: @unchecked Sendable {
    /// How the server listens and serves.
    public struct Configuration: Sendable {
        /// An IP address or `localhost`; IPv6 without brackets.
        public var host = "127.0.0.1"
        /// 0 picks a free port (`start()` returns the one bound).
        public var port = 0
        /// Serving threads, each with its own completion queue (never one queue shared by several
        /// threads, which served fewer calls): at least one per core.
        public var threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
        /// Calls requested ahead on each queue, for each registered method and for the other methods,
        /// so a burst of new calls does not wait for a request.
        public var pendingCallsPerThread = 16
        /// The method paths (`/package.Service/Method`) served most: the core matches a call's path
        /// against them instead of copying it and the call's `:authority` for the server to read.
        /// A call of any other method still reaches the handler. (The core could also read a
        /// registered call's request message before handing the call over, one batch and one
        /// completion fewer, but a call whose message never comes is then held by the core where
        /// the server cannot count or end it: see `maxConcurrentStreams`.)
        public var methods: [String] = []
        /// The largest request message accepted; larger ones get RESOURCE_EXHAUSTED from the core.
        /// Messages are accepted uncompressed only (`grpc-accept-encoding: identity`): gRPC 1.51's
        /// core compares this limit with a compressed message's size, not with what it inflates to,
        /// so a 1 MB gzip message inflating to 1,000 MiB would be decompressed whole. A compressed
        /// message is UNIMPLEMENTED (as gRPC answers an encoding it does not support) and is
        /// never inflated.
        public var maxMessageBytes = 4 << 20
        /// The streams (calls) one connection may have open at once, advertised to the client as
        /// HTTP/2's `SETTINGS_MAX_CONCURRENT_STREAMS`. gRPC 1.51's core enforces it only once the
        /// client has acknowledged the setting (every HTTP/2 library does, at once): a stream past
        /// it then closes the connection. A client that never acknowledges it is bounded by the
        /// server: each call the core hands over is counted against its connection (by the core's
        /// peer name, one per connection), and the first call past twice this number is cancelled
        /// with RESOURCE_EXHAUSTED and has its connection closed (its socket shut down, what the
        /// core has not read of it dropped), since the core would go on making a call for every
        /// stream it reads; the closing goes to `log`. (Twice: a call whose client already has its
        /// answer counts until its last completion is taken, just after.) With the metadata and
        /// message limits this bounds what one connection can make the server hold.
        public var maxConcurrentStreams = 100
        /// The largest header block (metadata) a call may send; a larger one ends the call with
        /// RESOURCE_EXHAUSTED. The core's default is 8 KiB; a Fleet Engine call sends well under 2 KiB
        /// (a token of about 1 KiB, `x-goog-request-params`, the content type).
        public var maxMetadataBytes = 16 << 10
        /// TLS with this certificate chain and key; plain text (h2c) when nil.
        public var tls: TLS?
        /// The core's polling engine (its `GRPC_POLL_STRATEGY`), chosen once per process at the
        /// first start; the environment variable, when set, wins. `poll`: each serving thread
        /// polls the connections accepted onto its own queue, and reads, answers and writes their
        /// calls itself. The core's Linux default, `epoll1`, has one thread at a time wait on every
        /// connection and hand each call it reads to the thread of the call's queue, waking it: on
        /// 2 cores under 64 GetTrips in flight (4 connections) that left 11–13% of the machine idle,
        /// against 3–4% with `poll`, which served up to a fifth more calls at 10% less CPU each.
        /// `poll` scans a thread's connections on every wait, so idle connections make each call
        /// dearer: even with `epoll1` at about 500 idle connections, and with 2,000 at 56–61 µs of
        /// server CPU per GetTrip against 35–39 µs. A server with many hundreds of clients connected
        /// at once should set `GRPC_POLL_STRATEGY=epoll1`.
        public var pollStrategy = "poll"
        /// Where the server says what it did on its own: a connection it closed, and why.
        public var log: @Sendable (String) -> Void = { _ in }

        public init() {}
    }

    /// A PEM certificate chain and its private key.
    public struct TLS: Sendable {
        public var certificateChainPEM: String
        public var privateKeyPEM: String

        public init(certificateChainPEM: String, privateKeyPEM: String) {
            self.certificateChainPEM = certificateChainPEM
            self.privateKeyPEM = privateKeyPEM
        }
    }

    /// Called once per call on a serving thread; must answer through the responder exactly once.
    public typealias Handler = @Sendable (GRPCRequest, GRPCResponder) -> Void

    let configuration: Configuration
    let handler: Handler
    private var server: OpaquePointer?
    private var loops: [CompletionQueueLoop] = []
    /// Calls the core has handed over and that have not finished their last batch.
    let activeCalls = Atomic<Int>(0)
    /// The calls each connection has open, bounded at twice `Configuration.maxConcurrentStreams`.
    let connectionCalls: ConnectionCalls
    /// Set once a stop begins: no new calls are requested.
    let stopping = Atomic<Bool>(false)
    /// Sends the answers given off the serving threads.
    let answers = AnswerThread()
    private let lifecycle = Mutex<Bool>(false)
    /// The port listened on, set by `start()` before any call is served.
    private var boundPort = 0
    /// When a connection's closing was last logged, and the closings since not logged.
    private let closingLog = Mutex<(lastLine: ContinuousClock.Instant?, unlogged: Int)>((nil, 0))

    public init(configuration: Configuration, handler: @escaping Handler) {
        self.configuration = configuration
        self.handler = handler
        self.connectionCalls = ConnectionCalls(maxConcurrentStreams: configuration.maxConcurrentStreams)
    }

    /// Starts listening and serving; returns the bound `HOST:PORT` (IPv6 in brackets). Throws
    /// LISTEN_FAILED when the address cannot be bound or the TLS certificate and key are not usable.
    public func start() throws -> String {
        try lifecycle.withLock { started in
            guard !started else { throw FleetError(.listenFailed, detail: "the gRPC server was already started") }
            started = true
        }
        _ = Self.deadlockDetectionOff
        // Read by the core as it initialises; a value set before (by the user) is kept.
        setenv("GRPC_POLL_STRATEGY", configuration.pollStrategy, 0)
        grpc_init()
        let server = Self.createServer(configuration)
        let threads = max(1, configuration.threads)
        let loops = (0..<threads).map { _ in CompletionQueueLoop(server: server, owner: self) }
        for loop in loops { grpc_server_register_completion_queue(server, loop.queue, nil) }
        var paths = Set<String>()
        let registered = configuration.methods.filter { paths.insert($0).inserted }.compactMap { path in
            grpc_server_register_method(server, path, nil, GRPC_SRM_PAYLOAD_NONE, 0)
                .map { RegisteredMethod(path: path, handle: $0) }
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let address = "\(host):\(configuration.port)"
        let credentials: OpaquePointer?
        if let tls = configuration.tls {
            credentials = tls.privateKeyPEM.withCString { key in
                tls.certificateChainPEM.withCString { chain in
                    var pair = grpc_ssl_pem_key_cert_pair(private_key: key, cert_chain: chain)
                    return grpc_ssl_server_credentials_create(nil, &pair, 1, 0, nil)
                }
            }
        } else {
            credentials = grpc_insecure_server_credentials_create()
        }
        let port = credentials.map { grpc_server_add_http2_port(server, address, $0) } ?? 0
        if let credentials { grpc_server_credentials_release(credentials) }
        guard port > 0 else {
            grpc_server_destroy(server)
            for loop in loops {
                grpc_completion_queue_shutdown(loop.queue)
                loop.drainAfterShutdown()
                grpc_completion_queue_destroy(loop.queue)
            }
            grpc_shutdown()
            let reason = configuration.tls == nil ? "the address is in use or not this machine's"
                : "the address is in use or not this machine's, or the TLS certificate and key do not match or are not PEM"
            throw FleetError(.listenFailed, detail: "gRPC on \(address): \(reason)")
        }
        grpc_server_start(server)
        self.server = server
        self.boundPort = Int(port)
        self.loops = loops
        answers.start()
        let methods: [RegisteredMethod?] = [nil] + registered
        for loop in loops {
            for method in methods {
                for _ in 0..<max(1, configuration.pendingCallsPerThread) { loop.requestCall(method) }
            }
            loop.startThread()
        }
        return "\(host):\(port)"
    }

    /// Stops gracefully: new calls are refused (UNAVAILABLE), calls in flight get `gracePeriod` to
    /// finish, then the rest are cancelled. Returns once every serving thread has ended.
    public func stop(gracePeriod: Duration) {
        guard let server, !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let notice = ShutdownNotice()
        grpc_server_shutdown_and_notify(server, loops[0].queue, CompletionTag.retain(notice))
        if !notice.done.wait(timeout: gracePeriod) {
            grpc_server_cancel_all_calls(server)
            notice.done.wait()
        }
        // A completion queue shut down while a call still has a batch to start makes the core abort
        // (call.cc, grpc_cq_begin_op): wait for every call's last batch. A handler that never answers
        // holds its call; after ten seconds the queues are left as they are (the process is ending).
        let deadline = DispatchTime.now() + .seconds(10)
        while activeCalls.load(ordering: .acquiring) > 0 {
            if DispatchTime.now() > deadline { return }
            usleep(1000)
        }
        answers.close()
        answers.join()
        grpc_server_destroy(server)
        self.server = nil
        for loop in loops { grpc_completion_queue_shutdown(loop.queue) }
        for loop in loops { loop.join() }
        for loop in loops { grpc_completion_queue_destroy(loop.queue) }
        loops = []
        grpc_shutdown()
    }

    /// Turns off Abseil's lock-order checking, once per process. Debian builds Abseil without
    /// `NDEBUG`, so every mutex the core takes (several per call) also updated a process-wide graph
    /// of lock orders, under a lock of its own: measured, 1–3 µs of a GetTrip's 40 µs, and gone
    /// with it off. gRPC's own builds compile it out; it only ever aborts the process. The setter is
    /// a C++ function, found by its mangled name in Abseil's namespaces for Debian and for upstream's
    /// 2022-06-23 release (the one libgrpc 1.51 links); with another Abseil nothing changes.
    static let deadlockDetectionOff: Bool = {
        let names = ["_ZN4absl7debian329SetMutexDeadlockDetectionModeENS0_15OnDeadlockCycleE",
                     "_ZN4absl12lts_2022062329SetMutexDeadlockDetectionModeENS0_15OnDeadlockCycleE"]
        guard let setter = names.lazy.compactMap({ dlsym(nil, $0) }).first else { return false }
        // absl::OnDeadlockCycle::kIgnore is 0 (an enum class over int).
        unsafeBitCast(setter, to: (@convention(c) (Int32) -> Void).self)(0)
        return true
    }()

    /// Closes the connection of `peer` (the core's name for it), which went past its calls' limit,
    /// and says so in the log: at most one line every 10 seconds, which counts the connections
    /// closed since the line before (a client reconnecting to flood again cannot fill the log).
    func closeConnection(of peer: String) {
        let limit = connectionCalls.limit, streams = connectionCalls.maxConcurrentStreams
        let isClosed = ConnectionSocket.shutDown(peer: peer, localPort: boundPort)
        let unlogged: Int? = closingLog.withLock { log in
            let now = ContinuousClock.now
            if let last = log.lastLine, now - last < .seconds(10) {
                log.unlogged += 1
                return nil
            }
            defer { log = (now, 0) }
            return log.unlogged
        }
        guard let unlogged else { return }
        let reason = "it had \(limit) calls open and started more without acknowledging SETTINGS_MAX_CONCURRENT_STREAMS \(streams)"
        let others = unlogged > 0 ? " (and \(unlogged) other connections for the same reason since the last such line)" : ""
        configuration.log(isClosed ? "gRPC: closed the connection from \(peer): \(reason)\(others)"
            : "gRPC: could not close the connection from \(peer) (its socket was not found); its calls past \(limit) are refused: \(reason)\(others)")
    }

    /// The calls in flight (handed to the handler, or answered but not yet sent).
    public var callsInFlight: Int { activeCalls.load(ordering: .relaxed) }

    /// A server with the limits of `configuration`; without SO_REUSEPORT, which the core sets by
    /// default: with it a second server on the same port starts without an error and takes half the
    /// calls; and without channelz (on by default), whose per-call and per-message counters nothing
    /// here reads. Only the identity encoding is enabled (the bitset's bit 0), and the core does not
    /// decompress: a compressed message reaches the call as it came, and is refused unread. A read
    /// from a connection takes at most 64 KiB (the core's default grows to 4 MiB): the core creates
    /// a call for every stream in a read before the serving threads can cancel those past a
    /// connection's limit, and 4 MiB of header-only streams is some 50,000 calls.
    private static func createServer(_ configuration: Configuration) -> OpaquePointer {
        let settings: [(String, Int32)] = [
            ("grpc.max_receive_message_length", Int32(clamping: configuration.maxMessageBytes)),
            ("grpc.max_concurrent_streams", Int32(clamping: configuration.maxConcurrentStreams)),
            ("grpc.max_metadata_size", Int32(clamping: configuration.maxMetadataBytes)),
            ("grpc.compression_enabled_algorithms_bitset", 1),
            ("grpc.per_message_decompression", 0),
            ("grpc.experimental.tcp_max_read_chunk_size", 64 << 10),
            ("grpc.so_reuseport", 0),
            ("grpc.enable_channelz", 0),
        ]
        let keys = settings.map { strdup($0.0)! }
        defer { keys.forEach { free($0) } }
        var args = zip(keys, settings).map { key, setting in
            var arg = grpc_arg()
            arg.type = GRPC_ARG_INTEGER
            arg.key = key
            arg.value.integer = setting.1
            return arg
        }
        return args.withUnsafeMutableBufferPointer { buffer in
            var channelArgs = grpc_channel_args(num_args: buffer.count, args: buffer.baseAddress)
            return grpc_server_create(&channelArgs, nil)!
        }
    }
}

/// Answers one call, once, from any thread.
public struct GRPCResponder: Sendable {
    let call: CallReference

    /// Sends the response message and status OK, or the status. An answer given while the handler
    /// runs is sent at once on the serving thread; one given later, from another thread, is handed
    /// to the server's answer thread, so the thread giving it (a store's writer completing a group
    /// of calls) does not also pay for the core's write of each.
    public func respond(_ result: Result<[UInt8], GRPCStatus>) {
        call.context.respond(result)
    }

    /// Sends the answer `produce` makes, running it on the thread that sends the answer (see
    /// `respond(_:)`): a writer that completes calls hands over the encoding of their answers too.
    public func respond(producing produce: @escaping @Sendable () -> Result<[UInt8], GRPCStatus>) {
        call.context.respond(producing: produce)
    }
}
