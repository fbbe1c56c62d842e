/// The name of a billable trip (ReportBillableTrip): `providers/{provider_id}/billableTrips/{billable_trip_id}`.
public struct BillableTripName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The provider ID (the Cloud project ID).
    public let provider: String
    /// The billable trip ID.
    public let billableTripID: String

    private static let pattern = ResourceNamePattern(
        collections: ["providers", "billableTrips"], idWords: ["provider ID", "billable trip ID"], cause: .badBillableTripName)

    /// The expected form: `providers/{provider_id}/billableTrips/{billable_trip_id}`.
    public static var format: String { pattern.format }

    /// A name from its IDs, checked against Fleet Engine's ID rules.
    /// - Throws: INVALID_ARGUMENT (`.badBillableTripName`) naming `field` when an ID is invalid.
    public init(provider: String, billableTripID: String, field: String = "name") throws {
        self.provider = provider
        self.billableTripID = billableTripID
        try Self.pattern.validate(ids: [provider, billableTripID], name: Self.pattern.format(ids: [provider, billableTripID]), field: field)
    }

    /// Parses `providers/{provider_id}/billableTrips/{billable_trip_id}` strictly: exactly these segments, these collection names, valid IDs.
    /// - Throws: INVALID_ARGUMENT (`.badBillableTripName`) quoting `text` and what is wrong, with `field` set.
    public init(parsing text: String, field: String = "name") throws {
        let ids = try Self.pattern.parse(text, field: field)
        provider = ids[0]
        billableTripID = ids[1]
    }

    /// The resource name, `providers/{provider_id}/billableTrips/{billable_trip_id}`.
    public var description: String { Self.pattern.format(ids: [provider, billableTripID]) }

    /// Orders by the resource name.
    public static func < (lhs: BillableTripName, rhs: BillableTripName) -> Bool { lhs.description < rhs.description }
}

extension BillableTripName {
    /// The provider this resource belongs to (`providers/{provider_id}`).
    public var providerName: ProviderName { ProviderName(checkedProvider: provider) }
}
