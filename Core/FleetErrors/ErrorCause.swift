/// How a client should react to an error code.
public enum RetryClass: String, Sendable, Hashable, CaseIterable {
    /// Not an error.
    case none
    /// Server or network trouble: the client recovers by itself, retrying with backoff.
    case retryable
    /// The caller must act (fix the request, the token, the quota): retrying the same call will not help.
    case client
}

extension GRPCCode {
    /// The retry class, as the Consumer SDK's guide sorts codes.
    public var retryClass: RetryClass {
        switch self {
        case .ok: .none
        case .aborted, .cancelled, .deadlineExceeded, .unavailable: .retryable
        default: .client
        }
    }
}

/// One known reason for an error: its code, what it means, and what to do about it.
///
/// Causes are declared once, in `ErrorCatalogue`, and every error the product reports is built from one.
public struct ErrorCause: Sendable, Hashable, Identifiable {
    /// A stable identifier in upper snake case (`EMPTY_UPDATE_MASK`), sent as `ErrorInfo.reason`.
    public let id: String
    /// The gRPC code this cause produces.
    public let code: GRPCCode
    /// A one-line statement of what went wrong.
    public let summary: String
    /// What the caller should do about it.
    public let remedy: String

    public init(id: String, code: GRPCCode, summary: String, remedy: String) {
        self.id = id
        self.code = code
        self.summary = summary
        self.remedy = remedy
    }
}
