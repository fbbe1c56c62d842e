import FleetModel

/// Counts over a provider's fleet (`fleet-admin stats`): vehicles by state and category, trips by
/// status, and stale vehicles. Pure: vehicles, trips and the time in; counts out.
public struct FleetStatistics: Sendable, Equatable {
    /// How many vehicles.
    public var vehicles = 0
    /// Vehicles per state name.
    public var vehiclesByState: [String: Int] = [:]
    /// Vehicles per category name.
    public var vehiclesByCategory: [String: Int] = [:]
    /// IDs of ONLINE vehicles without a location received within `staleAfter`, in the order seen.
    public var staleVehicles: [String] = []
    /// How many trips.
    public var trips = 0
    /// Trips not COMPLETE or CANCELED.
    public var activeTrips = 0
    /// Trips per status name.
    public var tripsByStatus: [String: Int] = [:]
    /// The staleness limit, in seconds.
    public var staleAfter: Double
    /// The time staleness was measured at, seconds since 1970.
    public var now: Double

    /// Empty statistics at `now` with the staleness limit `staleAfter` seconds.
    public init(now: Double, staleAfter: Double) {
        self.now = now
        self.staleAfter = staleAfter
    }

    /// Counts a vehicle. An ONLINE vehicle is stale when its last location (server time, else
    /// device time) is older than `staleAfter`, or it has none: SearchVehicles would skip it.
    /// OFFLINE vehicles are not expected to report and are never stale.
    public mutating func add(_ vehicle: Vehicle) {
        vehicles += 1
        vehiclesByState[(vehicle.vehicleState ?? .unknownVehicleState).name, default: 0] += 1
        vehiclesByCategory[(vehicle.vehicleType?.category ?? .unknown).name, default: 0] += 1
        guard vehicle.vehicleState == .online else { return }
        let isFresh = vehicle.lastLocation?.location != nil
            && (vehicle.lastLocation?.serverTime ?? vehicle.lastLocation?.updateTime).map { now - $0.timeIntervalSince1970 <= staleAfter } == true
        if !isFresh { staleVehicles.append(ResourceID.of(vehicle.name)) }
    }

    /// Counts a trip.
    public mutating func add(_ trip: Trip) {
        trips += 1
        let status = trip.tripStatus ?? .unknownTripStatus
        tripsByStatus[status.name, default: 0] += 1
        if status != .complete && status != .canceled { activeTrips += 1 }
    }

    /// The JSON format.
    public var json: JSON {
        func counts(_ values: [String: Int], order: [String]) -> JSON {
            var object = JSONObject()
            for key in Self.ordered(values.keys, by: order) { object[key] = .number(Double(values[key] ?? 0)) }
            return .object(object)
        }
        var vehicleObject = JSONObject()
        vehicleObject["total"] = .number(Double(vehicles))
        vehicleObject["byState"] = counts(vehiclesByState, order: VehicleState.allKnown.map(\.name))
        vehicleObject["byCategory"] = counts(vehiclesByCategory, order: VehicleType.Category.allKnown.map(\.name))
        var stale = JSONObject()
        stale["after"] = .string(ProtoDuration(timeInterval: staleAfter).formatted)
        stale["count"] = .number(Double(staleVehicles.count))
        stale["vehicles"] = .array(staleVehicles.map(JSON.string))
        vehicleObject["stale"] = .object(stale)
        var tripObject = JSONObject()
        tripObject["total"] = .number(Double(trips))
        tripObject["active"] = .number(Double(activeTrips))
        tripObject["byStatus"] = counts(tripsByStatus, order: TripStatus.allKnown.map(\.name))
        return ["vehicles": .object(vehicleObject), "trips": .object(tripObject)]
    }

    /// `keys` in the order of `order`, unknown ones after, alphabetically.
    public static func ordered(_ keys: some Sequence<String>, by order: [String]) -> [String] {
        let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        return keys.sorted { (rank[$0] ?? Int.max, $0) < (rank[$1] ?? Int.max, $1) }
    }
}
