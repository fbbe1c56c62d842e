/// A JSON value: the one JSON representation of the product (HTTP bodies, journal files, JWT parts).
///
/// Parse bytes with `JSON.parse(_:maxDepth:)`, write with `serialized()` / `serializedBytes()` /
/// `prettyPrinted()`. Objects keep their members in order (`JSONObject`); two values are equal when they
/// mean the same JSON (object member order does not matter, numbers compare as `Double`).
///
/// Numbers are `Double`s. Integers beyond 2^53 lose precision, which is why proto3 JSON sends 64-bit
/// integers as strings.
public enum JSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number. Non-finite values serialize as the strings `"NaN"`, `"Infinity"`, `"-Infinity"` (proto3's form).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSON])
    /// An object whose members keep their order.
    case object(JSONObject)
}

// MARK: - Accessors

extension JSON {
    /// The member named `key` when this is an object holding it; nil otherwise.
    public subscript(key: String) -> JSON? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` when this is an array long enough; nil otherwise.
    public subscript(index: Int) -> JSON? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number, when this is one.
    public var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, when this is a number with an integral value that fits.
    public var intValue: Int? {
        guard case .number(let value) = self, value.rounded(.towardZero) == value else { return nil }
        return Int(exactly: value)
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, when this is one.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// A short name of this value's kind for messages: "null", "a boolean", "a number", "a string", "an array", "an object".
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

// MARK: - Literals

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    /// An object with the members in the order written; a repeated key keeps the last value.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        var object = JSONObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}

extension JSON: CustomStringConvertible {
    /// The compact serialization.
    public var description: String { serialized() }
}
