/// How a client should react to an error code.
public enum RetryClass: String, Sendable, Hashable, CaseIterable {
    /// Not an error.
    case none
    /// Server or network trouble: the client recovers by itself, retrying with backoff.
    case retryable
    /// The caller must act (fix the request, the token, the quota): retrying the same call will not help.
    case client

    /// What the class means for the caller, in words (`retry with backoff: the client recovers by itself`).
    public var advice: String {
        switch self {
        case .none: "not an error: nothing to do"
        case .retryable: "retry with backoff: the client recovers by itself"
        case .client: "needs action: the call will not succeed until you fix something"
        }
    }

    /// The class in two or three words, for tables (`retry with backoff`, `needs action`, `not an error`).
    public var label: String {
        switch self {
        case .none: "not an error"
        case .retryable: "retry with backoff"
        case .client: "needs action"
        }
    }

    /// Whether a client retries calls of this class by itself.
    public var isRetryable: Bool { self == .retryable }
}

extension GRPCCode {
    /// The retry class, as the Consumer SDK's guide sorts codes.
    ///
    /// The guide names ABORTED, CANCELLED, DEADLINE_EXCEEDED and UNAVAILABLE as server or network
    /// errors that the SDK recovers from with backoff, and INVALID_ARGUMENT, NOT_FOUND,
    /// PERMISSION_DENIED, RESOURCE_EXHAUSTED and UNAUTHENTICATED as client errors. The codes it does
    /// not name are client errors too, following AIP-194 (only transient codes are retried
    /// automatically): UNKNOWN, ALREADY_EXISTS, FAILED_PRECONDITION, OUT_OF_RANGE, UNIMPLEMENTED,
    /// INTERNAL and DATA_LOSS do not go away by repeating the same call.
    public var retryClass: RetryClass {
        switch self {
        case .ok: .none
        case .aborted, .cancelled, .deadlineExceeded, .unavailable: .retryable
        default: .client
        }
    }
}
