/// Response header fields in the order received, looked up by case-insensitive name.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// Every field as received, in order (a name may repeat).
    public private(set) var fields: [(name: String, value: String)]

    /// Headers from a list of fields.
    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    /// Headers from a literal (`["Content-Type": "application/json"]`).
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of field `name`, compared without regard to case; nil when absent.
    public subscript(_ name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of field `name` (e.g. several `Set-Cookie`), in order.
    public func values(named name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// Adds a field at the end.
    public mutating func append(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates over the fields in the order received.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}
