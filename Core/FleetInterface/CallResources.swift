/// The provider and the vehicle, trip, delivery vehicle, task or shipment a call names
/// (`FleetCall.resources`), as far as its names say: what the server checks a token's provider and
/// scope against.
public struct CallResources: ResourceIDs, Sendable, Hashable {
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

/// A value naming at most one resource of each kind a call or a token's scope can name: a vehicle, a
/// trip, a delivery vehicle, a task and a shipment (by tracking ID). `CallResources` is what a call
/// names; FleetAuth's `AuthorizationScope` what a token is for.
public protocol ResourceIDs {
    /// The vehicle's ID.
    var vehicleID: String? { get set }
    /// The trip's ID.
    var tripID: String? { get set }
    /// The delivery vehicle's ID.
    var deliveryVehicleID: String? { get set }
    /// The task's ID.
    var taskID: String? { get set }
    /// The shipment's tracking ID.
    var trackingID: String? { get set }
}

extension ResourceIDs {
    /// The ID named for resources of `kind` (the delivery vehicle's for `.deliveryVehicle`, the
    /// tracking ID for `.taskTrackingInfo`), nil when none is.
    public subscript(kind: FleetMethod.Resource) -> String? {
        get {
            switch kind {
            case .vehicle: vehicleID
            case .trip: tripID
            case .deliveryVehicle: deliveryVehicleID
            case .task: taskID
            case .taskTrackingInfo: trackingID
            }
        }
        set {
            switch kind {
            case .vehicle: vehicleID = newValue
            case .trip: tripID = newValue
            case .deliveryVehicle: deliveryVehicleID = newValue
            case .task: taskID = newValue
            case .taskTrackingInfo: trackingID = newValue
            }
        }
    }
}
