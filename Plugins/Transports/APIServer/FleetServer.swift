import FleetAuth
import FleetConcurrency
import FleetEngine
import FleetErrors
import FleetLearning
import FleetModel
import FleetStore
import Foundation
import GRPCServer
import HTTPServer
import MapPages
import OpenSSLJWT


/// How `fleet-admin serve` runs.
public struct ServeOptions: Sendable {
    /// `HOST:PORT` (`127.0.0.1:8080`, `[::1]:0`, `0.0.0.0:8080`); port 0 picks a free port.
    public var listen = "127.0.0.1:8080"
    /// Whether to serve REST on `listen` (off when only gRPC is asked for).
    public var serveREST = true
    /// `HOST:PORT` for Fleet Engine's gRPC API, nil for none (`GRPCServeOptions`).
    public var grpc: GRPCServeOptions?
    /// `HOST:PORT` answering `GET /metrics` without a token (for a Prometheus scraper), nil for
    /// none; `/metrics` on `listen` needs a server or fleet-reader token when tokens are on.
    public var metricsListen: String?
    /// Only this provider's resources are served, when set.
    public var provider: String?
    /// PEM public keys, X.509 certificates or Google service-account JSON key files (RS256), each as
    /// `--jwt-key` takes it: `FILE` or `PROVIDER=FILE` (see `keyProvider`).
    public var jwtKeyFiles: [String] = []
    /// Files holding HS256 secrets (the same file `fleet-admin token mint --secret-file` takes), each
    /// `FILE` or `PROVIDER=FILE`.
    public var jwtSecretFiles: [String] = []
    /// Allow a non-loopback address without keys.
    public var insecure = false
    public var maxBodyBytes = 1 << 20
    /// Threads serving requests. No call waits for its group commit on a thread (its connection is
    /// parked), so threads are for the CPU work of requests: two per core. On 2 cores, 4 threads
    /// served about 6% more location updates than 16, and as many GetTrip.
    public static let defaultThreads = max(4, ProcessInfo.processInfo.activeProcessorCount * 2)
    public var threads = ServeOptions.defaultThreads
    public var maxConnections = 4096
    public var connectionTimeout: Duration? = .seconds(60)
    /// Connections one client address may hold open; nil for no limit.
    public var maxConnectionsPerClient: Int? = 1024
    /// How long a request's line and headers may take to arrive; nil for no limit.
    public var headerTimeout: Duration? = .seconds(30)
    /// How long a request's body may take to arrive once its headers are in; nil for no limit.
    public var bodyTimeout: Duration? = .seconds(60)
    /// `:watch` streams open at once, in all and per client address; nil for no limit.
    public var maxWatches: Int? = 3072
    public var maxWatchesPerClient: Int? = 512
    /// Requests a second per caller (token, or address without tokens), nil for no limit, and the burst.
    public var rateLimit: Double?
    public var rateBurst: Double?
    /// Host names answered without token checks besides loopback names and the listen address.
    public var allowedHosts: [String] = []
    /// Write an access log line per request to standard error.
    public var accessLog = true
    /// How long in-flight requests get to finish after SIGTERM.
    public var gracePeriod: Duration = .seconds(10)
    /// The map pages (`/map`, `/map/trips/{tripId}`); nil serves none.
    public var map: MapConfiguration? = MapConfiguration()
    /// The engine's settings: its router (`--router`), say.
    public var engine = EngineConfiguration()
    /// How long the position history keeps a point (`--history-retention`); older points are
    /// pruned in the background. Zero removes them all (and `engine.keepsHistory` off keeps none).
    public var historyRetention: Duration = .seconds(30 * 86_400)

    public init() {}

    /// Splits `listen` into host and port.
    public func hostAndPort() throws -> (host: String, port: Int) {
        try Self.hostAndPort(listen, option: "listen")
    }

    /// Splits `HOST:PORT` (`:PORT` for 127.0.0.1, `[::1]:PORT`) given to `--option` into host and port.
    public static func hostAndPort(_ address: String, option: String) throws -> (host: String, port: Int) {
        var text = Substring(address)
        if text.hasPrefix(":") { text = "127.0.0.1" + text }
        guard let colon = text.lastIndex(of: ":") else {
            throw FleetError.invalidArgument("--\(option) '\(address)' must be HOST:PORT, e.g. 127.0.0.1:8080", field: option)
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port), !host.isEmpty else {
            throw FleetError.invalidArgument("--\(option) '\(address)' must be HOST:PORT with a port from 0 to 65535", field: option)
        }
        return (host, port)
    }

    /// The verifier for the configured keys, nil when none were given. Every key is bound to one
    /// provider (`keyProvider`), so a token acts only on the provider its key is for.
    public func verifier() throws -> TokenVerifier? {
        var keys: [VerificationKey] = []
        for value in jwtKeyFiles {
            let (named, file) = Self.providerAndFile(value)
            let text = try Self.read(file, option: "--jwt-key")
            let key = text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{")
                ? try VerificationKey.fromServiceAccountJSON(text) : try VerificationKey.rs256(publicKeyPEM: text)
            keys.append(key.bound(to: try keyProvider(named: named, ofKey: key.provider, option: "--jwt-key", file: file)))
        }
        // A secret two providers shared would sign tokens for either: each provider needs its own.
        var providerOfSecret: [String: String] = [:]
        for value in jwtSecretFiles {
            let (named, file) = Self.providerAndFile(value)
            let contents = try Self.read(file, option: "--jwt-secret-file")
            let key = try VerificationKey.hs256(secretFileContents: Array(contents.utf8))
            let provider = try keyProvider(named: named, ofKey: nil, option: "--jwt-secret-file", file: file)
            let secret = contents.hasSuffix("\n") ? String(contents.dropLast()) : contents
            if let other = providerOfSecret[secret], other != provider {
                throw FleetError.invalidArgument("--jwt-secret-file \(file): the same secret is given for provider '\(other)'; a token it signs could act for both, so give each provider its own secret", field: "--jwt-secret-file")
            }
            providerOfSecret[secret] = provider
            keys.append(key.bound(to: provider))
        }
        return keys.isEmpty ? nil : TokenVerifier(keys: keys)
    }

    /// Splits a key option's value into the provider it names and the file: `PROVIDER=FILE` when the
    /// text before the first `=` holds no `/`, else all of it is the file (write `./a=b` for a file
    /// whose name holds `=`).
    static func providerAndFile(_ value: String) -> (provider: String?, file: String) {
        guard let equals = value.firstIndex(of: "="), equals != value.startIndex,
              !value[..<equals].contains("/") else { return (nil, value) }
        return (String(value[..<equals]), String(value[value.index(after: equals)...]))
    }

    /// The provider a key's tokens act for: the one named in the option (`PROVIDER=FILE`), else the
    /// key's own (a service account's `project_id`), else the one provider the server serves
    /// (`--provider`). A server serving every provider cannot tell which one a bare secret is for.
    ///
    /// - Throws: INVALID_ARGUMENT naming the option when no provider follows, when the name and the
    ///   key file's `project_id` differ, or when it is not the `--provider` served.
    func keyProvider(named: String?, ofKey own: String?, option: String, file: String) throws -> String {
        if let named {
            _ = try ProviderName(parsing: "providers/\(named)", field: option)
            if let own, own != named {
                throw FleetError.invalidArgument("\(option) \(named)=\(file): the key file's project_id is '\(own)', not '\(named)'", field: option)
            }
        }
        guard let bound = named ?? own ?? provider else {
            throw FleetError.invalidArgument("\(option) \(file): say which provider its tokens are for, as \(option) PROVIDER=\(file), or serve one provider with --provider", field: option)
        }
        if let provider, bound != provider {
            throw FleetError.invalidArgument("\(option) \(file): the key is for provider '\(bound)', but this server serves only --provider '\(provider)'", field: option)
        }
        return bound
    }

    static func read(_ path: String, option: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw FleetError.invalidArgument("\(option) \(path): cannot read the file", field: option)
        }
        return text
    }
}

/// `fleet-admin serve`: the engine behind Fleet Engine's REST API until SIGTERM or SIGINT.
public enum FleetServer {
    /// Google's error body for the answers the HTTP layer gives by itself: 408 for a request that
    /// did not arrive in time, 413 for a body over the limit, 429 for a watch over the limits, 431
    /// for header fields over the limit, 503 when a stop answers calls still waiting for their
    /// commit, 400 for a malformed request.
    public static func errorBody(status: Int, message: String) -> HTTPResponse {
        let cause: ErrorCause = switch status {
        case 408: .requestTimeout
        case 413: .requestTooLarge
        case 429: .tooManyStreams
        case 431: .requestHeadersTooLarge
        case 503: .serverUnavailable
        default: .badHTTPRequest
        }
        return FleetService.errorResponse(FleetError(cause, detail: message))
    }

    /// The servers (REST, gRPC or both) that listen, until `stop`.
    public final class Running {
        /// The bound addresses as base URLs (`http://127.0.0.1:8080`, `grpc://127.0.0.1:50051`, or
        /// both joined by " and "; the real ports when 0 was asked).
        public let url: String
        private let server: HTTPServer?
        private let grpcServer: GRPCServer?
        private let metricsServer: HTTPServer?
        private let store: any Store
        private let gracePeriod: Duration
        private let pruner: HistoryPruner
        private let learning: HistoryLearningJob?

        init(url: String, server: HTTPServer?, grpcServer: GRPCServer?, metricsServer: HTTPServer?, store: any Store, gracePeriod: Duration,
             pruner: HistoryPruner, learning: HistoryLearningJob?) {
            self.url = url
            self.server = server
            self.grpcServer = grpcServer
            self.metricsServer = metricsServer
            self.store = store
            self.gracePeriod = gracePeriod
            self.pruner = pruner
            self.learning = learning
        }

        /// Stops gracefully: new connections refused, in-flight calls finished (up to the grace
        /// period, both servers at once), watches closed, then the store closed.
        public func stop() throws {
            let grpcStopping = grpcServer.map { grpcServer in
                let gracePeriod = gracePeriod
                return WorkerThread.start(name: "grpc-stop") { grpcServer.stop(gracePeriod: gracePeriod) }
            }
            server?.stop(gracePeriod: gracePeriod)
            metricsServer?.stop(gracePeriod: .zero)
            grpcStopping?.join()
            pruner.stop()
            learning?.stop()
            try store.close()
        }
    }

    /// Starts serving `store` as configured and returns once the server listens. What runs the
    /// process around it (signals, systemd's notifications) is the caller's: `fleet-admin serve`.
    public static func start(store: any Store, options: ServeOptions) throws -> Running {
        let (host, port) = try options.hostAndPort()
        let verifier = try options.verifier()
        if verifier == nil && !options.insecure && !isLoopback(host) && options.serveREST {
            throw FleetError(.insecureListen, detail: host, field: "listen")
        }
        let grpcConfiguration = try options.grpc.map { try $0.configuration(threads: options.threads, maxMessageBytes: options.maxBodyBytes) }
        if let grpcConfiguration, verifier == nil && !options.insecure && !isLoopback(grpcConfiguration.host) {
            throw FleetError(.insecureListen, detail: grpcConfiguration.host, field: "grpc-listen")
        }
        let metricsAddress = try options.metricsListen.map { try ServeOptions.hostAndPort($0, option: "metrics-listen") }
        if let warning = try options.map?.validate() { FileHandle.standardError.write(Data("fleet-admin serve: \(warning)\n".utf8)) }
        let metrics = ServerMetrics()
        let measured = MeasuredStore(store, metrics: metrics)
        // A rate of r a second with no burst given allows one second's worth at once.
        let limiter = options.rateLimit.map { RateLimiter(rate: $0, burst: options.rateBurst ?? max(1, $0)) }
        let requestGuard = RequestGuard(rateLimiter: limiter, allowedHosts: Set(options.allowedHosts + [host] + [metricsAddress?.host].compactMap { $0 }))
        let site = options.map.map { MapSite(configuration: $0, provider: options.provider) }
        var engineConfiguration = options.engine
        if engineConfiguration.log == nil {
            engineConfiguration.log = { FileHandle.standardError.write(Data("fleet-admin serve: \($0)\n".utf8)) }
        }
        let engine = Engine(store: measured, configuration: engineConfiguration)
        metrics.addSource { engine.learnedMetrics() }
        let service = FleetService(engine: engine, verifier: verifier, provider: options.provider, metrics: metrics,
                                   requestGuard: requestGuard, map: site)
        let logging = options.accessLog
        let accessLog: @Sendable (HTTPAccessLogEntry) -> Void = { entry in
            if logging { HTTPAccessLogEntry.writeToStandardError(entry) }
        }
        var configuration = HTTPServer.Configuration()
        configuration.host = host
        configuration.port = port
        configuration.threadPoolSize = max(1, options.threads)
        configuration.maxRequestBodyBytes = options.maxBodyBytes
        configuration.connectionTimeout = options.connectionTimeout
        configuration.maxConnections = options.maxConnections
        configuration.maxConnectionsPerClient = options.maxConnectionsPerClient
        configuration.headerTimeout = options.headerTimeout
        configuration.bodyTimeout = options.bodyTimeout
        configuration.maxEventStreams = options.maxWatches
        configuration.maxEventStreamsPerClient = options.maxWatchesPerClient
        configuration.errorBody = { FleetServer.errorBody(status: $0, message: $1) }
        configuration.accessLog = accessLog
        let handler: @Sendable (HTTPRequest) -> HTTPReply = { service.handle($0) }
        let server = HTTPServer(configuration: configuration, handler: handler)

        let bound = options.serveREST ? try server.start() : nil
        let grpcServer = grpcConfiguration.map { GRPCServer(configuration: $0, handler: FleetGRPCService(service: service).handle) }
        let metricsServer = metricsAddress.map { address in
            var metricsConfiguration = HTTPServer.Configuration()
            metricsConfiguration.host = address.host
            metricsConfiguration.port = address.port
            metricsConfiguration.threadPoolSize = 1
            metricsConfiguration.maxConnections = 64
            metricsConfiguration.errorBody = { FleetServer.errorBody(status: $0, message: $1) }
            metricsConfiguration.accessLog = accessLog
            return HTTPServer(configuration: metricsConfiguration, handler: { service.handleMetricsListener($0) })
        }
        let grpcBound: String?
        let metricsBound: HTTPServer.BoundAddress?
        do {
            grpcBound = try grpcServer?.start()
            metricsBound = try metricsServer?.start()
        } catch {
            if options.serveREST { server.stop(gracePeriod: .zero) }
            grpcServer?.stop(gracePeriod: .zero)
            throw error
        }
        let urls = [bound.map { "http://\($0)" }, grpcBound.map { "grpc://\($0)" }, metricsBound.map { "metrics http://\($0)" }]
            .compactMap { $0 }.joined(separator: " and ")
        let retention = options.historyRetention.components
        let pruner = HistoryPruner(store: store, retentionSeconds: Double(retention.seconds) + Double(retention.attoseconds) / 1e18,
                                   log: { FileHandle.standardError.write(Data("fleet-admin serve: \($0)\n".utf8)) })
        pruner.start()
        // Learns travel times from the history kept, when ETAs use them and a history is kept.
        var learning: HistoryLearningJob? = nil
        if let settings = options.engine.learnedETAs, options.engine.keepsHistory {
            let job = HistoryLearningJob(
                learning: HistoryLearning(storage: LearnedTimesStorage(store: store),
                                          learner: DriveLearner(utcOffsetSeconds: settings.model.utcOffsetSeconds)),
                provider: options.provider, intervalSeconds: settings.learnEverySeconds,
                log: { FileHandle.standardError.write(Data("fleet-admin serve: \($0)\n".utf8)) },
                onLearned: { engine.forgetLearnedTimes() })
            job.start()
            learning = job
        }
        return Running(url: urls, server: options.serveREST ? server : nil, grpcServer: grpcServer, metricsServer: metricsServer,
                       store: store, gracePeriod: options.gracePeriod, pruner: pruner, learning: learning)
    }

    /// 127.0.0.0/8, ::1 and localhost.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
