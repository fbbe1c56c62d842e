/// The name of a vehicle: `providers/{provider_id}/vehicles/{vehicle_id}`.
public struct VehicleName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The provider ID (the Cloud project ID).
    public let provider: String
    /// The vehicle ID.
    public let vehicleID: String

    private static let pattern = ResourceNamePattern(
        collections: ["providers", "vehicles"], idWords: ["provider ID", "vehicle ID"], cause: .badVehicleName)

    /// The expected form: `providers/{provider_id}/vehicles/{vehicle_id}`.
    public static var format: String { pattern.format }

    /// A name from its IDs, checked against Fleet Engine's ID rules.
    /// - Throws: INVALID_ARGUMENT (`.badVehicleName`) naming `field` when an ID is invalid.
    public init(provider: String, vehicleID: String, field: String = "name") throws {
        self.provider = provider
        self.vehicleID = vehicleID
        try Self.pattern.validate(ids: [provider, vehicleID], name: Self.pattern.format(ids: [provider, vehicleID]), field: field)
    }

    /// Parses `providers/{provider_id}/vehicles/{vehicle_id}` strictly: exactly these segments, these collection names, valid IDs.
    /// - Throws: INVALID_ARGUMENT (`.badVehicleName`) quoting `text` and what is wrong, with `field` set.
    public init(parsing text: String, field: String = "name") throws {
        let ids = try Self.pattern.parse(text, field: field)
        provider = ids[0]
        vehicleID = ids[1]
    }

    /// The resource name, `providers/{provider_id}/vehicles/{vehicle_id}`.
    public var description: String { Self.pattern.format(ids: [provider, vehicleID]) }

    /// Orders by the resource name.
    public static func < (lhs: VehicleName, rhs: VehicleName) -> Bool { lhs.description < rhs.description }
}

extension VehicleName {
    /// The provider this resource belongs to (`providers/{provider_id}`).
    public var providerName: ProviderName { ProviderName(checkedProvider: provider) }
}
