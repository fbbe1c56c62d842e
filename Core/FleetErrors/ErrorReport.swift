/// What an error someone pasted says: a Google error body, an iOS `NSError` line, a gRPC
/// status line from another library, or a bare message.
///
/// Read one with `ErrorReportReader`; `code` then names the gRPC code it reports, if any.
public struct ErrorReport: Sendable, Hashable {
    /// The shape the report was read from.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// `{"error":{"code":<HTTP status>,"message":…,"status":…,"details":[…]}}`.
        case googleErrorBody
        /// `{"code":<gRPC number>,"message":…,"details":[…]}` (a `google.rpc.Status`, as gRPC gateways answer).
        case rpcStatus
        /// `Error Domain=io.grpc Code=7 "…" UserInfo={…}` (iOS SDK).
        case nsError
        /// `PERMISSION_DENIED: …`, `Status{code=…, description=…}` (Java), `rpc error: code = … desc = …` (Go).
        case statusLine
        /// A message with no code, recognised by its words.
        case message
    }

    /// One `google.rpc.BadRequest` field violation.
    public struct FieldViolation: Sendable, Hashable {
        /// The field at fault, as a path (`trip.pickupPoint`).
        public var field: String
        /// What is wrong with it.
        public var description: String

        /// A field violation.
        public init(field: String, description: String) {
            self.field = field
            self.description = description
        }
    }

    /// The shape the report was read from.
    public var format: Format
    /// The HTTP status in the body (`error.code`), when there is one.
    public var httpStatus: Int?
    /// The gRPC number the report gives (`Code=7`, a `google.rpc.Status` code), when there is one.
    public var grpcNumber: Int?
    /// The status name as written (`NOT_FOUND`, `PermissionDenied`), when there is one.
    public var statusName: String?
    /// The message for people.
    public var message: String?
    /// `ErrorInfo.reason`, when a detail carries one.
    public var reason: String?
    /// The `NSError` domain or `ErrorInfo.domain`, when there is one.
    public var domain: String?
    /// `BadRequest.fieldViolations`, when a detail carries them.
    public var fieldViolations: [FieldViolation]

    /// A report; everything but the format is optional.
    public init(format: Format, httpStatus: Int? = nil, grpcNumber: Int? = nil, statusName: String? = nil,
                message: String? = nil, reason: String? = nil, domain: String? = nil,
                fieldViolations: [FieldViolation] = []) {
        self.format = format
        self.httpStatus = httpStatus
        self.grpcNumber = grpcNumber
        self.statusName = statusName
        self.message = message
        self.reason = reason
        self.domain = domain
        self.fieldViolations = fieldViolations
    }

    /// The gRPC code the report names: its status name first, then its gRPC number, then the most
    /// likely code of its HTTP status, then the code of the cause its message points to.
    public var code: GRPCCode? {
        if let statusName, let code = GRPCCode(spelling: statusName) { return code }
        if let grpcNumber, let entry = ErrorCatalogue.entry(number: grpcNumber) { return entry.code }
        if let httpStatus, let mapping = HTTPStatusMapping.mapping(for: httpStatus) { return mapping.codes.first }
        return ErrorCatalogue.likelyCauses(message: matchableText).first?.code
    }

    /// The causes the report points to, best first: by `reason`, then by the words of its message
    /// and field violations.
    public var likelyCauses: [ErrorCause] {
        guard let code else { return [] }
        return ErrorCatalogue.likelyCauses(of: code, message: matchableText, reason: reason)
    }

    /// The message and the field violations' words, which cause phrases are matched against.
    var matchableText: String {
        ([message ?? ""] + fieldViolations.flatMap { [$0.field, $0.description] }).joined(separator: " ")
    }
}
