import FleetCLI
import FleetModel
import FleetOperator

extension FleetStatistics {
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
}
