import Synchronization

/// The one catalogue of errors: for each of the 17 gRPC codes its number, name, HTTP status,
/// retry class, meaning and Fleet Engine causes with remedies; and the lookups `error-explain`,
/// the transports and the executables use.
public enum ErrorCatalogue {
    /// Every cause the product knows: FleetErrors' own, then those the modules registered, in the
    /// order they were registered.
    public static var causes: [ErrorCause] { coreCauses + registered.withLock { $0 } }

    /// The causes FleetErrors declares (Causes.swift): the API's own and those both servers (HTTP and gRPC) and their clients share.
    static let coreCauses: [ErrorCause] = [
        .streamCancelled,
        .nonFleetResponse,
        .badTripName, .badVehicleName, .badID, .missingField, .invalidField, .emptyUpdateMask,
        .badUpdateMaskPath, .malformedJSON, .requestTooLarge, .unreadableInput,
        .deadlineTooShort,
        .tripNotFound, .vehicleNotFound, .resourceNotFound, .unknownPath,
        .alreadyExists,
        .jwtForOtherResource, .jwtMissing, .jwtInvalid, .insufficientRole, .apiNotEnabled,
        .quotaZero, .rateLimitExceeded,
        .illegalTransition, .intermediateDestinationsVersionMismatch, .vehicleHasActiveTrips, .tripActiveAndAssigned,
        .concurrentModification, .streamAborted,
        .methodNotImplemented,
        .internalFault, .storeFailure,
        .serverUnavailable, .storeBusy,
        .storeCorrupted,
        .jwtWithoutTripID, .jwtExpired,
        .methodNotAllowed, .requestTimeout, .requestHeadersTooLarge, .rateLimited, .unsupportedMediaType,
        .providerNotServed, .listenFailed, .addressInUse,
    ]

    private static let registered = Mutex<[ErrorCause]>([])

    /// Adds the causes a module reports (its `…Causes.all`) to the catalogue, once each: called where
    /// the executables are wired, so the catalogue holds every module's causes while Core knows none
    /// of them. A cause already known (by id) is left as it is.
    public static func register(_ causes: [ErrorCause]) {
        registered.withLock { known in
            for cause in causes where !coreCauses.contains(where: { $0.id == cause.id }) && !known.contains(where: { $0.id == cause.id }) {
                known.append(cause)
            }
        }
    }

    /// One entry per gRPC code, in code order (index = gRPC number).
    public static var entries: [CatalogueEntry] {
        let causes = causes
        return GRPCCode.allCases.map { code in
            CatalogueEntry(code: code, description: description(of: code), causes: causes.filter { $0.code == code })
        }
    }

    /// The entry of a code.
    public static func entry(for code: GRPCCode) -> CatalogueEntry {
        CatalogueEntry(code: code, description: description(of: code), causes: causes.filter { $0.code == code })
    }

    /// The entry of a gRPC number (0–16), or nil.
    public static func entry(number: Int) -> CatalogueEntry? {
        guard let code = GRPCCode(rawValue: Int32(clamping: number)), Int(code.rawValue) == number else { return nil }
        return entry(for: code)
    }

    /// The entry of a code name in any spelling (see `GRPCCode.init(spelling:)`), or nil.
    public static func entry(named name: String) -> CatalogueEntry? {
        GRPCCode(spelling: name).map(entry(for:))
    }

    /// The entries an HTTP status stands for, most likely first; empty when it is not an error status.
    public static func entries(httpStatus: Int) -> [CatalogueEntry] {
        HTTPStatusMapping.mapping(for: httpStatus)?.codes.map(entry(for:)) ?? []
    }

    /// The cause with this id, or nil.
    public static func cause(id: ErrorCause.ID) -> ErrorCause? {
        causes.first { $0.id == id }
    }

    /// The causes of `code` that the message (and `ErrorInfo.reason`, when given) point to, best first.
    ///
    /// A reason equal to a cause's id (or one of its phrases) wins; otherwise causes rank by the
    /// longest of their phrases found in the message. Causes with no match are left out.
    public static func likelyCauses(of code: GRPCCode, message: String?, reason: String? = nil) -> [ErrorCause] {
        rankedCauses(entry(for: code).causes, message: message, reason: reason)
    }

    /// The causes of any code that a bare message points to, best first (for a message whose code is unknown).
    public static func likelyCauses(message: String) -> [ErrorCause] {
        rankedCauses(causes, message: message, reason: nil)
    }

    private static func rankedCauses(_ candidates: [ErrorCause], message: String?, reason: String?) -> [ErrorCause] {
        let text = message.map(PhraseMatching.normalized) ?? ""
        let reasonKey = reason.map(PhraseMatching.normalized)
        var scored: [(cause: ErrorCause, score: Int, order: Int)] = []
        for (order, cause) in candidates.enumerated() {
            var score = 0
            if let reasonKey, !reasonKey.isEmpty,
               reasonKey == PhraseMatching.normalized(cause.id)
                || cause.matchPhrases.contains(where: { PhraseMatching.normalized($0) == reasonKey }) {
                score = 10_000
            }
            for phrase in cause.matchPhrases {
                let key = PhraseMatching.normalized(phrase)
                if PhraseMatching.contains(text, phrase: key) { score = max(score, key.count) }
            }
            if score > 0 { scored.append((cause, score, order)) }
        }
        return scored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.order < $1.order }.map(\.cause)
    }

    /// What a code means, in a sentence or two.
    public static func description(of code: GRPCCode) -> String {
        switch code {
        case .ok: "Not an error: the call succeeded."
        case .cancelled: "The call was cancelled, usually by the caller; for a streaming call the server may also end the response (the Consumer SDK sees this when the app goes to the background or the trip's state changes)."
        case .unknown: "An error without a more specific code: typically a status from another system, or an answer that carried no Fleet Engine error."
        case .invalidArgument: "The request is invalid whatever the state of the system: a malformed name, ID, field value, update mask or body. The message names the field."
        case .deadlineExceeded: "The deadline ran out before the call finished. A call that changes state may have completed anyway."
        case .notFound: "The trip, vehicle or other resource named in the request does not exist."
        case .alreadyExists: "The resource the caller tried to create already exists."
        case .permissionDenied: "The caller is identified but may not make this call: its role, the token's trip or vehicle, or the project's setup forbids it."
        case .resourceExhausted: "A quota or rate limit was reached (or the server ran out of a resource)."
        case .failedPrecondition: "The system is not in a state that allows the call: a trip's status, a vehicle with active trips, a stale version. Fix the state before retrying."
        case .aborted: "The call was aborted: a concurrent change to the same resource, or a stream the server stopped sending on."
        case .outOfRange: "The call went past the valid range, such as reading past the end. Fleet Engine reports out-of-range field values as INVALID_ARGUMENT instead."
        case .unimplemented: "The server does not implement or support this method."
        case .internal: "A fault inside the server, not in the request: a broken invariant or a store that cannot write."
        case .unavailable: "The service cannot be reached or is overloaded right now; usually transient."
        case .dataLoss: "Data was lost or damaged beyond repair."
        case .unauthenticated: "The request has no valid credentials: the JWT is malformed, badly signed, expired, or lacks the claims the call needs (a consumer token without a trip ID)."
        }
    }

    /// The choices this catalogue makes where Google's documents leave room, for the docs.
    public static let decisions: [String] = [
        "Retry classes follow the Consumer SDK guide: ABORTED, CANCELLED, DEADLINE_EXCEEDED and UNAVAILABLE are retried with backoff; every other error code needs action, as AIP-194 advises (only transient codes are retried automatically).",
        "Status codes follow the Consumer SDK guide: a JWT signed without a trip ID (or, for drivers, a vehicle ID), or expired, is UNAUTHENTICATED (HTTP 401); a missing JWT, a JWT for another trip, vehicle or provider, an invalid JWT (signature, audience, issuer) and a role that may not make the call are PERMISSION_DENIED (HTTP 403). A client refreshes its token on UNAUTHENTICATED; a 403 needs another kind of token.",
        "Values proto3 JSON decodes but that mean nothing are INVALID_ARGUMENT naming the field: NaN or ±Infinity in any number (`vehicle.lastLocation.speed`, `viewport.low.latitude`), an enum number or name no value has (`vehicle.vehicleState: 99`), and a query parameter that is not UTF-8 once percent-decoded (`vehicleId=%FF%C0`).",
        "A request body over the server's limit is INVALID_ARGUMENT with HTTP 413: the caller must shrink it, and a 429-style RESOURCE_EXHAUSTED would invite retries. `error-explain 413` also lists RESOURCE_EXHAUSTED, which gRPC uses for oversize messages.",
        "A stale intermediateDestinationsVersion is FAILED_PRECONDITION: sending the same update again cannot succeed; get the trip first.",
        "HTTP statuses Google's mapping never produces are read the way a gateway or gRPC client reads them (405 → UNIMPLEMENTED, 408 → DEADLINE_EXCEEDED, 413 → INVALID_ARGUMENT, 502 → UNAVAILABLE, other 4xx/5xx → UNKNOWN).",
        "Arguments 0–16 are gRPC numbers and 100–599 HTTP statuses; `io.grpc:N` and `grpc:N` force a gRPC number, `http:N` an HTTP status.",
    ]
}
