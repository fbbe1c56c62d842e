/// HTTP header fields in the order they were sent, looked up by name without regard to case: a
/// request's or a response's, on the server (libmicrohttpd) and on the client (libcurl) alike.
///
/// Repeated fields are kept as separate entries (`values(for:)` returns them all). Build one from
/// an array of pairs (`[("Content-Type", "application/json")]`) or a dictionary literal.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One header field: its name as sent and its value.
    public struct Field: Sendable, Hashable {
        /// The field name, with the case the sender used.
        public var name: String
        /// The field value, without surrounding whitespace.
        public var value: String

        /// A field with this name and value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every field, in order.
    public private(set) var fields: [Field]

    /// No fields.
    public init() { fields = [] }

    /// These name–value pairs, in order.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// These fields, in order.
    public init(_ fields: [Field]) {
        self.fields = fields
    }

    /// Fields from `[("Name", "value"), …]`, in order.
    public init(arrayLiteral elements: (String, String)...) { self.init(elements) }

    /// Fields from `["Name": "value", …]`, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The value of the first field with this name (any case), or nil.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// The values of every field with this name (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Whether a field with this name (any case) is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.sameName($0.name, name) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// Appends a field, keeping any others of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of this name (any case) with one field.
    public mutating func set(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field of this name (any case).
    public mutating func remove(name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// One `Name: value` line per field.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// Whether two field names are equal, ignoring ASCII case (header names are ASCII tokens).
    public static func sameName(_ a: String, _ b: String) -> Bool {
        let left = a.utf8, right = b.utf8
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { lowercase($0) == lowercase($1) }
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte | 0x20 : byte
    }
}
