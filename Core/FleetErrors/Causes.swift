// The Fleet Engine causes the product reports that belong to no one module: the API's own, and those
// both ends of the HTTP transport name. A cause only one module reports is declared in that module
// (`ErrorCause+Module.swift`, listed in its `…Causes.all`) and composed into the catalogue where the
// executables are wired. Each cause is used at least once by the code or matched by `error-explain`. Match phrases are compared with case, `_`, `-` and spacing ignored.

extension ErrorCause {
    // MARK: CANCELLED

    /// The server ended a response or stream, or the caller cancelled it.
    public static let streamCancelled = ErrorCause(
        id: "STREAM_CANCELLED", code: .cancelled,
        summary: "The call was cancelled before it finished (the caller gave up, the app went to the background, or the server ended the response after a state change)",
        remedy: "Nothing to fix: the client starts the call again when it still needs the data. If it was your own code that cancelled, this is expected.",
        matchPhrases: ["cancelled", "canceled", "backgrounded", "context canceled", "stream closed"])

    // MARK: UNKNOWN

    /// An HTTP error that did not carry a Google error body.
    public static let nonFleetResponse = ErrorCause(
        id: "NON_FLEET_RESPONSE", code: .unknown,
        summary: "The answer was an error without a Fleet Engine error body (a proxy, load balancer or another server answered)",
        remedy: "Check the URL and whatever sits between the client and the server; the HTTP status and body say who answered.",
        matchPhrases: ["<html", "bad gateway", "unexpected http status", "unexpected content-type", "no error body"])

    // MARK: INVALID_ARGUMENT

    /// A request field has a bad value; the message names the field.
    public static let invalidField = ErrorCause(
        id: "INVALID_FIELD", code: .invalidArgument,
        summary: "A request field is invalid",
        remedy: "Fix the field named in the message and send the request again.",
        matchPhrases: ["invalid value", "must be between", "must be one of", "out of range", "field"])
    /// A required request field is absent.
    public static let missingField = ErrorCause(
        id: "MISSING_FIELD", code: .invalidArgument,
        summary: "A required field is missing",
        remedy: "Set the field named in the message. CreateVehicle needs vehicleState, supportedTripTypes, maximumCapacity and vehicleType; CreateTrip needs tripType and pickupPoint.",
        matchPhrases: ["is required", "required field", "missing", "must be set", "must be specified"])
    /// A trip name not of the form providers/{provider}/trips/{trip}.
    public static let badTripName = ErrorCause(
        id: "BAD_TRIP_NAME", code: .invalidArgument,
        summary: "The trip name is not of the form providers/{provider_id}/trips/{trip_id}",
        remedy: "Use the full resource name; the provider must be the provider's Cloud project ID.",
        matchPhrases: ["trip name", "/trips/", "providers/{provider_id}/trips", "provider must be", "project id"])
    /// A vehicle name not of the form providers/{provider}/vehicles/{vehicle}.
    public static let badVehicleName = ErrorCause(
        id: "BAD_VEHICLE_NAME", code: .invalidArgument,
        summary: "The vehicle name is not of the form providers/{provider_id}/vehicles/{vehicle_id}",
        remedy: "Use the full resource name; the provider must be the provider's Cloud project ID.",
        matchPhrases: ["vehicle name", "/vehicles/", "providers/{provider_id}/vehicles"])
    /// An ID that breaks Fleet Engine's rules.
    public static let badID = ErrorCause(
        id: "BAD_ID", code: .invalidArgument,
        summary: "The ID is invalid",
        remedy: "IDs are 1 to 64 characters of valid Unicode in NFC form, without '/', ':', '?', ',' or '#'.",
        matchPhrases: ["invalid id", "id is invalid", "64 characters", "nfc", "tripid", "vehicleid"])
    /// An update with no field paths.
    public static let emptyUpdateMask = ErrorCause(
        id: "EMPTY_UPDATE_MASK", code: .invalidArgument,
        summary: "update_mask cannot be empty",
        remedy: "Name the fields to change in updateMask. The Driver SDK's first update after start can hit this; it is harmless and counted separately.",
        matchPhrases: ["update_mask cannot be empty", "update mask is empty", "empty update mask", "empty field mask"])
    /// An update mask naming a field that does not exist or that the server maintains.
    public static let badUpdateMaskPath = ErrorCause(
        id: "BAD_UPDATE_MASK_PATH", code: .invalidArgument,
        summary: "The update mask names a field that does not exist or that only the server may set",
        remedy: "List only fields the caller may change. UpdateVehicle may not change currentRouteSegmentVersion, currentTrips, name or waypointsVersion; UpdateTrip may not set route, ETA, version, remaining-distance, pickupTime/dropoffTime, lastLocation, name or numberOfPassengers fields.",
        matchPhrases: ["update_mask", "field mask", "invalid path", "unknown field", "cannot be updated", "may not be updated", "server-owned", "read-only", "output only"])
    /// A request body that is not valid JSON.
    public static let malformedJSON = ErrorCause(
        id: "MALFORMED_JSON", code: .invalidArgument,
        summary: "The request body is not valid JSON",
        remedy: "Send a JSON object in Fleet Engine's REST format; the message gives the position of the fault.",
        matchPhrases: ["invalid json", "malformed", "json payload", "unexpected token", "syntax error", "cannot parse", "unexpected end"])
    /// A request body over the server's size limit.
    public static let requestTooLarge = ErrorCause(
        id: "REQUEST_TOO_LARGE", code: .invalidArgument,
        summary: "The request body is larger than the server accepts (HTTP 413)",
        remedy: "Send a smaller request: fewer waypoints or attributes, a shorter route. The server's limit is in its configuration.",
        matchPhrases: ["too large", "payload too large", "request entity too large", "exceeds the maximum", "larger than max"])

    // MARK: DEADLINE_EXCEEDED

    /// The caller's deadline ran out before the call finished.
    public static let deadlineTooShort = ErrorCause(
        id: "DEADLINE_TOO_SHORT", code: .deadlineExceeded,
        summary: "The caller's deadline was shorter than the method's default and the request did not finish in time",
        remedy: "Use a longer deadline (at least the method's default); the client retries with backoff. A write may have been applied anyway: read before writing again.",
        matchPhrases: ["deadline", "timed out", "timeout", "time out"])

    // MARK: NOT_FOUND

    /// A trip or vehicle that was never created (or was deleted).
    public static let resourceNotFound = ErrorCause(
        id: "RESOURCE_NOT_FOUND", code: .notFound,
        summary: "Not found",
        remedy: "Check the name; the trip or vehicle may never have been created, or was deleted.",
        matchPhrases: ["not found", "does not exist", "no such"])
    /// A trip that was never created, was deleted, or expired.
    public static let tripNotFound = ErrorCause(
        id: "TRIP_NOT_FOUND", code: .notFound,
        summary: "The trip was never created, or was deleted",
        remedy: "Create the trip (CreateTrip) before following it, and check the provider and trip IDs in its name. Fleet Engine deletes trips 7 days after their last update.",
        matchPhrases: ["trip not found", "trip does not exist", "no trip", "trip was not found"])
    /// A vehicle that was never created, was deleted, or expired.
    public static let vehicleNotFound = ErrorCause(
        id: "VEHICLE_NOT_FOUND", code: .notFound,
        summary: "The vehicle was never created, or was deleted",
        remedy: "Create the vehicle (CreateVehicle) before updating it, and check the provider and vehicle IDs in its name. Fleet Engine deletes idle vehicles 7 days after their last update.",
        matchPhrases: ["vehicle not found", "vehicle does not exist", "no vehicle", "vehicle was not found"])
    /// A URL that is not a Fleet Engine REST path.
    public static let unknownPath = ErrorCause(
        id: "UNKNOWN_PATH", code: .notFound,
        summary: "The URL is not a Fleet Engine REST path",
        remedy: "Check the base URL and path: /v1/providers/{provider}/vehicles/… or …/trips/….",
        matchPhrases: ["unknown path", "no route", "requested url", "was not found on this server"])

    // MARK: ALREADY_EXISTS

    /// A create for an ID that exists.
    public static let alreadyExists = ErrorCause(
        id: "ALREADY_EXISTS", code: .alreadyExists,
        summary: "Already exists",
        remedy: "Use another ID, or get and update the existing resource.",
        matchPhrases: ["already exists", "duplicate"])

    // MARK: PERMISSION_DENIED

    /// A caller whose role may not make this call (a consumer calling UpdateTrip).
    public static let insufficientRole = ErrorCause(
        id: "INSUFFICIENT_ROLE", code: .permissionDenied,
        summary: "The caller's role may not make this call (for example a consumer calling UpdateTrip)",
        remedy: "Make the call with a token of a role allowed to: servers may do everything, drivers update only their vehicle, consumers only read their trip.",
        matchPhrases: ["role", "insufficient", "not allowed", "does not have permission", "permission denied", "not permitted"])
    /// A JWT signed for a different trip, vehicle, task or shipment (or provider) than the one called.
    public static let jwtForOtherResource = ErrorCause(
        id: "JWT_FOR_OTHER_RESOURCE", code: .permissionDenied,
        summary: "The JWT was signed for another trip or vehicle (or delivery vehicle, task, tracking ID or provider)",
        remedy: "Mint a token whose authorization claim names this trip (tripid), vehicle (vehicleid), delivery vehicle (deliveryvehicleid), task (taskid) or shipment (trackingid), and drop cached tokens when it changes; a token naming one resource may not list or search that kind.",
        matchPhrases: ["another trip", "another vehicle", "another delivery vehicle", "another task", "another tracking id", "different trip", "different vehicle", "other trip", "other vehicle", "does not match"])
    /// A call with no token. PERMISSION_DENIED, as the Consumer SDK guide lists "JWT missing": no
    /// token provider was asked for one, so there is nothing to refresh.
    public static let jwtMissing = ErrorCause(
        id: "JWT_MISSING", code: .permissionDenied,
        summary: "The request has no JWT (no Authorization: Bearer header)",
        remedy: "Send a token in the Authorization header; check the token provider returns one.",
        matchPhrases: ["missing", "no token", "authorization header", "credential", "unauthenticated"])
    /// A JWT that fails verification (signature, audience, issuer, format).
    public static let jwtInvalid = ErrorCause(
        id: "JWT_INVALID", code: .permissionDenied,
        summary: "The JWT is invalid: bad signature, audience, issuer or format",
        remedy: "Sign with the service account's current private key (kid), set aud to https://fleetengine.googleapis.com/ (or the server's configured audience) and iss/sub to the service account.",
        matchPhrases: ["invalid jwt", "jwt invalid", "invalid token", "signature", "audience", "issuer", "malformed token"])
    /// Fleet Engine (or the Consumer SDK) not enabled for the project.
    public static let apiNotEnabled = ErrorCause(
        id: "API_NOT_ENABLED", code: .permissionDenied,
        summary: "The Fleet Engine API or the Consumer SDK is not enabled for the project",
        remedy: "Enable the Local Rides and Deliveries / Fleet Engine API for the Cloud project (and the Consumer SDK for consumer apps); on a self-hosted server, check the provider is configured.",
        matchPhrases: ["not enabled", "has not been used", "is disabled", "service disabled", "SERVICE_DISABLED"])

    // MARK: RESOURCE_EXHAUSTED

    /// A quota of zero: the project may not call the method at all.
    public static let quotaZero = ErrorCause(
        id: "QUOTA_ZERO", code: .resourceExhausted,
        summary: "The project's quota for this method is zero",
        remedy: "Check the project's quotas and billing: Google's defaults per minute are Create* 3000, List* 3000, Get* 9000, Search* 6000, ReportBillableTrip 9000. A self-hosted server takes its limits from its configuration.",
        matchPhrases: ["quota is 0", "quota of 0", "zero quota", "quota is zero", "no quota", "billing"])
    /// More calls per minute than the quota allows.
    public static let rateLimitExceeded = ErrorCause(
        id: "RATE_LIMIT_EXCEEDED", code: .resourceExhausted,
        summary: "More calls per minute than the project's quota allows",
        remedy: "Slow down (poll less often, batch), retry later with backoff, or ask for more quota. Google's default quotas per minute per project: Create* 3000, List* 3000, Get* 9000, Search* 6000, ReportBillableTrip 9000.",
        matchPhrases: ["quota", "rate limit", "too many requests", "per minute", "RATE_LIMIT_EXCEEDED", "exhausted"])

    // MARK: FAILED_PRECONDITION

    /// A trip status change the state machine forbids.
    public static let illegalTransition = ErrorCause(
        id: "ILLEGAL_TRIP_STATUS_TRANSITION", code: .failedPrecondition,
        summary: "The trip cannot move to that status",
        remedy: "Advance the trip one step at a time: NEW, ENROUTE_TO_PICKUP, ARRIVED_AT_PICKUP, [intermediate stops], ENROUTE_TO_DROPOFF, COMPLETE; CANCELED from any non-terminal status.",
        matchPhrases: ["transition", "cannot move", "trip status", "invalid status", "terminal"])
    /// An intermediateDestinationsVersion that is not the server's.
    public static let intermediateDestinationsVersionMismatch = ErrorCause(
        id: "INTERMEDIATE_DESTINATIONS_VERSION_MISMATCH", code: .failedPrecondition,
        summary: "intermediateDestinationsVersion does not match the trip's",
        remedy: "Get the trip, send its current intermediateDestinationsVersion with the status change to ENROUTE_TO_INTERMEDIATE_DESTINATION, and send the update again.",
        matchPhrases: ["intermediateDestinationsVersion", "intermediate destinations version", "intermediate_destinations_version"])
    /// Deleting a vehicle that still has active trips.
    public static let vehicleHasActiveTrips = ErrorCause(
        id: "VEHICLE_HAS_ACTIVE_TRIPS", code: .failedPrecondition,
        summary: "The vehicle has active trips assigned to it",
        remedy: "Complete, cancel or reassign the vehicle's trips before deleting it.",
        matchPhrases: ["active trips", "has trips", "vehicle has active"])
    /// Deleting a trip that is active and assigned to a vehicle.
    public static let tripActiveAndAssigned = ErrorCause(
        id: "TRIP_ACTIVE_AND_ASSIGNED", code: .failedPrecondition,
        summary: "The trip is active and assigned to a vehicle",
        remedy: "Complete or cancel the trip (or unassign it) before deleting it.",
        matchPhrases: ["active and assigned", "assigned to a vehicle", "trip is active"])

    // MARK: ABORTED

    /// Concurrent writers kept colliding on one resource.
    public static let concurrentModification = ErrorCause(
        id: "CONCURRENT_MODIFICATION", code: .aborted,
        summary: "The resource was changed concurrently",
        remedy: "Retry the call; it was not applied.",
        matchPhrases: ["concurrent", "conflict", "modified", "version mismatch", "try again"])
    /// A stream the server stopped sending on.
    public static let streamAborted = ErrorCause(
        id: "STREAM_ABORTED", code: .aborted,
        summary: "The server stopped sending the response or stream",
        remedy: "Nothing to fix: the client reconnects with backoff. If it keeps happening, check the server's log and any proxy's idle timeout.",
        matchPhrases: ["stopped sending", "stream", "connection reset", "connection closed", "aborted"])

    // MARK: UNIMPLEMENTED

    /// A method the server does not implement.
    public static let methodNotImplemented = ErrorCause(
        id: "METHOD_NOT_IMPLEMENTED", code: .unimplemented,
        summary: "The server does not implement this method",
        remedy: "Use a supported method (the message names the one called); check the client and server versions, and the HTTP verb.",
        matchPhrases: ["unimplemented", "not implemented", "not supported", "unknown method", "method not allowed"])

    // MARK: INTERNAL

    /// A fault of the server's own.
    public static let internalFault = ErrorCause(
        id: "INTERNAL_FAULT", code: .internal,
        summary: "The server hit a fault of its own",
        remedy: "Retry later; if it persists, report it with the server's log and the request.",
        matchPhrases: ["internal error", "internal", "invariant", "unexpected"])
    /// The store could not read or write.
    public static let storeFailure = ErrorCause(
        id: "STORE_FAILURE", code: .internal,
        summary: "The store failed",
        remedy: "Check the store's path, permissions and free disk space; the message says what failed.",
        matchPhrases: ["store", "disk", "no space", "permission denied on", "i/o error", "sqlite"],
        publicMessage: "The store failed (the server's log has the details)")

    // MARK: UNAVAILABLE

    /// The server is down or unreachable.
    public static let serverUnavailable = ErrorCause(
        id: "SERVER_UNAVAILABLE", code: .unavailable,
        summary: "The server is down or cannot be reached",
        remedy: "Nothing to fix in the request: the client retries with backoff. If it lasts, check the server is running and reachable (address, port, network).",
        matchPhrases: ["unavailable", "connection refused", "failed to connect", "could not connect", "server down", "unreachable", "network"])
    /// The store is busy (locked by another process) past the busy timeout.
    public static let storeBusy = ErrorCause(
        id: "STORE_BUSY", code: .unavailable,
        summary: "The store is busy",
        remedy: "Retry with backoff; another process holds the store.",
        matchPhrases: ["busy", "locked"],
        publicMessage: "The database is busy (the server's log has the details)")

    // MARK: DATA_LOSS

    /// Stored data that is damaged beyond repair.
    public static let storeCorrupted = ErrorCause(
        id: "STORE_CORRUPTED", code: .dataLoss,
        summary: "The store's data is damaged",
        remedy: "Stop the server, keep a copy of the store's files, and restore from a backup; the message names the damaged file or record.",
        matchPhrases: ["corrupt", "checksum", "malformed database", "truncated"],
        publicMessage: "The store's data is damaged (the server's log has the details)")

    // MARK: UNAUTHENTICATED

    /// A token past its exp claim.
    public static let jwtExpired = ErrorCause(
        id: "JWT_EXPIRED", code: .unauthenticated,
        summary: "The JWT has expired",
        remedy: "Fetch a fresh token before exp (tokens live at most one hour); check the device clock.",
        matchPhrases: ["expired", "exp claim", "token is expired"])
    /// A token with no trip ID (or vehicle, delivery vehicle, task or tracking ID) in its authorization
    /// claim, for a method its role may call only on its own trip (or vehicle, task, shipment).
    /// UNAUTHENTICATED, as the Consumer SDK guide says: the token does not name what the caller needs,
    /// and a token minted for the resource does.
    public static let jwtWithoutTripID = ErrorCause(
        id: "JWT_WITHOUT_TRIP_ID", code: .unauthenticated,
        summary: "The JWT was signed without a trip ID (or the vehicle, delivery vehicle, task or tracking ID its role needs) in its authorization claim",
        remedy: "Mint the consumer token with authorization.tripid set to the trip (driver tokens: authorization.vehicleid; Deliveries: deliveryvehicleid for drivers, taskid for a trusted driver updating a task, trackingid for a consumer).",
        matchPhrases: ["trip id", "tripid", "vehicle id", "vehicleid", "deliveryvehicleid", "task id", "taskid", "tracking id", "trackingid", "authorization claim"])

    // MARK: Command-line input

    /// Input a command could not read (standard input closed, a directory, not UTF-8).
    public static let unreadableInput = ErrorCause(
        id: "UNREADABLE_INPUT", code: .invalidArgument,
        summary: "The input could not be read",
        remedy: "Pipe UTF-8 text into the command (for example `echo '{...}' | tool -`); the message says what was wrong.")

    // MARK: Reported by the HTTP server and read by the REST client.

    /// A known REST path called with a verb it does not take.
    public static let methodNotAllowed = ErrorCause(
        id: "METHOD_NOT_ALLOWED", code: .unimplemented,
        summary: "The path does not take this HTTP method",
        remedy: "Use the verb Fleet Engine's REST mapping gives the method (docs/http-api.md lists them).")
    /// A server (HTTP or gRPC) could not start listening (address in use, no permission, no such address).
    public static let listenFailed = ErrorCause(
        id: "LISTEN_FAILED", code: .unavailable,
        summary: "The server could not listen on the address",
        remedy: "Check that no other process uses the port, that the address belongs to this machine, and that ports below 1024 are allowed.")
    /// A server's port is taken by another process: nothing to retry, something to choose.
    public static let addressInUse = ErrorCause(
        id: "ADDRESS_IN_USE", code: .failedPrecondition,
        summary: "The address is already in use by another process",
        remedy: "Stop the other process (`ss -ltnp` shows which one listens on the port), or listen on another port with --listen HOST:PORT (port 0 picks a free one).",
        matchPhrases: ["address already in use", "already in use"])
    /// A request whose header fields or body did not arrive in time (sent as HTTP 408).
    public static let requestTimeout = ErrorCause(
        id: "REQUEST_TIMEOUT", code: .deadlineExceeded,
        summary: "The request did not arrive in time",
        remedy: "Send the request's headers and body without pauses; the server's limits are --header-timeout and --body-timeout.",
        matchPhrases: ["did not arrive within", "request timeout"])
    /// Header fields larger than the server accepts (sent as HTTP 431).
    public static let requestHeadersTooLarge = ErrorCause(
        id: "REQUEST_HEADERS_TOO_LARGE", code: .invalidArgument,
        summary: "The request's header fields are larger than the server accepts",
        remedy: "Send smaller header fields (a shorter token, fewer cookies); the server accepts 32 KiB of request line and header fields.",
        matchPhrases: ["header fields too large", "headers are larger"])
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
    /// A request for a provider this server does not serve (`serve --provider`).
    public static let providerNotServed = ErrorCause(
        id: "PROVIDER_NOT_SERVED", code: .permissionDenied,
        summary: "This server does not serve that provider",
        remedy: "Use the provider the server was started with (fleet-admin serve --provider), or a server for this provider.")
}
