import FleetModel

/// The `aud` claim: one audience or a list of them (RFC 7519 §4.1.3).
public enum JWTAudience: Sendable, Hashable {
    /// `"aud": "https://fleetengine.googleapis.com/"`.
    case single(String)
    /// `"aud": ["a", "b"]`.
    case multiple([String])

    /// Every audience named.
    public var values: [String] {
        switch self {
        case .single(let value): [value]
        case .multiple(let values): values
        }
    }

    /// Reads a string or an array of strings.
    /// - Throws: UNAUTHENTICATED `.jwtMalformed` for any other value.
    init(json value: JSON) throws {
        if let text = value.stringValue {
            self = .single(text)
            return
        }
        guard let elements = value.arrayValue else {
            throw JWTMemberReader.wrongType("claim aud", expected: "a string or an array of strings", got: value)
        }
        self = .multiple(try elements.map { try JWTMemberReader.string($0, name: "each element of claim aud") })
    }

    /// The JSON form: a string for `.single`, an array for `.multiple`.
    var json: JSON {
        switch self {
        case .single(let value): .string(value)
        case .multiple(let values): .array(values.map(JSON.string))
        }
    }
}
