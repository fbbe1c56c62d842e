/// The 17 canonical gRPC status codes, as Fleet Engine reports them.
///
/// The raw value is the gRPC number (`io.grpc` NSError codes on iOS use the same numbers).
public enum GRPCCode: Int32, CaseIterable, Sendable, Hashable, Comparable {
    case ok = 0
    case cancelled = 1
    case unknown = 2
    case invalidArgument = 3
    case deadlineExceeded = 4
    case notFound = 5
    case alreadyExists = 6
    case permissionDenied = 7
    case resourceExhausted = 8
    case failedPrecondition = 9
    case aborted = 10
    case outOfRange = 11
    case unimplemented = 12
    case `internal` = 13
    case unavailable = 14
    case dataLoss = 15
    case unauthenticated = 16

    /// The canonical name, e.g. `PERMISSION_DENIED`.
    public var name: String {
        switch self {
        case .ok: "OK"
        case .cancelled: "CANCELLED"
        case .unknown: "UNKNOWN"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .deadlineExceeded: "DEADLINE_EXCEEDED"
        case .notFound: "NOT_FOUND"
        case .alreadyExists: "ALREADY_EXISTS"
        case .permissionDenied: "PERMISSION_DENIED"
        case .resourceExhausted: "RESOURCE_EXHAUSTED"
        case .failedPrecondition: "FAILED_PRECONDITION"
        case .aborted: "ABORTED"
        case .outOfRange: "OUT_OF_RANGE"
        case .unimplemented: "UNIMPLEMENTED"
        case .internal: "INTERNAL"
        case .unavailable: "UNAVAILABLE"
        case .dataLoss: "DATA_LOSS"
        case .unauthenticated: "UNAUTHENTICATED"
        }
    }

    /// The HTTP status Google's REST mapping uses for this code.
    public var httpStatus: Int {
        switch self {
        case .ok: 200
        case .cancelled: 499
        case .unknown, .internal, .dataLoss: 500
        case .invalidArgument, .failedPrecondition, .outOfRange: 400
        case .deadlineExceeded: 504
        case .notFound: 404
        case .alreadyExists, .aborted: 409
        case .permissionDenied: 403
        case .resourceExhausted: 429
        case .unimplemented: 501
        case .unavailable: 503
        case .unauthenticated: 401
        }
    }

    /// Finds a code by its canonical name (exact, upper snake case).
    public init?(name: String) {
        guard let code = GRPCCode.allCases.first(where: { $0.name == name }) else { return nil }
        self = code
    }

    /// Orders codes by number.
    public static func < (lhs: GRPCCode, rhs: GRPCCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
