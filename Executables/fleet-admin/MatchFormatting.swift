import FleetCLI
import FleetModel

/// `vehicles search` results as a table. Pure.
enum MatchFormatting {
    /// The columns.
    static let header = ["ID", "STATE", "TYPE", "CAPACITY", "TRIPS", "MATCH", "PICKUP ETA", "PICKUP DIST", "LOCATION"]
    /// CAPACITY and PICKUP DIST are numbers.
    static let rightAligned: Set<Int> = [3, 7]

    /// One match as a row of `header`.
    static func row(_ match: VehicleMatch) -> [String] {
        let vehicle = match.vehicle ?? Vehicle()
        return [
            CellText.id(fromName: vehicle.name),
            CellText.name(vehicle.vehicleState),
            CellText.name(vehicle.vehicleType?.category),
            vehicle.maximumCapacity.map(String.init) ?? CellText.none,
            CellText.list(vehicle.currentTrips),
            CellText.name(match.vehicleMatchType),
            CellText.time(match.vehiclePickupEta),
            CellText.distance(match.vehiclePickupDistanceMeters ?? match.vehiclePickupStraightLineDistanceMeters),
            CellText.point(vehicle.lastLocation?.location),
        ]
    }

    /// Matches as a table, in the engine's order.
    static func table(_ matches: [VehicleMatch]) -> TextTable {
        TextTable(header: header, rows: matches.map(row), rightAligned: rightAligned)
    }
}
