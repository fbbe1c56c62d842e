import FleetErrors
import FleetInterface
import FleetModel

/// The vehicle a reporter keeps up to date, of either of Fleet Engine's kinds: a rides vehicle
/// (`providers/P/vehicles/V`: UpdateVehicle, with its trips' waypoints and an ONLINE/OFFLINE state)
/// or a delivery vehicle (`providers/P/deliveryVehicles/V`: UpdateDeliveryVehicle, with its stops and
/// no state).
public enum ReportedVehicle: Sendable, Hashable, CustomStringConvertible {
    /// A rides (on-demand trips) vehicle.
    case vehicle(VehicleName)
    /// A delivery (scheduled tasks) vehicle.
    case deliveryVehicle(DeliveryVehicleName)

    /// The resource name.
    public var description: String {
        switch self {
        case .vehicle(let name): name.description
        case .deliveryVehicle(let name): name.description
        }
    }

    /// The provider ID.
    public var provider: String {
        switch self {
        case .vehicle(let name): name.provider
        case .deliveryVehicle(let name): name.provider
        }
    }

    /// The vehicle ID.
    public var id: String {
        switch self {
        case .vehicle(let name): name.vehicleID
        case .deliveryVehicle(let name): name.deliveryVehicleID
        }
    }

    /// Whether the vehicle has an ONLINE/OFFLINE state, which the reporter sets ONLINE with its first
    /// update and OFFLINE when it stops: rides vehicles do, delivery vehicles have none.
    public var hasState: Bool {
        if case .vehicle = self { return true }
        return false
    }

    /// What the engine has the vehicle drive to, as one read gave it.
    struct Itinerary: Sendable {
        /// The waypoints or stops the navigator drives to, in order.
        var destinations: [Destination]
        /// A delivery vehicle's stops; nil for a rides vehicle.
        var stops: [VehicleJourneySegment]?
    }

    /// Reads the vehicle's itinerary: a rides vehicle's waypoints (GetVehicle), a delivery vehicle's
    /// stops (GetDeliveryVehicle).
    func readItinerary(from api: any FleetAPI) throws -> Itinerary {
        switch self {
        case .vehicle(let name):
            let vehicle = try api.getVehicle(GetVehicleRequest(name: name.description))
            return Itinerary(destinations: vehicle.waypoints.compactMap(Destination.init(waypoint:)), stops: nil)
        case .deliveryVehicle:
            let stops = try readStops(from: api)
            return Itinerary(destinations: stops.compactMap(Destination.init(stop:)), stops: stops)
        }
    }

    /// A delivery vehicle's stops as the engine has them now (empty for a rides vehicle).
    func readStops(from api: any FleetAPI) throws -> [VehicleJourneySegment] {
        guard case .deliveryVehicle(let name) = self else { return [] }
        return try api.getDeliveryVehicle(GetDeliveryVehicleRequest(name: name.description)).remainingVehicleJourneySegments
    }

    /// Writes a delivery vehicle's whole stop list (`remainingVehicleJourneySegments` alone in the
    /// mask) and returns the list the engine answers with.
    func writeStops(_ stops: [VehicleJourneySegment], to api: any FleetAPI) throws -> [VehicleJourneySegment] {
        guard case .deliveryVehicle(let name) = self else { return [] }
        let request = UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: name.description, remainingVehicleJourneySegments: stops),
            updateMask: FieldMask(fields: [DeliveryVehicle.FieldPath.remainingVehicleJourneySegments]))
        return try api.updateDeliveryVehicle(request).remainingVehicleJourneySegments
    }

    /// The update that takes the server from `acknowledged` to `desired`, or nil when nothing changes
    /// (`UpdatePlanner`). `forceState` sends the state even when unchanged.
    func update(desired: VehicleReport, acknowledged: VehicleReport, forceState: Bool = false) -> ReportUpdate? {
        let request: ReportUpdate.Request? = switch self {
        case .vehicle(let name):
            UpdatePlanner.request(for: name, desired: desired, acknowledged: acknowledged, forceState: forceState).map { .vehicle($0) }
        case .deliveryVehicle(let name):
            UpdatePlanner.request(for: name, desired: desired, acknowledged: acknowledged).map { .deliveryVehicle($0) }
        }
        return request.map { ReportUpdate(request: $0, desired: desired) }
    }
}

/// One update of the reported fields, ready to send.
struct ReportUpdate: Sendable {
    enum Request: Sendable {
        case vehicle(UpdateVehicleRequest)
        case deliveryVehicle(UpdateDeliveryVehicleRequest)
    }

    let request: Request
    /// What the reporter wants the server to hold once it is acknowledged.
    let desired: VehicleReport

    /// The fields sent.
    var mask: FieldMask {
        switch request {
        case .vehicle(let request): request.updateMask ?? FieldMask()
        case .deliveryVehicle(let request): request.updateMask ?? FieldMask()
        }
    }

    /// The attempt as the listener hears of it: the mask, and the state and location when sent.
    func attempt(isFinal: Bool, previousFailures: Int) -> UpdateAttempt {
        let paths = Set(mask.paths)
        return UpdateAttempt(mask: mask, state: paths.contains("vehicleState") ? desired.state : nil,
                             location: paths.contains("lastLocation") ? desired.location : nil,
                             isFinal: isFinal, previousFailures: previousFailures)
    }

    /// Sends the update.
    func send(to api: any FleetAPI) throws {
        switch request {
        case .vehicle(let request): _ = try api.updateVehicle(request)
        case .deliveryVehicle(let request): _ = try api.updateDeliveryVehicle(request)
        }
    }
}
