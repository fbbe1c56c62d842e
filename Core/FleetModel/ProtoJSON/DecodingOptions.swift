/// How strictly to decode proto3 JSON.
public struct DecodingOptions: Sendable, Hashable {
    /// Skip members that name no field instead of failing (Google's `ignore_unknown_fields`).
    public var ignoreUnknownFields: Bool

    /// Options; by default unknown fields are errors.
    public init(ignoreUnknownFields: Bool = false) {
        self.ignoreUnknownFields = ignoreUnknownFields
    }
}
