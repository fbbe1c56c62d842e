import FleetCLI
import FleetErrors
import FleetKit
import FleetRouting
import FleetStore
import Foundation
import MapPages
import APIServer

/// `serve`'s options, declared once: the command lists them and reads them by these declarations.
enum ServeFlags {
    /// `--listen`.
    static let listen = OptionDefinition.value("listen", valueName: "host:port", help: "Address to listen on; port 0 picks a free port.",
        default: "127.0.0.1:8080", environment: "FLEET_LISTEN")
    /// `--grpc-listen`.
    static let grpcListen = OptionDefinition.value("grpc-listen", valueName: "host:port", help: "Also serve Fleet Engine's gRPC API (VehicleService, TripService) on this address; alone, without --listen, serve only gRPC.",
        environment: "FLEET_GRPC_LISTEN")
    /// `--grpc-tls-cert`.
    static let grpcTlsCert = OptionDefinition.value("grpc-tls-cert", valueName: "file", help: "PEM certificate chain for gRPC over TLS (with --grpc-tls-key); plain text without.",
        environment: "FLEET_GRPC_TLS_CERT", completion: .files)
    /// `--grpc-tls-key`.
    static let grpcTlsKey = OptionDefinition.value("grpc-tls-key", valueName: "file", help: "PEM private key of --grpc-tls-cert.", environment: "FLEET_GRPC_TLS_KEY", completion: .files)
    /// `--metrics-listen`.
    static let metricsListen = OptionDefinition.value("metrics-listen", valueName: "host:port", help: "Also answer GET /metrics here without a token, for a Prometheus scraper (keep it off public networks); /metrics on --listen needs a server or fleet-reader token when tokens are on.",
        environment: "FLEET_METRICS_LISTEN")
    /// `--jwt-key`.
    static let jwtKey = OptionDefinition.value("jwt-key", valueName: "[provider=]file", help: "PEM RSA public key, X.509 certificate or Google service-account JSON to verify RS256 tokens with; its tokens act only on the provider named, else the key file's project_id, else --provider.",
        environment: "FLEET_JWT_KEY", repeatable: true, completion: .files)
    /// `--jwt-secret-file`.
    static let jwtSecretFile = OptionDefinition.value("jwt-secret-file", valueName: "[provider=]file", help: "File holding an HS256 secret (at least 32 bytes); its tokens act only on the provider named, else --provider.",
        environment: "FLEET_JWT_SECRET_FILE", repeatable: true, completion: .files)
    /// `--insecure`.
    static let insecure = OptionDefinition.flag("insecure", help: "Allow a non-loopback address without token checks.")
    /// `--max-body`.
    static let maxBody = OptionDefinition.value("max-body", valueName: "bytes", help: "Largest request body; larger ones get 413.", default: "1048576")
    /// `--threads`.
    static let threads = OptionDefinition.value("threads", valueName: "n", help: "Threads serving requests (a call that writes waits for its commit without one).", default: String(ServeOptions.defaultThreads))
    /// `--max-connections`.
    static let maxConnections = OptionDefinition.value("max-connections", valueName: "n", help: "Most connections open at once.", default: "4096")
    /// `--connection-timeout`.
    static let connectionTimeout = OptionDefinition.value("connection-timeout", valueName: "duration", help: "Close connections idle this long (0 for never).", default: "60s")
    /// `--max-connections-per-client`.
    static let maxConnectionsPerClient = OptionDefinition.value("max-connections-per-client", valueName: "n", help: "Most connections open at once from one client address (0 for no limit); more are closed at once.", default: "1024")
    /// `--header-timeout`.
    static let headerTimeout = OptionDefinition.value("header-timeout", valueName: "duration", help: "Time a request's line and headers may take to arrive (0 for no limit); then 408.", default: "30s")
    /// `--body-timeout`.
    static let bodyTimeout = OptionDefinition.value("body-timeout", valueName: "duration", help: "Time a request's body may take to arrive after its headers (0 for no limit); then 408.", default: "60s")
    /// `--max-watches`.
    static let maxWatches = OptionDefinition.value("max-watches", valueName: "n", help: "Most :watch streams open at once (0 for no limit); more get 429.", default: "3072")
    /// `--max-watches-per-client`.
    static let maxWatchesPerClient = OptionDefinition.value("max-watches-per-client", valueName: "n", help: "Most :watch streams open at once from one client address (0 for no limit); more get 429.", default: "512")
    /// `--rate-limit`.
    static let rateLimit = OptionDefinition.value("rate-limit", valueName: "rps", help: "Requests a second per token, or per client address without tokens; more get 429 with Retry-After (default: no limit).")
    /// `--rate-burst`.
    static let rateBurst = OptionDefinition.value("rate-burst", valueName: "n", help: "Requests a caller may send at once within --rate-limit (default: one second's worth).")
    /// `--allow-host`.
    static let allowHost = OptionDefinition.value("allow-host", valueName: "name", help: "Without token checks, answer requests for this Host besides loopback names and the listen address ('*' for any).",
        repeatable: true)
    /// `--no-access-log`.
    static let noAccessLog = OptionDefinition.flag("no-access-log", help: "Do not write an access log line per request.")
    /// `--leaflet-dir`.
    static let leafletDir = OptionDefinition.value("leaflet-dir", valueName: "dir", help: "Folder holding Leaflet 1.x (leaflet.js, leaflet.css, images/) for the map pages.",
        default: MapConfiguration.debianLeafletDirectory, environment: "FLEET_LEAFLET_DIR", completion: .directories)
    /// `--tiles`.
    static let tiles = OptionDefinition.value("tiles", valueName: "url-template", help: "Tile server for the map pages' base layer, e.g. https://tile.example.org/{z}/{x}/{y}.png.",
        environment: "FLEET_TILES")
    /// `--tiles-attribution`.
    static let tilesAttribution = OptionDefinition.value("tiles-attribution", valueName: "text", help: "Attribution the tile server requires, shown on the map.",
        environment: "FLEET_TILES_ATTRIBUTION")
    /// `--map-roads`.
    static let mapRoads = OptionDefinition.value("map-roads", valueName: "file", help: "GeoJSON roads drawn as the map's base layer when no --tiles are given (offline maps); default: roads.geojson beside --router routino:DIR's database, when there.",
        environment: "FLEET_MAP_ROADS", completion: .files)
    /// `--map-token-url`.
    static let mapTokenURL = OptionDefinition.value("map-token-url", valueName: "url-template", help: "Where a map page fetches a new token when its own expires ({provider}, {trip} and {tracking} filled in; JSON with a token member, asked with the browser's cookies); without it the page asks for a new link.",
        environment: "FLEET_MAP_TOKEN_URL")
    /// `--stale-after`.
    static let staleAfter = OptionDefinition.value("stale-after", valueName: "seconds", help: "The map pages flag a vehicle whose last location is older than this as stale.",
        default: "30", environment: "FLEET_STALE_AFTER")
    /// `--history-retention`.
    static let historyRetention = OptionDefinition.value("history-retention", valueName: "duration", help: "Keep every accepted location update this long in the position history (fleet-admin history), pruned in the background; 0 keeps nothing.",
        default: "30d", environment: "FLEET_HISTORY_RETENTION")
    /// `--no-map`.
    static let noMap = OptionDefinition.flag("no-map", help: "Do not serve the map pages under /map.")
    /// `--learned-etas on|off`.
    static let learnedETAs = OptionDefinition.value("learned-etas", valueName: "on|off", help: "Time the route ahead with the travel times learned from the fleet's drives (fleet-admin speeds); off uses each vehicle's live speed only.",
                                          default: "on", environment: "FLEET_LEARNED_ETAS", allowedValues: ["on", "off"])
    /// In the order help shows them.
    static let all: [OptionDefinition] = [
        listen, grpcListen, grpcTlsCert, grpcTlsKey, metricsListen, jwtKey, jwtSecretFile, insecure, maxBody, threads, maxConnections,
        connectionTimeout, maxConnectionsPerClient, headerTimeout, bodyTimeout, maxWatches, maxWatchesPerClient, rateLimit,
        rateBurst, allowHost, noAccessLog, leafletDir, tiles, tilesAttribution, mapRoads, mapTokenURL, staleAfter, noMap,
        RouteCommand.routerOption, learnedETAs, historyRetention,
    ]
}

/// `fleet-admin serve`: Fleet Engine's REST API over the engine and a store, on libmicrohttpd.
let serveCommand = Command(
    "serve",
    abstract: "Serve Fleet Engine's REST API (and the :watch extension) over a store.",
    discussion: """
    With --grpc-listen it also serves Fleet Engine's gRPC API (maps.fleetengine.v1.VehicleService and \
    TripService, what Google's own client libraries speak) over the same engine, tokens and limits; \
    given without --listen, it serves gRPC only.

    Prints the address it listens on once ready, answers GET /healthz with 200 and GET /metrics in \
    Prometheus text format, and writes one access log line per request to standard error. SIGTERM or \
    SIGINT stops it gracefully: no new connections, in-flight requests finish, watches close, the store \
    closes. Under systemd (Type=notify) it reports READY=1, STOPPING=1 and watchdog pings.

    Without --jwt-key or --jwt-secret-file every caller is trusted, so the server refuses to listen on \
    anything but loopback unless --insecure is given. With keys, every call needs an \
    `Authorization: Bearer` JWT whose role (the `fleetrole` claim) allows it (docs/http-api.md). \
    Every key is for one provider: a service-account key for its project_id, a secret or PEM key for \
    the provider named before it (--jwt-secret-file p1=/etc/fleet/p1.secret) or, on a server of one \
    --provider, for that one; a token used on another provider is PERMISSION_DENIED.
    """,
    options: ServeFlags.all,
    examples: [
        Example("fleet-admin serve --listen 127.0.0.1:8080", "Serve the embedded store on loopback."),
        Example("fleet-admin serve --listen 0.0.0.0:8080 --store sqlite:/var/lib/fleet/fleet.db --provider acme --jwt-secret-file /etc/fleet/secret",
                "Serve one provider to a network, with HS256 tokens."),
        Example("fleet-admin serve --listen 0.0.0.0:8080 --jwt-secret-file acme=/etc/fleet/acme.secret --jwt-key /etc/fleet/globex-sa.json",
                "Serve two providers: acme's tokens signed with its secret, globex's with its service account (project_id globex)."),
        Example("fleet-admin serve --listen 127.0.0.1:0 --store memory", "A throwaway server on a free port (tests)."),
        Example("fleet-admin serve --listen 127.0.0.1:8080 --grpc-listen 127.0.0.1:50051",
                "REST and gRPC (Google's own client libraries) over the same engine."),
    ]
) { args, context in
    var options = ServeOptions()
    options.listen = args.string(ServeFlags.listen) ?? options.listen
    if let grpcListen = args.string(ServeFlags.grpcListen) {
        options.grpc = GRPCServeOptions(listen: grpcListen, tlsCertificateFile: args.string(ServeFlags.grpcTlsCert), tlsKeyFile: args.string(ServeFlags.grpcTlsKey))
        options.serveREST = args.isGiven(ServeFlags.listen)
    }
    guard args.isGiven(ServeFlags.grpcTlsCert) == args.isGiven(ServeFlags.grpcTlsKey) else {
        throw args.usageError("--grpc-tls-cert and --grpc-tls-key go together: give both or neither")
    }
    if args.isGiven(ServeFlags.grpcTlsCert) && options.grpc == nil { throw args.usageError("--grpc-tls-cert needs --grpc-listen") }
    options.metricsListen = args.string(ServeFlags.metricsListen)
    options.provider = args.string(GlobalOptions.provider)
    options.jwtKeyFiles = args.strings(ServeFlags.jwtKey)
    options.jwtSecretFiles = args.strings(ServeFlags.jwtSecretFile)
    options.insecure = args.flag(ServeFlags.insecure)
    options.accessLog = !args.flag(ServeFlags.noAccessLog)
    if let bytes = try args.int(ServeFlags.maxBody) {
        guard bytes > 0 else { throw args.usageError("--max-body must be positive") }
        options.maxBodyBytes = bytes
    }
    if let threads = try args.int(ServeFlags.threads) {
        guard threads > 0 else { throw args.usageError("--threads must be positive") }
        options.threads = threads
    }
    if let connections = try args.int(ServeFlags.maxConnections) {
        guard connections > 0 else { throw args.usageError("--max-connections must be positive") }
        options.maxConnections = connections
    }
    if let timeout = try args.duration(ServeFlags.connectionTimeout) {
        options.connectionTimeout = timeout == .zero ? nil : timeout
    }
    if args.flag(ServeFlags.noMap) {
        options.map = nil
    } else {
        var map = MapConfiguration()
        if let dir = args.string(ServeFlags.leafletDir), dir != map.leafletDirectory {
            map.leafletDirectory = dir
            map.leafletDirectoryGiven = true
        }
        map.tilesURL = args.string(ServeFlags.tiles).flatMap { $0.isEmpty ? nil : $0 }
        map.tilesAttribution = args.string(ServeFlags.tilesAttribution)
        map.roadsFile = args.string(ServeFlags.mapRoads).flatMap { $0.isEmpty ? nil : $0 }
        map.tokenURL = args.string(ServeFlags.mapTokenURL).flatMap { $0.isEmpty ? nil : $0 }
        if let seconds = try args.double(ServeFlags.staleAfter) {
            guard seconds > 0, seconds.isFinite else { throw args.usageError("--stale-after must be a positive number of seconds") }
            map.staleAfterSeconds = seconds
        }
        options.map = map
    }
    options.engine.router = try planningRouter(args)
    if args.string(ServeFlags.learnedETAs) == "off" { options.engine.learnedETAs = nil }
    if let retention = try args.duration(ServeFlags.historyRetention) {
        options.historyRetention = retention
        options.engine.keepsHistory = retention > .zero
    }
    // Without tiles or roads of its own, the map draws the routing map's roads (make map writes them beside
    // the Routino database), so the pages show the streets the routes follow, offline.
    if var map = options.map, map.tilesURL == nil, map.roadsFile == nil,
       let url = options.engine.router?.url, url.hasPrefix("routino:") {
        let roads = String(url.dropFirst("routino:".count)) + "/roads.geojson"
        if FileManager.default.fileExists(atPath: roads) {
            map.roadsFile = roads
            options.map = map
        }
    }
    if let connections = try args.int(ServeFlags.maxConnectionsPerClient) {
        guard connections >= 0 else { throw args.usageError("--max-connections-per-client must be 0 or more") }
        options.maxConnectionsPerClient = connections == 0 ? nil : connections
    }
    if let timeout = try args.duration(ServeFlags.headerTimeout) {
        options.headerTimeout = timeout == .zero ? nil : timeout
    }
    if let timeout = try args.duration(ServeFlags.bodyTimeout) {
        options.bodyTimeout = timeout == .zero ? nil : timeout
    }
    if let watches = try args.int(ServeFlags.maxWatches) {
        guard watches >= 0 else { throw args.usageError("--max-watches must be 0 or more") }
        options.maxWatches = watches == 0 ? nil : watches
    }
    if let watches = try args.int(ServeFlags.maxWatchesPerClient) {
        guard watches >= 0 else { throw args.usageError("--max-watches-per-client must be 0 or more") }
        options.maxWatchesPerClient = watches == 0 ? nil : watches
    }
    if let text = args.string(ServeFlags.rateLimit) {
        guard let rate = Double(text), rate.isFinite, rate > 0 else { throw args.usageError("--rate-limit must be a positive number of requests a second") }
        options.rateLimit = rate
    }
    if let burst = try args.int(ServeFlags.rateBurst) {
        guard burst > 0 else { throw args.usageError("--rate-burst must be positive") }
        guard options.rateLimit != nil else { throw args.usageError("--rate-burst needs --rate-limit") }
        options.rateBurst = Double(burst)
    }
    options.allowedHosts = args.strings(ServeFlags.allowHost)
    let storeURL = try args.group(ConnectionGroup.self).storeURL()
    // A malformed address, an unreadable key file or store URL is a usage error (exit 2) naming the option.
    try args.checkingSettings {
        _ = try options.hostAndPort()
        _ = try options.metricsListen.map { try ServeOptions.hostAndPort($0, option: "metrics-listen") }
        _ = try options.verifier()
        try Wiring.checkStore(storeURL)
    }
    let store = try Wiring.openStore(storeURL)
    try ServeLifecycle.run(store: store, options: options) { url in
        context.print("listening on \(url) (store \(StoreRegistry.redacted(storeURL)), router \(options.engine.router?.url ?? "straight"))")
    }
    context.printError("fleet-admin serve: stopped")
    return 0
}

/// The router `--router` (or `FLEET_ROUTER`) names when it plans on roads; a bad URL is a usage error
/// listing the schemes.
private func planningRouter(_ args: ParsedArguments) throws -> (any Router)? {
    do {
        return try Wiring.planningRouter(args.string(RouteCommand.routerOption), environment: [:])
    } catch {
        throw args.usageError("--router: \(error.message)")
    }
}
