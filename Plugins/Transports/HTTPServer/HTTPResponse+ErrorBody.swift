import FleetErrors
import FleetJSON

extension HTTPResponse {
    /// The server's default error body, in Google's shape:
    /// `{"error":{"code":413,"message":"…","status":"RESOURCE_EXHAUSTED"}}`.
    ///
    /// `status` in the JSON is the gRPC code name that fits the HTTP status (`statusName(forHTTPStatus:)`).
    public static func jsonError(status: Int, message: String) -> HTTPResponse {
        let body: JSON = ["error": ["code": .number(Double(status)), "message": .string(message),
                                      "status": .string(statusName(forHTTPStatus: status))]]
        return .json(body.serializedBytes(), status: status)
    }

    /// The gRPC code name for an HTTP status, as Google's REST errors pair them
    /// (413 and 431, sizes over a limit, are `RESOURCE_EXHAUSTED`, as gRPC reports an oversized message).
    public static func statusName(forHTTPStatus status: Int) -> String {
        let code: GRPCCode = switch status {
        case 200..<300: .ok
        case 400: .invalidArgument
        case 401: .unauthenticated
        case 403: .permissionDenied
        case 404: .notFound
        case 408: .deadlineExceeded
        case 409: .aborted
        case 413, 429, 431: .resourceExhausted
        case 499: .cancelled
        case 501: .unimplemented
        case 503: .unavailable
        case 504: .deadlineExceeded
        case 400..<500: .failedPrecondition
        case 500: .internal
        default: .unknown
        }
        return code.name
    }
}
