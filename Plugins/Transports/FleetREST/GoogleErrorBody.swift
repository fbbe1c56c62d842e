import FleetErrors
import FleetModel


/// Google's JSON error body, `{"error":{"code":403,"message":"…","status":"PERMISSION_DENIED","details":[…]}}`,
/// both ways.
public enum GoogleErrorBody {
    /// The HTTP status a server answers an error with.
    public static func httpStatus(for error: FleetError) -> Int {
        switch error.cause {
        case ErrorCause.methodNotAllowed.id?: 405
        case ErrorCause.requestTooLarge.id?: 413
        case ErrorCause.requestTimeout.id?: 408
        case ErrorCause.unsupportedMediaType.id?: 415
        case ErrorCause.requestHeadersTooLarge.id?: 431
        default: error.httpStatus
        }
    }

    /// The body for an error, with `ErrorInfo` (the catalogue cause) and `BadRequest` (the field) details.
    public static func encode(_ error: FleetError) -> JSON {
        var details: [JSON] = []
        if let cause = error.cause {
            details.append(.object([
                "@type": .string("type.googleapis.com/google.rpc.ErrorInfo"),
                "reason": .string(cause),
                "domain": .string("fleetengine.googleapis.com"),
            ]))
        }
        if let field = error.field {
            details.append(.object([
                "@type": .string("type.googleapis.com/google.rpc.BadRequest"),
                "fieldViolations": .array([.object(["field": .string(field), "description": .string(error.message)])]),
            ]))
        }
        var body: JSONObject = [
            "code": .number(Double(httpStatus(for: error))),
            "message": .string(error.message),
            "status": .string(error.code.name),
        ]
        if !details.isEmpty { body["details"] = .array(details) }
        return .object(["error": .object(body)])
    }

    /// The error a server's answer carries. A body that is not Google's error JSON (a proxy's HTML
    /// page) still gives the code its HTTP status maps to.
    public static func decode(status: Int, body: [UInt8]) -> FleetError {
        let fallbackCode = ErrorCatalogue.entries(httpStatus: status).first?.code ?? .unknown
        guard let json = try? JSON.parse(body), case .object(let root) = json,
              case .object(let error)? = root["error"] else {
            let text = String(decoding: body.prefix(200), as: UTF8.self)
            return FleetError(code: fallbackCode, message: "HTTP \(status) without a Fleet Engine error body: \(text)",
                              cause: ErrorCause.nonFleetResponse.id)
        }
        var code = fallbackCode
        if case .string(let name)? = error["status"], let named = GRPCCode(name: name) { code = named }
        var message = ""
        if case .string(let m)? = error["message"] { message = m }
        var result = FleetError(code: code, message: message)
        if case .array(let details)? = error["details"] {
            for detail in details {
                guard case .object(let d) = detail else { continue }
                if case .string(let reason)? = d["reason"] { result.cause = reason }
                if case .array(let violations)? = d["fieldViolations"], case .object(let v)? = violations.first,
                   case .string(let field)? = v["field"] { result.field = field }
            }
        }
        return result
    }
}
