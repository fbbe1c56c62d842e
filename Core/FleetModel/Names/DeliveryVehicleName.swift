/// The name of a delivery vehicle: `providers/{provider_id}/deliveryVehicles/{delivery_vehicle_id}`.
public struct DeliveryVehicleName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The provider ID (the Cloud project ID).
    public let provider: String
    /// The delivery vehicle ID.
    public let deliveryVehicleID: String

    private static let pattern = ResourceNamePattern(
        collections: ["providers", "deliveryVehicles"], idWords: ["provider ID", "delivery vehicle ID"], cause: .badDeliveryVehicleName)

    /// The expected form: `providers/{provider_id}/deliveryVehicles/{delivery_vehicle_id}`.
    public static var format: String { pattern.format }

    /// A name from its IDs, checked against Fleet Engine's ID rules.
    /// - Throws: INVALID_ARGUMENT (`.badDeliveryVehicleName`) naming `field` when an ID is invalid.
    public init(provider: String, deliveryVehicleID: String, field: String = "name") throws {
        self.provider = provider
        self.deliveryVehicleID = deliveryVehicleID
        try Self.pattern.validate(ids: [provider, deliveryVehicleID], name: Self.pattern.format(ids: [provider, deliveryVehicleID]), field: field)
    }

    /// Parses `providers/{provider_id}/deliveryVehicles/{delivery_vehicle_id}` strictly: exactly these segments, these collection names, valid IDs.
    /// - Throws: INVALID_ARGUMENT (`.badDeliveryVehicleName`) quoting `text` and what is wrong, with `field` set.
    public init(parsing text: String, field: String = "name") throws {
        let ids = try Self.pattern.parse(text, field: field)
        provider = ids[0]
        deliveryVehicleID = ids[1]
    }

    /// The resource name, `providers/{provider_id}/deliveryVehicles/{delivery_vehicle_id}`.
    public var description: String { Self.pattern.format(ids: [provider, deliveryVehicleID]) }

    /// Orders by the resource name.
    public static func < (lhs: DeliveryVehicleName, rhs: DeliveryVehicleName) -> Bool { lhs.description < rhs.description }
}

extension DeliveryVehicleName {
    /// The provider this resource belongs to (`providers/{provider_id}`).
    public var providerName: ProviderName { ProviderName(checkedProvider: provider) }
}
