import FleetErrors

extension HTTPResponse {
    /// The server's default error body, in Google's shape:
    /// `{"error":{"code":413,"message":"…","status":"RESOURCE_EXHAUSTED"}}`.
    ///
    /// `status` in the JSON is the gRPC code name that fits the HTTP status (`statusName(forHTTPStatus:)`).
    public static func jsonError(status: Int, message: String) -> HTTPResponse {
        let json = #"{"error":{"code":\#(status),"message":"\#(jsonEscaped(message))","status":"\#(statusName(forHTTPStatus: status))"}}"#
        return .json(Array(json.utf8), status: status)
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

    /// The text escaped for a JSON string literal.
    static func jsonEscaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
