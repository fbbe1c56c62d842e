/// The one error type of the product: a gRPC code, a message for people, and where it came from.
///
/// Build one from a catalogue cause (`FleetError(.emptyUpdateMask)`), so that the code, the
/// wording and the remedy stay in one place (`ErrorCatalogue`).
public struct FleetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The gRPC status code.
    public var code: GRPCCode
    /// What went wrong, for a person: names the field or resource at fault.
    public var message: String
    /// The request field at fault, as a JSON path (`trip.pickupPoint.point`), when there is one.
    public var field: String?
    /// The catalogue cause, when one is known (`ErrorInfo.reason` on the wire).
    public var cause: ErrorCause.ID?
    /// How long the server asked the caller to wait before trying again (HTTP `Retry-After`,
    /// sent with RATE_LIMITED), when it said; clients wait at least this long.
    public var retryAfter: Duration?

    /// An error with an explicit code and message. Prefer `init(_:detail:field:)` with a cause.
    public init(code: GRPCCode, message: String, field: String? = nil, cause: ErrorCause.ID? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.cause = cause
    }

    /// An error from a catalogue cause; `detail` is appended to the cause's summary.
    public init(_ cause: ErrorCause, detail: String? = nil, field: String? = nil) {
        let message = detail.map { "\(cause.summary): \($0)" } ?? cause.summary
        self.init(code: cause.code, message: message, field: field, cause: cause.id)
    }

    /// `retryAfter` in seconds, for clients that count time in seconds.
    public var retryAfterSeconds: Double? {
        retryAfter.map { $0 / .seconds(1) }
    }

    /// The HTTP status of this error's code.
    public var httpStatus: Int { code.httpStatus }

    /// Whether a client should retry by itself (server and network errors) or needs action.
    public var retryClass: RetryClass { code.retryClass }

    /// `CODE_NAME: message`.
    public var description: String { "\(code.name): \(message)" }
}

extension FleetError {
    /// INVALID_ARGUMENT naming the field at fault.
    public static func invalidArgument(_ message: String, field: String? = nil) -> FleetError {
        FleetError(code: .invalidArgument, message: message, field: field, cause: field == nil ? nil : ErrorCause.invalidField.id)
    }

    /// NOT_FOUND for a resource name.
    public static func notFound(_ resource: String) -> FleetError {
        FleetError(.resourceNotFound, detail: resource)
    }

    /// FAILED_PRECONDITION with a message.
    public static func failedPrecondition(_ message: String, field: String? = nil) -> FleetError {
        FleetError(code: .failedPrecondition, message: message, field: field)
    }

    /// INTERNAL, for faults of ours (a store that cannot write, a broken invariant).
    public static func `internal`(_ message: String) -> FleetError {
        FleetError(code: .internal, message: message)
    }
}
