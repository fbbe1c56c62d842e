// Causes reported by the modules above FleetErrors, kept here so that the one catalogue knows
// every error the product reports (error-explain, docs/errors.md).

extension ErrorCause {
    // MARK: FleetAuth
    // MARK: UNAUTHENTICATED: the token cannot be trusted.

    /// A token that is not three base64url segments of JSON objects with well-typed claims.
    public static let jwtMalformed = ErrorCause(
        id: "JWT_MALFORMED", code: .unauthenticated,
        summary: "The JWT is malformed",
        remedy: "Send a compact JWT: three base64url segments (no padding) joined by '.', a JSON object header with alg, and a JSON object of claims (exp, iat, nbf numbers; iss, sub strings; aud a string or an array of strings). `fleet-admin token inspect` shows what is wrong.",
        matchPhrases: ["jwt is malformed", "malformed jwt", "jwt malformed", "segments", "base64url", "not a json object"])
    /// A token whose `alg` the server never accepts (`none`) or has no key for (algorithm confusion).
    public static let jwtAlgorithmRejected = ErrorCause(
        id: "JWT_ALGORITHM_REJECTED", code: .unauthenticated,
        summary: "The JWT's signing algorithm (alg) is not accepted",
        remedy: "Sign with an algorithm the server has keys for: RS256 with a service-account key, or HS256 with the server's shared secret. Unsigned tokens (alg none) are never accepted.",
        matchPhrases: ["alg", "algorithm", "alg none", "unsigned token"])
    /// A token signed by a key the server does not know.
    public static let jwtUnknownKey = ErrorCause(
        id: "JWT_UNKNOWN_KEY", code: .unauthenticated,
        summary: "The JWT was signed with a key the server does not know (kid or issuer)",
        remedy: "Set kid to the private key ID of a service account the server is configured with (`--jwt-key`), and iss to that service account's email; after rotating keys, give the server the new public key.",
        matchPhrases: ["kid", "key id", "unknown key", "no key"])
    /// A token whose signature does not verify.
    public static let jwtBadSignature = ErrorCause(
        id: "JWT_BAD_SIGNATURE", code: .unauthenticated,
        summary: "The JWT's signature does not verify",
        remedy: "Sign with the private key that matches the server's public key (or the server's HS256 secret), and send the token unchanged.",
        matchPhrases: ["signature", "bad signature", "invalid signature", "signature verification failed"])
    /// A token whose `aud` is not one the server accepts.
    public static let jwtWrongAudience = ErrorCause(
        id: "JWT_WRONG_AUDIENCE", code: .unauthenticated,
        summary: "The JWT's audience (aud) is not one the server accepts",
        remedy: "Set aud to https://fleetengine.googleapis.com/ or to an audience the server is configured with.",
        matchPhrases: ["audience", "aud claim", "wrong audience", "invalid audience"])
    /// A token whose `nbf` lies in the future.
    public static let jwtNotYetValid = ErrorCause(
        id: "JWT_NOT_YET_VALID", code: .unauthenticated,
        summary: "The JWT is not valid yet (nbf is in the future)",
        remedy: "Use the token after its nbf time, or mint it without nbf; check the clocks of the minting host and the server.",
        matchPhrases: ["not yet valid", "nbf", "not before", "immature"])
    /// A token whose `iat` lies in the future.
    public static let jwtIssuedInFuture = ErrorCause(
        id: "JWT_ISSUED_IN_FUTURE", code: .unauthenticated,
        summary: "The JWT was issued in the future (iat is later than the server's time)",
        remedy: "Check the clock of the host that mints tokens (NTP); iat must not be later than the server's time plus its allowed clock skew.",
        matchPhrases: ["issued in the future", "iat", "issued at"])
    /// A token without a claim the server requires (`exp`).
    public static let jwtMissingClaim = ErrorCause(
        id: "JWT_MISSING_CLAIM", code: .unauthenticated,
        summary: "The JWT lacks a required claim",
        remedy: "Mint tokens with iss, sub, aud, iat and exp (at most one hour after iat), and authorization.vehicleid or tripid.",
        matchPhrases: ["missing claim", "required claim", "no exp", "lacks"])
    /// A token whose lifetime (`exp` − `iat`) is longer than the server allows.
    public static let jwtLifetimeTooLong = ErrorCause(
        id: "JWT_LIFETIME_TOO_LONG", code: .unauthenticated,
        summary: "The JWT lives longer than the server allows (exp more than one hour after iat)",
        remedy: "Mint tokens that expire at most one hour after iat (Fleet Engine's limit), or raise the server's maximum token lifetime.",
        matchPhrases: ["lifetime", "one hour", "too long"])
    /// A client whose token provider (`--token-file`, `--token-url`) could not produce a token.
    public static let tokenUnavailable = ErrorCause(
        id: "TOKEN_UNAVAILABLE", code: .unauthenticated,
        summary: "No token could be obtained from the token provider",
        remedy: "Check --token, --token-file (the file exists, is readable and holds the JWT) or --token-url (the server answers 200 with JSON holding the token under --token-key); the message says which failed and why.",
        matchPhrases: ["token file", "token provider", "token url", "token source", "no token could be", "could not obtain a token"])

    // MARK: PERMISSION_DENIED: the token is genuine but may not do this.

    /// A verified token from which no role follows.
    public static let jwtWithoutRole = ErrorCause(
        id: "JWT_WITHOUT_ROLE", code: .permissionDenied,
        summary: "The JWT carries no role the server accepts",
        remedy: "Map the token's issuer (the service account's email) to a role in the server's configuration, or mint the token with a fleetrole claim (server, driver, consumer, fleet-reader).",
        matchPhrases: ["no role", "fleetrole", "without role", "not mapped to a role"])
    /// A token claiming more than its issuer's configured role allows.
    public static let jwtRoleExceedsIssuer = ErrorCause(
        id: "JWT_ROLE_EXCEEDS_ISSUER", code: .permissionDenied,
        summary: "The JWT's fleetrole claim asks for more than its issuer's role allows",
        remedy: "Mint the token with a role the issuer's configured role covers (a server issuer may mint any role, a fleet reader a consumer), or change the issuer's role in the server's configuration.",
        matchPhrases: ["exceeds", "issuer's role", "more than its issuer"])

    // MARK: INVALID_ARGUMENT: keys given to the program.

    /// A signing or verification key that cannot be used.
    public static let authKeyInvalid = ErrorCause(
        id: "AUTH_KEY_INVALID", code: .invalidArgument,
        summary: "The key cannot be used for JWTs",
        remedy: "Give a PEM RSA key of at least 2048 bits (private for signing; public key or X.509 certificate for verifying), a Google service-account key file (JSON with private_key, private_key_id, client_email), or an HS256 secret file of at least 32 bytes.",
        matchPhrases: ["pem", "private key", "public key", "service account", "secret", "certificate"])

    // MARK: FleetRouting
    /// A route asked between points no road joins for the vehicle's category.
    public static let routeNotFound = ErrorCause(
        id: "ROUTE_NOT_FOUND", code: .notFound,
        summary: "No road route joins the points for this vehicle category",
        remedy: "The points lie on parts of the road network that do not connect for this category (an island, a one-way street leading away, a road closed to this vehicle). Move the point onto a road the vehicle may use, try another vehicle category, or use a map that covers the roads between them; the message names the leg.",
        matchPhrases: ["no road route", "no route between", "route not found"])
    /// A route point farther from every road of the routing map than a vehicle could be.
    public static let pointOffMap = ErrorCause(
        id: "POINT_OFF_MAP", code: .invalidArgument,
        summary: "The point is not near any road of the routing map",
        remedy: "Give a point inside the area the routing map covers (the message names the field and the map), or import a map of that region with `fleet-admin map import FILE.osm.pbf` and route with --router routino:DIR.",
        matchPhrases: ["off the map", "not near any road", "outside the map"])
    /// A `--router` URL (or FLEET_ROUTER) that names no router this build knows.
    public static let unknownRouter = ErrorCause(
        id: "UNKNOWN_ROUTER", code: .invalidArgument,
        summary: "The router URL names no router this build knows",
        remedy: "Use straight (great-circle estimates) or routino:DIR (road routes on a database built by `make map` or `fleet-admin map import`); the message lists the schemes.",
        matchPhrases: ["unknown router", "router url", "--router"])
    /// A routing database that cannot be opened: missing folder, files planetsplitter did not write, wrong version.
    public static let routingMapUnavailable = ErrorCause(
        id: "ROUTING_MAP_UNAVAILABLE", code: .failedPrecondition,
        summary: "The routing map cannot be loaded",
        remedy: "Point routino:DIR at a folder planetsplitter wrote (nodes.mem, segments.mem, ways.mem, relations.mem): run `make map` for the Helsinki sample, or `fleet-admin map import FILE.osm.pbf --into DIR` for your region; check that routino's profiles are installed (/usr/share/routino).",
        matchPhrases: ["routing map", "routing database", "nodes.mem", "planetsplitter"])
    /// An OpenStreetMap extract that planetsplitter could not turn into a routing database.
    public static let mapImportFailed = ErrorCause(
        id: "MAP_IMPORT_FAILED", code: .invalidArgument,
        summary: "The map extract could not be imported",
        remedy: "Give an OpenStreetMap extract in .osm.pbf (or .osm) format, e.g. a city from a Geofabrik or BBBike download, and a folder you may write to; Routino's planetsplitter must be installed (Debian package routino). The message carries planetsplitter's last lines.",
        matchPhrases: ["map extract", "map import", "osm.pbf"])
    /// Routino's command-line tools (planetsplitter) are not installed.
    public static let routingToolsMissing = ErrorCause(
        id: "ROUTING_TOOLS_MISSING", code: .failedPrecondition,
        summary: "Routino's planetsplitter is not installed",
        remedy: "Install Debian's routino package (`apt-get install routino`, or `make setup`), which puts planetsplitter on the PATH.",
        matchPhrases: ["planetsplitter is not installed", "routino package"])

    // MARK: FleetEngine
    /// A trip assigned to a vehicle that cannot take it (trip type, seats, other trips).
    public static let vehicleCannotTakeTrip = ErrorCause(
        id: "VEHICLE_CANNOT_TAKE_TRIP", code: .failedPrecondition,
        summary: "The vehicle cannot take this trip",
        remedy: "Pick a vehicle that supports the trip type and has the seats (SearchVehicles finds one), or enable backToBackEnabled on the vehicle for back-to-back trips.")

    // MARK: FleetModel
    /// A provider name not of the form providers/{provider}.
    public static let badProviderName = ErrorCause(
        id: "BAD_PROVIDER_NAME", code: .invalidArgument,
        summary: "The provider name is not of the form providers/{provider_id}",
        remedy: "Use providers/ followed by the provider's Cloud project ID, e.g. providers/my-project.",
        matchPhrases: ["provider name", "providers/{provider_id}"])
    /// A billable trip name not of the form providers/{provider}/billableTrips/{billable_trip}.
    public static let badBillableTripName = ErrorCause(
        id: "BAD_BILLABLE_TRIP_NAME", code: .invalidArgument,
        summary: "The billable trip name is not of the form providers/{provider_id}/billableTrips/{billable_trip_id}",
        remedy: "Use the full resource name; the provider must be the provider's Cloud project ID.",
        matchPhrases: ["billable trip name", "/billableTrips/"])
    /// A binary protobuf message (a gRPC request) that cannot be decoded.
    public static let malformedProtobuf = ErrorCause(
        id: "MALFORMED_PROTOBUF", code: .invalidArgument,
        summary: "The binary protobuf message cannot be decoded",
        remedy: "Send the message as the Fleet Engine v1 protos define it (Google's client libraries do); the message names the field at fault and what was wrong with its bytes.",
        matchPhrases: ["protobuf payload", "wire type", "varint", "truncated message", "invalid utf-8"])

    // MARK: HTTPClient
    /// DNS failed, the connection was refused, or connecting took longer than the connect timeout.
    /// The request was not sent.
    public static let serverUnreachable = ErrorCause(
        id: "SERVER_UNREACHABLE", code: .unavailable,
        summary: "Could not reach the server",
        remedy: "Check the URL, that the server is running and listening, and the network; the call was not sent, so it is safe to retry.",
        matchPhrases: ["could not resolve host", "couldn't connect to server", "connection timed out"])
    /// The TLS handshake failed (certificate not trusted, wrong host name, protocol error).
    /// The request was not sent.
    public static let tlsHandshakeFailed = ErrorCause(
        id: "TLS_HANDSHAKE_FAILED", code: .unavailable,
        summary: "The TLS handshake with the server failed",
        remedy: "Check that the URL's scheme and port serve TLS, that the system CA store (or the configured CA bundle) trusts the server's certificate, and that the clock is right.",
        matchPhrases: ["tls handshake", "ssl certificate problem", "ssl_connect", "certificate verify failed"])
    /// The connection broke after the request was sent: reset, receive or send error, empty reply,
    /// or a body cut short. The server may have applied the call.
    public static let connectionLost = ErrorCause(
        id: "CONNECTION_LOST", code: .unavailable,
        summary: "The connection to the server was lost during the call",
        remedy: "Retry with backoff; the server may have applied the call, so retry a non-idempotent call only if it is safe to apply twice.",
        matchPhrases: ["connection reset", "recv failure", "empty reply from server", "transfer closed with"])
    /// A stream received nothing (not even a heartbeat) for longer than the stall timeout.
    public static let serverStalled = ErrorCause(
        id: "SERVER_STALLED", code: .unavailable,
        summary: "The server stopped sending",
        remedy: "Reconnect the stream with backoff; the server or the network between is down.",
        matchPhrases: ["operation too slow", "stopped sending"])
    /// The call's time limit passed after the request was sent.
    public static let callDeadlineExceeded = ErrorCause(
        id: "CALL_DEADLINE_EXCEEDED", code: .deadlineExceeded,
        summary: "The call did not finish before its deadline",
        remedy: "Retry with backoff, or allow more time; the server may have applied the call.")
    /// The call's time limit passed while connecting. The request was not sent.
    public static let deadlineExceededWhileConnecting = ErrorCause(
        id: "DEADLINE_EXCEEDED_WHILE_CONNECTING", code: .deadlineExceeded,
        summary: "The call's deadline passed before a connection was made",
        remedy: "Retry with backoff, or allow more time; the call was not sent.")
    /// The request cannot be sent as given: a malformed URL, a scheme other than http or https,
    /// or a header containing CR or LF.
    public static let invalidHTTPRequest = ErrorCause(
        id: "INVALID_HTTP_REQUEST", code: .invalidArgument,
        summary: "The HTTP request is malformed",
        remedy: "Use an absolute http:// or https:// URL and header names and values without line breaks.")
    /// libcurl failed in a way that is none of the above (out of memory, an option it refused, an unknown error).
    public static let httpTransportFailure = ErrorCause(
        id: "HTTP_TRANSPORT_FAILURE", code: .internal,
        summary: "The HTTP client failed",
        remedy: "The message carries libcurl's error; report it if it persists.")

    // MARK: FleetREST
    /// A known REST path called with a verb it does not take.
    public static let methodNotAllowed = ErrorCause(
        id: "METHOD_NOT_ALLOWED", code: .unimplemented,
        summary: "The path does not take this HTTP method",
        remedy: "Use the verb Fleet Engine's REST mapping gives the method (docs/http-api.md lists them).")

    // MARK: HTTPServer
    /// A request body larger than the server accepts (sent as HTTP 413).
    public static let requestBodyTooLarge = ErrorCause(
        id: "REQUEST_BODY_TOO_LARGE", code: .resourceExhausted,
        summary: "The request body is larger than the server accepts",
        remedy: "Send a smaller body, or raise the server's body size limit.")
    /// A request whose header fields or body did not arrive in time (sent as HTTP 408).
    public static let requestTimeout = ErrorCause(
        id: "REQUEST_TIMEOUT", code: .deadlineExceeded,
        summary: "The request did not arrive in time",
        remedy: "Send the request's headers and body without pauses; the server's limits are --header-timeout and --body-timeout.",
        matchPhrases: ["did not arrive within", "request timeout"])
    /// One event stream more than the server allows, in all or per client address (sent as HTTP 429).
    public static let tooManyStreams = ErrorCause(
        id: "TOO_MANY_WATCHES", code: .resourceExhausted,
        summary: "Too many event streams (:watch) are open",
        remedy: "Close watches you no longer read, or share one watch per trip; the server's limits are --max-watches and --max-watches-per-client.",
        matchPhrases: ["too many event streams", "too many watches"])
    /// A request the HTTP layer refuses: conflicting or repeated header fields, no Host (HTTP 400).
    public static let badHTTPRequest = ErrorCause(
        id: "BAD_HTTP_REQUEST", code: .invalidArgument,
        summary: "The HTTP request is malformed",
        remedy: "Send one Host field (required in HTTP/1.1), at most one Authorization field, and one Content-Length value.",
        matchPhrases: ["content-length values", "without a host", "authorization fields"])
    /// Header fields larger than the server accepts (sent as HTTP 431).
    public static let requestHeadersTooLarge = ErrorCause(
        id: "REQUEST_HEADERS_TOO_LARGE", code: .invalidArgument,
        summary: "The request's header fields are larger than the server accepts",
        remedy: "Send smaller header fields (a shorter token, fewer cookies); the server accepts 32 KiB of request line and header fields.",
        matchPhrases: ["header fields too large", "headers are larger"])
    /// A listen address that is neither an IP literal nor `localhost`, or a port out of range.
    public static let badListenAddress = ErrorCause(
        id: "BAD_LISTEN_ADDRESS", code: .invalidArgument,
        summary: "The listen address is not valid",
        remedy: "Give an IPv4 or IPv6 literal (127.0.0.1, ::1, 0.0.0.0) or localhost, and a port from 0 to 65535.")
    /// The HTTP server could not start listening (address in use, no permission, no such address).
    public static let listenFailed = ErrorCause(
        id: "LISTEN_FAILED", code: .unavailable,
        summary: "The HTTP server could not listen on the address",
        remedy: "Check that no other process uses the port, that the address belongs to this machine, and that ports below 1024 are allowed.")
    /// The HTTP server's port is taken by another process: nothing to retry, something to choose.
    public static let addressInUse = ErrorCause(
        id: "ADDRESS_IN_USE", code: .failedPrecondition,
        summary: "The address is already in use by another process",
        remedy: "Stop the other process (`ss -ltnp` shows which one listens on the port), or listen on another port with --listen HOST:PORT (port 0 picks a free one).",
        matchPhrases: ["address already in use", "already in use"])

    // MARK: JournalTransport
    /// A complete line of a `file:` transport journal cannot be read as a record.
    public static let transportJournalCorrupt = ErrorCause(
        id: "TRANSPORT_JOURNAL_CORRUPT", code: .dataLoss,
        summary: "The transport journal is corrupt",
        remedy: "A complete line of the journal is not a valid record (or its sequence number is out of order), so the calls after it cannot be trusted. Keep a copy of the file and restore it from a backup, or cut it before the line the message names.",
        matchPhrases: ["journal line", "transport journal"])
    /// A journal written by a newer build, in a format this build does not read.
    public static let journalFormatTooNew = ErrorCause(
        id: "JOURNAL_FORMAT_TOO_NEW", code: .failedPrecondition,
        summary: "The journal was written in a newer format than this build reads",
        remedy: "Upgrade this program to the version that wrote the journal (the message names the format versions), or use a fresh journal file.",
        matchPhrases: ["newer format", "format version"])
    /// A record that succeeded when it was written fails when applied in this process.
    public static let journalReplayDiverged = ErrorCause(
        id: "JOURNAL_REPLAY_DIVERGED", code: .dataLoss,
        summary: "A journal record that succeeded when it was written fails when applied here",
        remedy: "The journal was edited, or was written by a different version of the engine. Keep a copy of the file and replay it with the version that wrote it; the message names the line and the error.",
        matchPhrases: ["diverged", "fails when applied"])
    /// The journal could not be opened, locked, read, appended or synced.
    public static let journalIOFailure = ErrorCause(
        id: "JOURNAL_IO_FAILURE", code: .internal,
        summary: "The transport journal could not be read or written",
        remedy: "Check the journal's path, its permissions and the free disk space; the message names the file and the system's reason.",
        matchPhrases: ["journal", "cannot append", "cannot lock"])
    /// A call on a journal transport that was closed, or that stopped after a journal failure.
    public static let journalTransportClosed = ErrorCause(
        id: "JOURNAL_TRANSPORT_CLOSED", code: .failedPrecondition,
        summary: "The journal transport is closed",
        remedy: "Open the journal again (a new connection); if it stopped after an error, that error's message says what to fix first.")

    // MARK: RESTServer
    /// A request for a provider this server does not serve (`serve --provider`).
    public static let providerNotServed = ErrorCause(
        id: "PROVIDER_NOT_SERVED", code: .permissionDenied,
        summary: "This server does not serve that provider",
        remedy: "Use the provider the server was started with (fleet-admin serve --provider), or a server for this provider.")

    /// A caller over the server's request rate (`serve --rate-limit`), sent as HTTP 429 with `Retry-After`.
    public static let rateLimited = ErrorCause(
        id: "RATE_LIMITED", code: .resourceExhausted,
        summary: "Too many requests: the caller is over the server's rate limit",
        remedy: "Wait for the time the answer's Retry-After gives, then send fewer requests per second; the clients here wait by themselves. The limit is the server's --rate-limit and --rate-burst.",
        matchPhrases: ["rate limit", "too many requests"])
    /// A request body whose Content-Type is not JSON (sent as HTTP 415).
    public static let unsupportedMediaType = ErrorCause(
        id: "UNSUPPORTED_MEDIA_TYPE", code: .invalidArgument,
        summary: "The request body is not labelled application/json",
        remedy: "Send the header Content-Type: application/json with every request that has a body (curl: -H 'Content-Type: application/json').",
        matchPhrases: ["unsupported media type", "labelled application/json"])
    /// A request naming a host the server does not answer for while token checks are off.
    public static let hostNotAllowed = ErrorCause(
        id: "HOST_NOT_ALLOWED", code: .permissionDenied,
        summary: "The request's Host is not one this server answers for",
        remedy: "Without token checks the server answers only loopback names (localhost, 127.0.0.1, [::1]) and its listen address, so that a web page cannot reach it through DNS rebinding. Use one of those, or start the server with --allow-host NAME.",
        matchPhrases: ["allow-host", "dns rebinding", "answers for"])

    // MARK: RESTServer
    /// `serve` asked to listen beyond loopback with no way to check tokens.
    public static let insecureListen = ErrorCause(
        id: "INSECURE_LISTEN", code: .failedPrecondition,
        summary: "Refusing to serve without authorization on a non-loopback address",
        remedy: "Give --jwt-key FILE or --jwt-secret-file FILE so callers need tokens, listen on 127.0.0.1, or pass --insecure if the network is trusted.")

    // MARK: SQLiteStore
    /// The database file was written by a newer version of the engine (its schema version is higher
    /// than this code knows). To be moved into the catalogue.
    public static let storeSchemaTooNew = ErrorCause(
        id: "STORE_SCHEMA_TOO_NEW", code: .failedPrecondition,
        summary: "The store file was written by a newer version of the engine",
        remedy: "Open it with that version or a newer one; this version would not understand its records.")

    // MARK: PostgresStore
    /// The PostgreSQL server cannot be reached, or the connection broke during a call (server
    /// restarted, network down). A write in flight was not acknowledged: it may or may not have
    /// been applied, and the engine's versions make a retry safe.
    public static let storeUnreachable = ErrorCause(
        id: "STORE_UNREACHABLE", code: .unavailable,
        summary: "The store's database server cannot be reached",
        remedy: "Retry with backoff: the store reconnects by itself. If it lasts, check that PostgreSQL is running and reachable at the store URL's host and port.",
        matchPhrases: ["server closed the connection unexpectedly", "connection to server at", "could not connect to server"])
    /// The database server refused the store's settings: a malformed URL, an unknown user, a wrong
    /// password or a database that does not exist.
    public static let storeSettingRejected = ErrorCause(
        id: "STORE_SETTING_REJECTED", code: .invalidArgument,
        summary: "The store URL was rejected",
        remedy: "Fix --store (or FLEET_STORE): postgres://USER@HOST:PORT/DATABASE with a user the server knows, its password (in ~/.pgpass or PGPASSWORD rather than the URL) and a database that exists (createdb).",
        matchPhrases: ["password authentication failed", "invalid connection option", "store url"])

    // MARK: FileStore
    /// A record in the middle of a file store's journal is damaged (not a torn tail left by a crash).
    public static let journalCorrupt = ErrorCause(
        id: "JOURNAL_CORRUPT", code: .dataLoss,
        summary: "The file store's journal is corrupt",
        remedy: "A record in the middle of the journal is damaged, so the records after it cannot be trusted. Restore the store directory from a backup; the message names the file and the byte offset.")
    /// A file store's snapshot fails its checksum or cannot be decoded.
    public static let snapshotCorrupt = ErrorCause(
        id: "SNAPSHOT_CORRUPT", code: .dataLoss,
        summary: "The file store's snapshot is corrupt",
        remedy: "The snapshot was damaged after it was written. Restore the store directory from a backup; the message names the file.")

    // MARK: fleet-admin
    /// A file fleet-admin was told to write (`export --output`) cannot be created or written.
    public static let unwritableOutput = ErrorCause(
        id: "UNWRITABLE_OUTPUT", code: .invalidArgument,
        summary: "The output file could not be written",
        remedy: "Give a path in a folder that exists and that you may write to, on a disk with free space; the message says what the system answered.",
        matchPhrases: ["cannot be written", "cannot create", "no space left"])
    /// A line of an export file that is not a fleet record.
    public static let badExportLine = ErrorCause(
        id: "BAD_EXPORT_LINE", code: .invalidArgument,
        summary: "A line of the import file is not a fleet record",
        remedy: "Import files hold one JSON object per line, {\"kind\":\"vehicle\"|\"trip\",\"resource\":{…}}, as `fleet-admin export` writes them; fix or remove the line named in the message.",
        matchPhrases: ["import file", "line", "kind"])

    // MARK: FleetLocation
    /// A location or route file that cannot be read as its format: not GPX, not a polyline, not GeoJSON,
    /// a CSV without latitude and longitude columns.
    public static let malformedLocationFile = ErrorCause(
        id: "MALFORMED_LOCATION_FILE", code: .invalidArgument,
        summary: "The location or route file cannot be read",
        remedy: "Give a GPX route or track, an encoded polyline, a GeoJSON LineString, NMEA 0183, CSV with a header naming latitude and longitude, or JSON Lines; the message names the line or element at fault.",
        matchPhrases: ["location file", "route file", "not a gpx", "geojson"])
    /// A `--source` that names no known kind of source, or a path that cannot be opened.
    public static let unknownLocationSource = ErrorCause(
        id: "UNKNOWN_LOCATION_SOURCE", code: .invalidArgument,
        summary: "The location source is not one driver-report knows",
        remedy: "Use gpsd://HOST:PORT, nmea:PATH, nmea:-, gpx:PATH, csv:PATH, jsonl:PATH, jsonl:- or simulate:ROUTE.",
        matchPhrases: ["location source"])
    /// A `--source` file (`nmea:PATH`, `gpx:PATH`, `csv:PATH`, `jsonl:PATH`) that does not exist.
    public static let locationFileMissing = ErrorCause(
        id: "LOCATION_FILE_MISSING", code: .notFound,
        summary: "The location file does not exist",
        remedy: "Check the path after nmea:, gpx:, csv: or jsonl: (a relative path starts in the working folder), or give - to read standard input.",
        matchPhrases: ["location file does not exist"])

    // MARK: FleetEvaluation
    /// A trace file of recorded drives that cannot be read: no `trip_id,timestamp,latitude,longitude` header,
    /// a short row, a time or coordinate that is not one.
    public static let malformedTraceFile = ErrorCause(
        id: "MALFORMED_TRACE_FILE", code: .invalidArgument,
        summary: "The trace file cannot be read",
        remedy: "Give CSV with the header trip_id,timestamp,latitude,longitude, one reported position per row, the timestamp RFC 3339 or epoch seconds; the message names the line and column at fault.",
        matchPhrases: ["trace file", "trip_id"])

    // MARK: FleetDriver
    /// A source that worked and stopped: gpsd cannot be reached, a read failed.
    public static let locationSourceFailed = ErrorCause(
        id: "LOCATION_SOURCE_FAILED", code: .unavailable,
        summary: "The location source is not delivering",
        remedy: "Check that gpsd is running and listening (systemctl status gpsd; gpspipe -w), or that the device or file is readable; driver-report reconnects to gpsd by itself.",
        matchPhrases: ["gpsd", "location source"])
}
