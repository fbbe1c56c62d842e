/// The provider and the vehicle, trip, delivery vehicle, task or shipment a call names
/// (`FleetCall.resources`), as far as its names say: what the server checks a token's provider and
/// scope against.
public struct CallResources: Sendable, Hashable {
    /// The provider, nil when no name says it.
    public var provider: String?
    /// The vehicle, from a vehicle's name or a request field naming one (CreateVehicle's `vehicleId`).
    public var vehicleID: String?
    /// The trip, from a trip's name or CreateTrip's `tripId`.
    public var tripID: String?
    /// The delivery vehicle, from its name or CreateDeliveryVehicle's `deliveryVehicleId`.
    public var deliveryVehicleID: String?
    /// The task, from its name or CreateTask's `taskId`.
    public var taskID: String?
    /// The shipment's tracking ID, from a task tracking info name.
    public var trackingID: String?

    public init(provider: String?, vehicleID: String? = nil, tripID: String? = nil, deliveryVehicleID: String? = nil,
                taskID: String? = nil, trackingID: String? = nil) {
        self.provider = provider
        self.vehicleID = vehicleID
        self.tripID = tripID
        self.deliveryVehicleID = deliveryVehicleID
        self.taskID = taskID
        self.trackingID = trackingID
    }

    /// The ID the call names of a resource of `kind` (a delivery vehicle's for `.deliveryVehicle`, the
    /// tracking ID for `.taskTrackingInfo`), nil when it names none.
    public func id(of kind: FleetMethod.Resource) -> String? {
        switch kind {
        case .vehicle: vehicleID
        case .trip: tripID
        case .deliveryVehicle: deliveryVehicleID
        case .task: taskID
        case .taskTrackingInfo: trackingID
        }
    }

    /// The provider of a name that does not parse (`providers/{p}/…`), nil when it does not start so.
    public static func provider(in name: String?) -> String? {
        let parts = (name ?? "").split(separator: "/", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts[0] == "providers" ? String(parts[1]) : nil
    }

    /// An ID field's value, nil when it is absent or empty.
    public static func nonEmpty(_ value: String?) -> String? {
        value.flatMap { $0.isEmpty ? nil : $0 }
    }
}
