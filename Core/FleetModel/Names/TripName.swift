/// The name of a trip: `providers/{provider_id}/trips/{trip_id}`.
public struct TripName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The provider ID (the Cloud project ID).
    public let provider: String
    /// The trip ID.
    public let tripID: String

    private static let pattern = ResourceNamePattern(
        collections: ["providers", "trips"], idWords: ["provider ID", "trip ID"], cause: .badTripName)

    /// The expected form: `providers/{provider_id}/trips/{trip_id}`.
    public static var format: String { pattern.format }

    /// A name from its IDs, checked against Fleet Engine's ID rules.
    /// - Throws: INVALID_ARGUMENT (`.badTripName`) naming `field` when an ID is invalid.
    public init(provider: String, tripID: String, field: String = "name") throws {
        self.provider = provider
        self.tripID = tripID
        try Self.pattern.validate(ids: [provider, tripID], name: Self.pattern.format(ids: [provider, tripID]), field: field)
    }

    /// Parses `providers/{provider_id}/trips/{trip_id}` strictly: exactly these segments, these collection names, valid IDs.
    /// - Throws: INVALID_ARGUMENT (`.badTripName`) quoting `text` and what is wrong, with `field` set.
    public init(parsing text: String, field: String = "name") throws {
        let ids = try Self.pattern.parse(text, field: field)
        provider = ids[0]
        tripID = ids[1]
    }

    /// The resource name, `providers/{provider_id}/trips/{trip_id}`.
    public var description: String { Self.pattern.format(ids: [provider, tripID]) }

    /// Orders by the resource name.
    public static func < (lhs: TripName, rhs: TripName) -> Bool { lhs.description < rhs.description }
}

extension TripName {
    /// The provider this resource belongs to (`providers/{provider_id}`).
    public var providerName: ProviderName { ProviderName(checkedProvider: provider) }
}
