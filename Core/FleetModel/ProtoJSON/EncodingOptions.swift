/// How to write proto3 JSON.
public struct EncodingOptions: Sendable, Hashable {
    /// Write enum values as their numbers (`"state": 1`) instead of their names (`"state": "OPEN"`),
    /// as Google's `use_integers_for_enums` does and as a REST caller asks with
    /// `$alt=json;enum-encoding=int`. proto3 JSON readers accept both; a value this build does not
    /// know by number (an unknown name kept for forward compatibility) is still written by name.
    public var enumsAsNumbers: Bool

    /// Options; by default enums are written by name.
    public init(enumsAsNumbers: Bool = false) {
        self.enumsAsNumbers = enumsAsNumbers
    }
}
