import FleetCLI
import FleetModel

/// Counts over a provider's fleet (`fleet-admin stats`): vehicles by state and category, trips by
/// status, and stale vehicles. Pure: vehicles, trips and the time in; counts out.
struct FleetStatistics: Sendable, Equatable {
    /// How many vehicles.
    var vehicles = 0
    /// Vehicles per state name.
    var vehiclesByState: [String: Int] = [:]
    /// Vehicles per category name.
    var vehiclesByCategory: [String: Int] = [:]
    /// IDs of ONLINE vehicles without a location received within `staleAfter`, in the order seen.
    var staleVehicles: [String] = []
    /// How many trips.
    var trips = 0
    /// Trips not COMPLETE or CANCELED.
    var activeTrips = 0
    /// Trips per status name.
    var tripsByStatus: [String: Int] = [:]
    /// The staleness limit, in seconds.
    var staleAfter: Double
    /// The time staleness was measured at, seconds since 1970.
    var now: Double

    /// Empty statistics at `now` with the staleness limit `staleAfter` seconds.
    init(now: Double, staleAfter: Double) {
        self.now = now
        self.staleAfter = staleAfter
    }

    /// Counts a vehicle. An ONLINE vehicle is stale when its last location (server time, else
    /// device time) is older than `staleAfter`, or it has none: SearchVehicles would skip it.
    /// OFFLINE vehicles are not expected to report and are never stale.
    mutating func add(_ vehicle: Vehicle) {
        vehicles += 1
        vehiclesByState[(vehicle.vehicleState ?? .unknownVehicleState).name, default: 0] += 1
        vehiclesByCategory[(vehicle.vehicleType?.category ?? .unknown).name, default: 0] += 1
        guard vehicle.vehicleState == .online else { return }
        let isFresh = vehicle.lastLocation?.location != nil
            && VehicleFormatting.locationTime(vehicle).map { now - $0.timeIntervalSince1970 <= staleAfter } == true
        if !isFresh { staleVehicles.append(CellText.id(fromName: vehicle.name)) }
    }

    /// Counts a trip.
    mutating func add(_ trip: Trip) {
        trips += 1
        let status = trip.tripStatus ?? .unknownTripStatus
        tripsByStatus[status.name, default: 0] += 1
        if status != .complete && status != .canceled { activeTrips += 1 }
    }

    /// The JSON format.
    var json: JSON {
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

    /// The table format: totals, then a small table per grouping.
    func lines(style: Style) -> [String] {
        func table(_ title: String, _ values: [String: Int], order: [String]) -> [String] {
            guard !values.isEmpty else { return [] }
            let rows = Self.ordered(values.keys, by: order).map { [$0, String(values[$0] ?? 0)] }
            return [""] + TextTable(header: [title, "COUNT"], rows: rows, rightAligned: [1]).lines(headerStyle: style.bold)
        }
        var lines = ["Vehicles: \(vehicles)"]
        lines += table("STATE", vehiclesByState, order: VehicleState.allKnown.map(\.name))
        lines += table("CATEGORY", vehiclesByCategory, order: VehicleType.Category.allKnown.map(\.name))
        lines += ["", "Stale (online, no location for over \(CellText.duration(seconds: staleAfter))): \(staleVehicles.count)"]
        if !staleVehicles.isEmpty { lines.append("  " + staleVehicles.joined(separator: ", ")) }
        lines += ["", "Trips: \(trips) (\(activeTrips) active)"]
        lines += table("STATUS", tripsByStatus, order: TripStatus.allKnown.map(\.name))
        return lines
    }

    /// `keys` in the order of `order`, unknown ones after, alphabetically.
    static func ordered(_ keys: some Sequence<String>, by order: [String]) -> [String] {
        let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        return keys.sorted { (rank[$0] ?? Int.max, $0) < (rank[$1] ?? Int.max, $1) }
    }
}
