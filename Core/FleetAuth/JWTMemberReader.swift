import FleetErrors
import FleetModel

/// Type checks for JWT header and claim members; every failure is UNAUTHENTICATED `.jwtMalformed`
/// naming the member and what it held.
enum JWTMemberReader {
    /// The string `value` holds.
    static func string(_ value: JSON, name: String) throws -> String {
        guard let text = value.stringValue else { throw wrongType(name, expected: "a string", got: value) }
        return text
    }

    /// The NumericDate (seconds since 1970) `value` holds: a finite number.
    static func numericDate(_ value: JSON, name: String) throws -> Double {
        guard let number = value.doubleValue, number.isFinite else {
            throw wrongType(name, expected: "a number (seconds since 1970)", got: value)
        }
        return number
    }

    /// The object `value` holds.
    static func object(_ value: JSON, name: String) throws -> JSONObject {
        guard let object = value.objectValue else { throw wrongType(name, expected: "an object", got: value) }
        return object
    }

    static func wrongType(_ name: String, expected: String, got value: JSON) -> FleetError {
        FleetError(.jwtMalformed, detail: "\(name) must be \(expected), found \(value.kindDescription)")
    }
}
