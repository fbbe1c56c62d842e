import FleetCLI
import FleetModel

/// Trips as table rows and key: value blocks. Pure.
enum TripFormatting {
    /// The columns of `trips list`.
    static let header = ["ID", "STATUS", "TYPE", "VEHICLE", "PICKUP", "DROPOFF", "ETA"]

    /// One trip as a row of `header`.
    static func row(_ trip: Trip) -> [String] {
        [
            CellText.id(fromName: trip.name),
            CellText.name(trip.tripStatus),
            CellText.name(trip.tripType),
            trip.vehicleId.flatMap { $0.isEmpty ? nil : $0 } ?? CellText.none,
            CellText.terminal(trip.pickupPoint),
            CellText.terminal(trip.dropoffPoint),
            CellText.time(trip.etaToFirstWaypoint),
        ]
    }

    /// Trips as a table.
    static func table(_ trips: [Trip]) -> TextTable {
        TextTable(header: header, rows: trips.map(row))
    }

    /// What `trips get` shows.
    static func details(_ trip: Trip) -> KeyValueBlock {
        var entries: [(label: String, value: String)] = [
            ("Name", trip.name ?? CellText.none),
            ("Status", CellText.name(trip.tripStatus)),
            ("Type", CellText.name(trip.tripType)),
            ("Vehicle", trip.vehicleId.flatMap { $0.isEmpty ? nil : $0 } ?? CellText.none),
            ("Pickup", CellText.terminal(trip.pickupPoint)),
        ]
        if !trip.intermediateDestinations.isEmpty {
            let stops = trip.intermediateDestinations.enumerated().map { index, stop in
                let marker = trip.intermediateDestinationIndex.map { Int($0) == index } ?? false ? " (current)" : ""
                return "\(index): \(CellText.terminal(stop))\(marker)"
            }
            entries.append(("Stops", stops.joined(separator: "\n")))
        }
        entries.append(("Dropoff", CellText.terminal(trip.dropoffPoint)))
        if let passengers = trip.numberOfPassengers { entries.append(("Passengers", String(passengers))) }
        if let time = trip.pickupTime { entries.append(("Pickup time", CellText.time(time))) }
        if let time = trip.dropoffTime { entries.append(("Dropoff time", CellText.time(time))) }
        if let location = trip.lastLocation?.location { entries.append(("Vehicle location", CellText.point(location))) }
        if let meters = trip.remainingDistanceMeters { entries.append(("Next waypoint", CellText.distance(meters))) }
        if let eta = trip.etaToFirstWaypoint { entries.append(("ETA", CellText.time(eta))) }
        if let remaining = trip.remainingTimeToFirstWaypoint {
            entries.append(("Time to waypoint", CellText.duration(seconds: remaining.timeInterval)))
        }
        if !trip.remainingWaypoints.isEmpty {
            entries.append(("Remaining", trip.remainingWaypoints.map(VehicleFormatting.waypointLine).joined(separator: "\n")))
        }
        if !trip.attributes.isEmpty { entries.append(("Attributes", CellText.attributes(trip.attributes))) }
        return KeyValueBlock(entries)
    }
}
