/// One `name=value` pair of a URL's query, percent-decoded, with `+` read as a space.
///
/// A name given without `=` has an empty value. Bytes that are not UTF-8 after decoding become U+FFFD.
public struct HTTPQueryItem: Sendable, Hashable, CustomStringConvertible {
    /// The decoded name.
    public var name: String
    /// The decoded value; empty when the query had no `=` for this name.
    public var value: String

    /// A query item with this name and value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `name=value`, decoded.
    public var description: String { "\(name)=\(value)" }
}
