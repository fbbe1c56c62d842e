import FleetModel

/// The enum values each flag accepts (the zero "unknown" values are never typed by operators).
enum Vocabulary {
    /// `--state`: online, offline.
    static let vehicleStates: [VehicleState] = [.online, .offline]
    /// `--type` (trip types): exclusive, shared.
    static let tripTypes: [TripType] = [.exclusive, .shared]
    /// `--category`: auto, taxi, truck, two-wheeler, bicycle, pedestrian.
    static let categories: [VehicleType.Category] = VehicleType.Category.allKnown.filter { $0 != .unknown }
    /// The categories of every `--category a,b` given, without repeats; every category when none is.
    static func categories(given lists: [[VehicleType.Category]]) -> [VehicleType.Category] {
        let given = FlagValue.union(lists)
        return given.isEmpty ? categories : given
    }
    /// Trip statuses an operator may set (every known status but UNKNOWN_TRIP_STATUS).
    static let tripStatuses: [TripStatus] = TripStatus.allKnown.filter { $0 != .unknownTripStatus }
    /// `trips get --view`: sdk, journey-sharing-v1s.
    static let tripViews: [TripView] = [.sdk, .journeySharingV1s]
    /// `vehicles search --order-by`.
    static let matchOrders: [SearchVehiclesRequest.VehicleMatchOrder] =
        SearchVehiclesRequest.VehicleMatchOrder.allKnown.filter { $0 != .unknownVehicleMatchOrder }
    /// `vehicles search --current-trips`: none, any.
    static let currentTripsPresent: [SearchVehiclesRequest.CurrentTripsPresent] = [.noTrips, .any]
    /// `delivery-vehicles --type`: auto, two-wheeler, bicycle, pedestrian.
    static let deliveryVehicleTypes: [DeliveryVehicle.DeliveryVehicleType] =
        DeliveryVehicle.DeliveryVehicleType.allKnown.filter { $0 != .deliveryVehicleTypeUnspecified }
    /// `tasks create --type`: pickup, delivery, scheduled-stop, unavailable.
    static let taskTypes: [DeliveryTask.TaskType] = DeliveryTask.TaskType.allKnown.filter { $0 != .typeUnspecified }
    /// `tasks close --outcome`: succeeded, failed.
    static let taskOutcomes: [DeliveryTask.TaskOutcome] = [.succeeded, .failed]
    /// The state at the end of `delivery-vehicles update --stop`: new, enroute, arrived.
    static let stopStates: [VehicleStop.State] = VehicleStop.State.allKnown.filter { $0 != .stateUnspecified }
}
