import FleetCLI
import FleetErrors
import FleetKit
import FleetRouting
import FleetStore
import Foundation
import RESTServer

/// `fleet-admin serve`: Fleet Engine's REST API over the engine and a store, on libmicrohttpd.
let serveCommand = Command(
    "serve",
    abstract: "Serve Fleet Engine's REST API (and the :watch extension) over a store.",
    discussion: """
    Prints the address it listens on once ready, answers GET /healthz with 200 and GET /metrics in \
    Prometheus text format, and writes one access log line per request to standard error. SIGTERM or \
    SIGINT stops it gracefully: no new connections, in-flight requests finish, watches close, the store \
    closes. Under systemd (Type=notify) it reports READY=1, STOPPING=1 and watchdog pings.

    Without --jwt-key or --jwt-secret-file every caller is trusted, so the server refuses to listen on \
    anything but loopback unless --insecure is given. With keys, every call needs an \
    `Authorization: Bearer` JWT whose role (the `fleetrole` claim) allows it (docs/http-api.md).
    """,
    options: [
        .value("listen", valueName: "host:port", help: "Address to listen on; port 0 picks a free port.",
               default: "127.0.0.1:8080", environment: "FLEET_LISTEN"),
        .value("jwt-key", valueName: "file", help: "PEM RSA public key, X.509 certificate or Google service-account JSON to verify RS256 tokens with.",
               environment: "FLEET_JWT_KEY", repeatable: true, completion: .files),
        .value("jwt-secret-file", valueName: "file", help: "File holding the HS256 secret (at least 32 bytes).",
               environment: "FLEET_JWT_SECRET_FILE", repeatable: true, completion: .files),
        .flag("insecure", help: "Allow a non-loopback address without token checks."),
        .value("max-body", valueName: "bytes", help: "Largest request body; larger ones get 413.", default: "1048576"),
        .value("threads", valueName: "n", help: "Threads serving requests (a call that writes waits for its commit without one).", default: String(ServeOptions.defaultThreads)),
        .value("max-connections", valueName: "n", help: "Most connections open at once.", default: "4096"),
        .value("connection-timeout", valueName: "duration", help: "Close connections idle this long (0 for never).", default: "60s"),
        .flag("no-access-log", help: "Do not write an access log line per request."),
        RouteCommand.routerOption,
    ],
    examples: [
        Example("fleet-admin serve --listen 127.0.0.1:8080", "Serve the embedded store on loopback."),
        Example("fleet-admin serve --listen 0.0.0.0:8080 --store sqlite:/var/lib/fleet/fleet.db --jwt-secret-file /etc/fleet/secret",
                "Serve a network with HS256 tokens."),
        Example("fleet-admin serve --listen 127.0.0.1:0 --store memory", "A throwaway server on a free port (tests)."),
    ]
) { args, context in
    var options = ServeOptions()
    options.listen = args.string("listen") ?? options.listen
    options.provider = args.string("provider")
    options.jwtKeyFiles = args.strings("jwt-key")
    options.jwtSecretFiles = args.strings("jwt-secret-file")
    options.insecure = args.flag("insecure")
    options.accessLog = !args.flag("no-access-log")
    if let bytes = try args.int("max-body") {
        guard bytes > 0 else { throw args.usageError("--max-body must be positive") }
        options.maxBodyBytes = bytes
    }
    if let threads = try args.int("threads") {
        guard threads > 0 else { throw args.usageError("--threads must be positive") }
        options.threads = threads
    }
    if let connections = try args.int("max-connections") {
        guard connections > 0 else { throw args.usageError("--max-connections must be positive") }
        options.maxConnections = connections
    }
    if let timeout = try args.duration("connection-timeout") {
        options.connectionTimeout = timeout == .zero ? nil : timeout
    }
    options.engine.router = try planningRouter(args)
    let storeURL = args.string("store") ?? Wiring.defaultStoreURL()
    let store = try Wiring.openStore(storeURL)
    try FleetServer.run(store: store, options: options) { url in
        context.print("listening on \(url) (store \(StoreRegistry.redacted(storeURL)), router \(options.engine.router?.url ?? "straight"))")
    }
    context.printError("fleet-admin serve: stopped")
    return 0
}

/// The router `--router` (or `FLEET_ROUTER`) names when it plans on roads; a bad URL is a usage error
/// listing the schemes.
private func planningRouter(_ args: ParsedArguments) throws -> (any Router)? {
    do {
        return try Wiring.planningRouter(args.string("router"), environment: [:])
    } catch {
        throw args.usageError("--router: \(error.message)")
    }
}
