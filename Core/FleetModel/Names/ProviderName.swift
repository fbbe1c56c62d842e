/// The name of a provider (a Cloud project): `providers/{provider_id}`.
public struct ProviderName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The provider ID (the Cloud project ID).
    public let provider: String

    private static let pattern = ResourceNamePattern(
        collections: ["providers"], idWords: ["provider ID"], cause: .badProviderName)

    /// The expected form: `providers/{provider_id}`.
    public static var format: String { pattern.format }

    /// A name from its IDs, checked against Fleet Engine's ID rules.
    /// - Throws: INVALID_ARGUMENT (`.badProviderName`) naming `field` when an ID is invalid.
    public init(provider: String, field: String = "name") throws {
        self.provider = provider
        try Self.pattern.validate(ids: [provider], name: Self.pattern.format(ids: [provider]), field: field)
    }

    /// Parses `providers/{provider_id}` strictly: exactly these segments, these collection names, valid IDs.
    /// - Throws: INVALID_ARGUMENT (`.badProviderName`) quoting `text` and what is wrong, with `field` set.
    public init(parsing text: String, field: String = "name") throws {
        let ids = try Self.pattern.parse(text, field: field)
        provider = ids[0]
    }

    /// The resource name, `providers/{provider_id}`.
    public var description: String { Self.pattern.format(ids: [provider]) }

    /// Orders by the resource name.
    public static func < (lhs: ProviderName, rhs: ProviderName) -> Bool { lhs.description < rhs.description }
}

extension ProviderName {
    /// A provider name whose ID was already checked (as part of a longer name).
    init(checkedProvider provider: String) {
        self.provider = provider
    }
}
