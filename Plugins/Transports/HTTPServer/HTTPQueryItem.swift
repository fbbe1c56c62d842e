/// One `name=value` pair of a URL's query, percent-decoded, with `+` read as a space.
///
/// A name given without `=` has an empty value. Bytes that are not UTF-8 after decoding become U+FFFD
/// and `isValidUTF8` is false: two different byte strings would read as the same text, so a handler
/// that uses the value as an ID must refuse the item.
public struct HTTPQueryItem: Sendable, Hashable, CustomStringConvertible {
    /// The decoded name.
    public var name: String
    /// The decoded value; empty when the query had no `=` for this name.
    public var value: String
    /// Whether the name and value decoded to valid UTF-8 (false: some bytes became U+FFFD).
    public var isValidUTF8: Bool

    /// A query item with this name and value.
    public init(name: String, value: String, isValidUTF8: Bool = true) {
        self.name = name
        self.value = value
        self.isValidUTF8 = isValidUTF8
    }

    /// `name=value`, decoded.
    public var description: String { "\(name)=\(value)" }
}
