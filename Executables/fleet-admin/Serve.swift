import FleetCLI
import FleetErrors
import FleetKit
import FleetRouting
import FleetStore
import Foundation
import MapPages
import APIServer

/// `serve`'s options, each declared once with its default, environment variable and checks.
struct ServeFlags: OptionGroup {
    /// `--learned-etas on|off`.
    enum Switch: String, OptionValue {
        case on, off
    }

    @Option("listen", valueName: "host:port", help: "Address to listen on; port 0 picks a free port.",
            default: "127.0.0.1:8080", environment: "FLEET_LISTEN")
    var listen: String
    @Option("grpc-listen", valueName: "host:port", help: "Also serve Fleet Engine's gRPC API (VehicleService, TripService) on this address; alone, without --listen, serve only gRPC.",
            environment: "FLEET_GRPC_LISTEN")
    var grpcListen: String?
    @Option("grpc-tls-cert", valueName: "file", help: "PEM certificate chain for gRPC over TLS (with --grpc-tls-key); plain text without.",
            environment: "FLEET_GRPC_TLS_CERT", completion: .files)
    var grpcTLSCertificate: String?
    @Option("grpc-tls-key", valueName: "file", help: "PEM private key of --grpc-tls-cert.", environment: "FLEET_GRPC_TLS_KEY", completion: .files)
    var grpcTLSKey: String?
    @Option("metrics-listen", valueName: "host:port", help: "Also answer GET /metrics here without a token, for a Prometheus scraper (keep it off public networks); /metrics on --listen needs a server or fleet-reader token when tokens are on.",
            environment: "FLEET_METRICS_LISTEN")
    var metricsListen: String?
    @Option("jwt-key", valueName: "[provider=]file", help: "PEM RSA public key, X.509 certificate or Google service-account JSON to verify RS256 tokens with; its tokens act only on the provider named, else the key file's project_id, else --provider.",
            environment: "FLEET_JWT_KEY", completion: .files)
    var jwtKeys: [String]
    @Option("jwt-secret-file", valueName: "[provider=]file", help: "File holding an HS256 secret (at least 32 bytes); its tokens act only on the provider named, else --provider.",
            environment: "FLEET_JWT_SECRET_FILE", completion: .files)
    var jwtSecretFiles: [String]
    @Flag("insecure", help: "Allow a non-loopback address without token checks.")
    var insecure: Bool
    @Option("max-body", valueName: "bytes", help: "Largest request body; larger ones get 413.", default: "1048576", check: .positive)
    var maxBody: Int
    @Option("threads", valueName: "n", help: "Threads serving requests (a call that writes waits for its commit without one).",
            default: String(ServeOptions.defaultThreads), check: .positive)
    var threads: Int
    @Option("max-connections", valueName: "n", help: "Most connections open at once.", default: "4096", check: .positive)
    var maxConnections: Int
    @Option("connection-timeout", valueName: "duration", help: "Close connections idle this long (0 for never).", default: "60s")
    var connectionTimeout: Duration
    @Option("max-connections-per-client", valueName: "n", help: "Most connections open at once from one client address (0 for no limit); more are closed at once.",
            default: "1024", check: .zeroOrMore)
    var maxConnectionsPerClient: Int
    @Option("header-timeout", valueName: "duration", help: "Time a request's line and headers may take to arrive (0 for no limit); then 408.", default: "30s")
    var headerTimeout: Duration
    @Option("body-timeout", valueName: "duration", help: "Time a request's body may take to arrive after its headers (0 for no limit); then 408.", default: "60s")
    var bodyTimeout: Duration
    @Option("max-watches", valueName: "n", help: "Most :watch streams open at once (0 for no limit); more get 429.", default: "3072", check: .zeroOrMore)
    var maxWatches: Int
    @Option("max-watches-per-client", valueName: "n", help: "Most :watch streams open at once from one client address (0 for no limit); more get 429.", default: "512", check: .zeroOrMore)
    var maxWatchesPerClient: Int
    @Option("rate-limit", valueName: "rps", help: "Requests a second per token, or per client address without tokens; more get 429 with Retry-After (default: no limit).",
            transform: { text throws(ArgumentProblem) in
                guard let rate = Double(text), rate.isFinite, rate > 0 else { throw .sentence("must be a positive number of requests a second") }
                return rate
            })
    var rateLimit: Double?
    @Option("rate-burst", valueName: "n", help: "Requests a caller may send at once within --rate-limit (default: one second's worth).", check: .positive)
    var rateBurst: Int?
    @Option("allow-host", valueName: "name", help: "Without token checks, answer requests for this Host besides loopback names and the listen address ('*' for any).")
    var allowedHosts: [String]
    @Flag("no-access-log", help: "Do not write an access log line per request.")
    var noAccessLog: Bool
    @Option("leaflet-dir", valueName: "dir", help: "Folder holding Leaflet 1.x (leaflet.js, leaflet.css, images/) for the map pages.",
            default: MapConfiguration.debianLeafletDirectory, environment: "FLEET_LEAFLET_DIR", completion: .directories)
    var leafletDirectory: String
    @Option("tiles", valueName: "url-template", help: "Tile server for the map pages' base layer, e.g. https://tile.example.org/{z}/{x}/{y}.png.",
            environment: "FLEET_TILES")
    var tiles: String?
    @Option("tiles-attribution", valueName: "text", help: "Attribution the tile server requires, shown on the map.",
            environment: "FLEET_TILES_ATTRIBUTION")
    var tilesAttribution: String?
    @Option("map-roads", valueName: "file", help: "GeoJSON roads drawn as the map's base layer when no --tiles are given (offline maps); default: roads.geojson beside --router routino:DIR's database, when there.",
            environment: "FLEET_MAP_ROADS", completion: .files)
    var mapRoads: String?
    @Option("map-token-url", valueName: "url-template", help: "Where a map page fetches a new token when its own expires ({provider}, {trip} and {tracking} filled in; JSON with a token member, asked with the browser's cookies); without it the page asks for a new link.",
            environment: "FLEET_MAP_TOKEN_URL")
    var mapTokenURL: String?
    @Option("stale-after", valueName: "seconds", help: "The map pages flag a vehicle whose last location is older than this as stale.",
            default: "30", environment: "FLEET_STALE_AFTER",
            check: OptionCheck { seconds throws(ArgumentProblem) in
                guard seconds > 0 else { throw .sentence("must be a positive number of seconds") }
            })
    var staleAfterSeconds: Double
    @Flag("no-map", help: "Do not serve the map pages under /map.")
    var noMap: Bool
    /// `--router`.
    var router = RouterFlag()
    @Option("learned-etas", valueName: "on|off", help: "Time the route ahead with the travel times learned from the fleet's drives (fleet-admin speeds); off uses each vehicle's live speed only.",
            default: "on", environment: "FLEET_LEARNED_ETAS")
    var learnedETAs: Switch
    @Option("history-retention", valueName: "duration", help: "Keep every accepted location update this long in the position history (fleet-admin history), pruned in the background; 0 keeps nothing.",
            default: "30d", environment: "FLEET_HISTORY_RETENTION")
    var historyRetention: Duration

    /// No option given.
    init() {}

    /// The TLS files go together and with `--grpc-listen`; a burst needs a rate.
    func validate() throws(ValidationError) {
        guard $grpcTLSCertificate.isGiven == $grpcTLSKey.isGiven else {
            throw ValidationError("--grpc-tls-cert and --grpc-tls-key go together: give both or neither")
        }
        if $grpcTLSCertificate.isGiven && grpcListen == nil { throw ValidationError("--grpc-tls-cert needs --grpc-listen") }
        if rateBurst != nil && rateLimit == nil { throw ValidationError("--rate-burst needs --rate-limit") }
    }
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
    options: ServeFlags.options,
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
    let flags = try ServeFlags(args)
    var options = ServeOptions()
    options.listen = flags.listen
    if let grpcListen = flags.grpcListen {
        options.grpc = GRPCServeOptions(listen: grpcListen, tlsCertificateFile: flags.grpcTLSCertificate, tlsKeyFile: flags.grpcTLSKey)
        options.serveREST = flags.$listen.isGiven
    }
    options.metricsListen = flags.metricsListen
    options.provider = try GlobalOptions(args).provider
    options.jwtKeyFiles = flags.jwtKeys
    options.jwtSecretFiles = flags.jwtSecretFiles
    options.insecure = flags.insecure
    options.accessLog = !flags.noAccessLog
    options.maxBodyBytes = flags.maxBody
    options.threads = flags.threads
    options.maxConnections = flags.maxConnections
    options.connectionTimeout = flags.connectionTimeout == .zero ? nil : flags.connectionTimeout
    if flags.noMap {
        options.map = nil
    } else {
        var map = MapConfiguration()
        if flags.leafletDirectory != map.leafletDirectory {
            map.leafletDirectory = flags.leafletDirectory
            map.leafletDirectoryGiven = true
        }
        map.tilesURL = flags.tiles.flatMap { $0.isEmpty ? nil : $0 }
        map.tilesAttribution = flags.tilesAttribution
        map.roadsFile = flags.mapRoads.flatMap { $0.isEmpty ? nil : $0 }
        map.tokenURL = flags.mapTokenURL.flatMap { $0.isEmpty ? nil : $0 }
        map.staleAfterSeconds = flags.staleAfterSeconds
        options.map = map
    }
    options.engine.router = try flags.router.planningRouter(args)
    if flags.learnedETAs == .off { options.engine.learnedETAs = nil }
    options.historyRetention = flags.historyRetention
    options.engine.keepsHistory = flags.historyRetention > .zero
    // A bare number is seconds: `--history-retention 30` meant as days would prune every point after 30 s.
    if let text = args.string("history-retention"), DurationText.isBareNumber(text),
       flags.historyRetention > .zero, flags.historyRetention < .seconds(3600) {
        let retention = DurationText.format(flags.historyRetention)
        context.printError("fleet-admin serve: --history-retention \(text) keeps each point for \(retention) only: a bare number is seconds (30d is 30 days)")
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
    options.maxConnectionsPerClient = flags.maxConnectionsPerClient == 0 ? nil : flags.maxConnectionsPerClient
    options.headerTimeout = flags.headerTimeout == .zero ? nil : flags.headerTimeout
    options.bodyTimeout = flags.bodyTimeout == .zero ? nil : flags.bodyTimeout
    options.maxWatches = flags.maxWatches == 0 ? nil : flags.maxWatches
    options.maxWatchesPerClient = flags.maxWatchesPerClient == 0 ? nil : flags.maxWatchesPerClient
    options.rateLimit = flags.rateLimit
    options.rateBurst = flags.rateBurst.map(Double.init)
    options.allowedHosts = flags.allowedHosts
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
