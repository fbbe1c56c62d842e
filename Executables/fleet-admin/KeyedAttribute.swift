import FleetModel

/// What vehicle, trip, delivery vehicle and task attributes share: a key and one typed value
/// (string, bool or number). Flags build them and tables show them through this one shape.
protocol KeyedAttribute: Sendable, Equatable {
    /// The attribute's key.
    var key: String? { get }
    /// The value, when it is a string.
    var stringValue: String? { get }
    /// The value, when it is a bool.
    var boolValue: Bool? { get }
    /// The value, when it is a number.
    var numberValue: Double? { get }
    /// The deprecated untyped `value` of vehicle attributes (nil for the kinds without it).
    var legacyValue: String? { get }

    /// An attribute with a string value, as flags and files give them.
    static func string(key: String, value: String) -> Self
}

extension KeyedAttribute {
    /// None: only vehicle and delivery vehicle attributes have the untyped field.
    var legacyValue: String? { nil }
}

extension VehicleAttribute: KeyedAttribute {
    var legacyValue: String? { value }

    static func string(key: String, value: String) -> VehicleAttribute {
        VehicleAttribute(key: key, vehicleAttributeValue: .stringValue(value))
    }
}

extension TripAttribute: KeyedAttribute {
    static func string(key: String, value: String) -> TripAttribute {
        TripAttribute(key: key, tripAttributeValue: .stringValue(value))
    }
}

extension DeliveryVehicleAttribute: KeyedAttribute {
    var legacyValue: String? { value }

    static func string(key: String, value: String) -> DeliveryVehicleAttribute {
        DeliveryVehicleAttribute(key: key, deliveryVehicleAttributeValue: .stringValue(value))
    }
}

extension TaskAttribute: KeyedAttribute {
    static func string(key: String, value: String) -> TaskAttribute {
        TaskAttribute(key: key, taskAttributeValue: .stringValue(value))
    }
}
