/// A value that a proto3 JSON field can hold: scalars, well-known types, enums and messages.
///
/// Each conforming type decodes and encodes itself exactly as proto3's JSON mapping says, so a message's
/// decoder is just a list of `reader.field(...)` calls. Use the conformances directly to read values that
/// arrive outside a body, e.g. a query parameter: `try Int32(protoJSON: .string("10"), path: "pageSize")`.
public protocol ProtoJSONValue: Sendable, Hashable {
    /// Decodes from proto3 JSON. `path` is the field's JSON path, used in errors.
    ///
    /// `json` is never `.null` when called by `ProtoJSONReader` (null means "not set").
    init(protoJSON json: JSON, path: String, options: DecodingOptions) throws

    /// The proto3 JSON form.
    var protoJSON: JSON { get }

    /// Writes the proto3 JSON text (what `protoJSON` serializes to) straight to `writer`.
    func writeJSONText(to writer: inout ProtoJSONTextWriter)
}

extension ProtoJSONValue {
    /// Scalars and well-known types: their small JSON value, serialized.
    public func writeJSONText(to writer: inout ProtoJSONTextWriter) {
        writer.writeValue(protoJSON)
    }

    /// Decodes with the default (strict) options.
    public init(protoJSON json: JSON, path: String) throws {
        try self.init(protoJSON: json, path: path, options: DecodingOptions())
    }
}

// MARK: - string, bool

extension String: ProtoJSONValue {
    /// A JSON string.
    public init(protoJSON json: JSON, path: String, options: DecodingOptions) throws {
        guard case .string(let text) = json else {
            throw ProtoJSONError.invalidValue(at: path, protoType: "TYPE_STRING", got: json, expected: "a string")
        }
        self = text
    }

    /// The string.
    public var protoJSON: JSON { .string(self) }
}

extension Bool: ProtoJSONValue {
    /// `true` or `false` (not strings).
    public init(protoJSON json: JSON, path: String, options: DecodingOptions) throws {
        guard case .bool(let flag) = json else {
            throw ProtoJSONError.invalidValue(at: path, protoType: "TYPE_BOOL", got: json, expected: "true or false")
        }
        self = flag
    }

    /// `true` or `false`.
    public var protoJSON: JSON { .bool(self) }
}

// MARK: - Integers

/// Reads an integer from a JSON number (integral, exactly representable) or a decimal string.
private func integer(from json: JSON, path: String, protoType: String, expected: String, range: ClosedRange<Int64>) throws -> Int64 {
    let value: Int64?
    switch json {
    case .number(let number):
        // Doubles are exact up to 2^53; beyond that a number may have been rounded, so demand a string.
        if number.rounded(.towardZero) == number, abs(number) <= 9_007_199_254_740_992 {
            value = Int64(number)
        } else {
            value = nil
        }
    case .string(let text):
        value = parseDecimalInteger(text)
    default:
        value = nil
    }
    guard let value, range.contains(value) else {
        throw ProtoJSONError.invalidValue(at: path, protoType: protoType, got: json, expected: expected)
    }
    return value
}

/// Strict decimal integer text: an optional '-', then digits; nil when malformed or beyond Int64.
private func parseDecimalInteger(_ text: String) -> Int64? {
    var utf8 = text.utf8[...]
    var negative = false
    if utf8.first == UInt8(ascii: "-") {
        negative = true
        utf8 = utf8.dropFirst()
    }
    guard !utf8.isEmpty, utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
    return Int64(negative ? "-" + String(decoding: utf8, as: UTF8.self) : String(decoding: utf8, as: UTF8.self))
}

extension Int32: ProtoJSONValue {
    /// A JSON number with an integral value in range, or a decimal string (`"42"`).
    public init(protoJSON json: JSON, path: String, options: DecodingOptions) throws {
        self = Int32(try integer(from: json, path: path, protoType: "TYPE_INT32",
                                 expected: "a 32-bit integer (a number or a decimal string)",
                                 range: Int64(Int32.min)...Int64(Int32.max)))
    }

    /// A JSON number.
    public var protoJSON: JSON { .number(Double(self)) }
}

extension Int64: ProtoJSONValue {
    /// A decimal string (`"9007199254740993"`), or a JSON number with an integral value up to 2^53.
    public init(protoJSON json: JSON, path: String, options: DecodingOptions) throws {
        self = try integer(from: json, path: path, protoType: "TYPE_INT64",
                           expected: "a 64-bit integer (a decimal string, or a number of magnitude at most 2^53)",
                           range: Int64.min...Int64.max)
    }

    /// A decimal string, as proto3 JSON writes 64-bit integers.
    public var protoJSON: JSON { .string(String(self)) }
}

extension UInt64: ProtoJSONValue {
    /// A decimal string, or a JSON number with a non-negative integral value up to 2^53.
    public init(protoJSON json: JSON, path: String, options: DecodingOptions) throws {
        if case .string(let text) = json, let value = UInt64(text), text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            self = value
            return
        }
        self = UInt64(try integer(from: json, path: path, protoType: "TYPE_UINT64",
                                  expected: "an unsigned 64-bit integer (a decimal string, or a number up to 2^53)",
                                  range: 0...Int64.max))
    }

    /// A decimal string, as proto3 JSON writes 64-bit integers.
    public var protoJSON: JSON { .string(String(self)) }
}

// MARK: - Floating point

/// Reads a double from a number, a numeric string, or "NaN" / "Infinity" / "-Infinity".
private func floatingPoint(from json: JSON, path: String, protoType: String) throws -> Double {
    switch json {
    case .number(let number):
        return number
    case .string("NaN"):
        return .nan
    case .string("Infinity"):
        return .infinity
    case .string("-Infinity"):
        return -.infinity
    case .string(let text):
        if case .number(let number)? = try? JSON.parse(text, maxDepth: 0) { return number }
    default:
        break
    }
    throw ProtoJSONError.invalidValue(at: path, protoType: protoType, got: json,
                                      expected: "a number, a numeric string, or \"NaN\", \"Infinity\" or \"-Infinity\"")
}

/// The proto3 JSON form of a double: a number, or a string for non-finite values.
private func floatingPointJSON(_ value: Double) -> JSON {
    if value.isFinite { return .number(value) }
    return .string(value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity"))
}

extension Double: ProtoJSONValue {
    /// A number, a numeric string, or "NaN" / "Infinity" / "-Infinity".
    public init(protoJSON json: JSON, path: String, options: DecodingOptions) throws {
        self = try floatingPoint(from: json, path: path, protoType: "TYPE_DOUBLE")
    }

    /// A number; non-finite values as "NaN", "Infinity", "-Infinity".
    public var protoJSON: JSON { floatingPointJSON(self) }
}

extension Float: ProtoJSONValue {
    /// As for double; finite values that round to infinity as a `Float` (beyond ±3.4028235e38) are errors.
    public init(protoJSON json: JSON, path: String, options: DecodingOptions) throws {
        let value = try floatingPoint(from: json, path: path, protoType: "TYPE_FLOAT")
        if value.isFinite, !Float(value).isFinite {
            throw ProtoJSONError.invalidValue(at: path, protoType: "TYPE_FLOAT", got: json, expected: "a number within the range of a 32-bit float")
        }
        self = Float(value)
    }

    /// A number written with the shortest digits that round-trip as a `Float` (87.3, not 87.30000305175781).
    public var protoJSON: JSON {
        guard isFinite else { return floatingPointJSON(Double(self)) }
        return .number(Double(description) ?? Double(self))
    }
}
