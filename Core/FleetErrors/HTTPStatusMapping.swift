/// The gRPC codes an HTTP status stands for, most likely first.
///
/// Google's REST mapping gives each code one HTTP status, so a status such as 400 stands for
/// several codes. Statuses Google's mapping does not produce (413, 502, …) are mapped the way a
/// gateway or gRPC client reports them, with a note saying so.
public struct HTTPStatusMapping: Sendable, Hashable {
    /// The HTTP status.
    public let status: Int
    /// The codes, most likely first; never empty.
    public let codes: [GRPCCode]
    /// Whether the status is one Google's mapping produces for these codes (`false` for a
    /// gateway's or a client's reading of a status Fleet Engine does not send itself).
    public let isDirect: Bool
    /// How to read the mapping when it is not direct, or when several codes share the status.
    public let note: String?

    /// A mapping.
    public init(status: Int, codes: [GRPCCode], isDirect: Bool, note: String? = nil) {
        precondition(!codes.isEmpty, "an HTTP status maps to at least one code")
        self.status = status
        self.codes = codes
        self.isDirect = isDirect
        self.note = note
    }

    /// The mapping for an HTTP status, or nil for one that is not an error status Fleet Engine or
    /// a gateway in front of it would answer with (1xx, 3xx, 2xx other than 200, or outside 100–599).
    public static func mapping(for status: Int) -> HTTPStatusMapping? {
        if let known = table.first(where: { $0.status == status }) { return known }
        guard (400...599).contains(status) else { return nil }
        return HTTPStatusMapping(
            status: status, codes: [.unknown], isDirect: false,
            note: "HTTP \(status) has no gRPC mapping: gRPC clients report an unexpected HTTP status as UNKNOWN.")
    }

    /// Every status with a specific mapping, in increasing order: the direct ones, then the
    /// statuses a gateway maps.
    public static let table: [HTTPStatusMapping] = [
        HTTPStatusMapping(status: 200, codes: [.ok], isDirect: true),
        HTTPStatusMapping(
            status: 400, codes: [.invalidArgument, .failedPrecondition, .outOfRange], isDirect: true,
            note: "The body's \"status\" says which; Fleet Engine mostly means INVALID_ARGUMENT."),
        HTTPStatusMapping(status: 401, codes: [.unauthenticated], isDirect: true),
        HTTPStatusMapping(status: 403, codes: [.permissionDenied], isDirect: true),
        HTTPStatusMapping(status: 404, codes: [.notFound], isDirect: true),
        HTTPStatusMapping(
            status: 405, codes: [.unimplemented], isDirect: false,
            note: "405 Method Not Allowed: the path exists but not with this HTTP verb, so the call is not implemented."),
        HTTPStatusMapping(
            status: 408, codes: [.deadlineExceeded], isDirect: false,
            note: "408 Request Timeout: the request did not arrive in time; a client reads it as DEADLINE_EXCEEDED."),
        HTTPStatusMapping(
            status: 409, codes: [.alreadyExists, .aborted], isDirect: true,
            note: "The body's \"status\" says which; on a create it means ALREADY_EXISTS."),
        HTTPStatusMapping(
            status: 411, codes: [.invalidArgument], isDirect: false,
            note: "411 Length Required: the request had no Content-Length."),
        HTTPStatusMapping(
            status: 412, codes: [.failedPrecondition], isDirect: false,
            note: "412 Precondition Failed: a conditional request's precondition did not hold."),
        HTTPStatusMapping(
            status: 413, codes: [.invalidArgument, .resourceExhausted], isDirect: false,
            note: "413 Payload Too Large: our server answers an oversize body with INVALID_ARGUMENT (shrink the request, do not retry); gRPC reports an oversize message as RESOURCE_EXHAUSTED."),
        HTTPStatusMapping(
            status: 414, codes: [.invalidArgument], isDirect: false,
            note: "414 URI Too Long: too many query parameters or too long a name."),
        HTTPStatusMapping(
            status: 415, codes: [.invalidArgument], isDirect: false,
            note: "415 Unsupported Media Type: send Content-Type: application/json."),
        HTTPStatusMapping(
            status: 416, codes: [.outOfRange], isDirect: false,
            note: "416 Range Not Satisfiable: a read past the end."),
        HTTPStatusMapping(
            status: 422, codes: [.invalidArgument], isDirect: false,
            note: "422 Unprocessable Content: the body parsed but its values are invalid."),
        HTTPStatusMapping(status: 429, codes: [.resourceExhausted], isDirect: true),
        HTTPStatusMapping(
            status: 431, codes: [.invalidArgument], isDirect: false,
            note: "431 Request Header Fields Too Large: usually an oversize token."),
        HTTPStatusMapping(
            status: 499, codes: [.cancelled], isDirect: true,
            note: "499 Client Closed Request: the caller went away before the answer."),
        HTTPStatusMapping(
            status: 500, codes: [.internal, .unknown, .dataLoss], isDirect: true,
            note: "The body's \"status\" says which; usually INTERNAL."),
        HTTPStatusMapping(status: 501, codes: [.unimplemented], isDirect: true),
        HTTPStatusMapping(
            status: 502, codes: [.unavailable], isDirect: false,
            note: "502 Bad Gateway: a proxy or load balancer could not reach the server; gRPC maps it to UNAVAILABLE."),
        HTTPStatusMapping(status: 503, codes: [.unavailable], isDirect: true),
        HTTPStatusMapping(status: 504, codes: [.deadlineExceeded], isDirect: true),
    ]
}
