import FleetCLI
import FleetModel

/// Delivery vehicles as table rows and key: value blocks. Pure.
enum DeliveryVehicleFormatting {
    /// The columns of `delivery-vehicles list` (Fleet Engine leaves the stops out of listed vehicles).
    static let header = ["ID", "TYPE", "NAVIGATION", "LOCATION", "UPDATED", "ATTRIBUTES"]

    /// One delivery vehicle as a row of `header`.
    static func row(_ vehicle: DeliveryVehicle) -> [String] {
        [
            CellText.id(fromName: vehicle.name),
            CellText.name(vehicle.type),
            CellText.name(vehicle.navigationStatus),
            CellText.point(vehicle.lastLocation?.location),
            CellText.time(locationTime(vehicle)),
            CellText.attributes(vehicle.attributes),
        ]
    }

    /// Delivery vehicles as a table.
    static func table(_ vehicles: [DeliveryVehicle]) -> TextTable {
        TextTable(header: header, rows: vehicles.map(row))
    }

    /// When the vehicle's location was last received (server time, else the device's time).
    static func locationTime(_ vehicle: DeliveryVehicle) -> Timestamp? {
        vehicle.lastLocation?.serverTime ?? vehicle.lastLocation?.updateTime
    }

    /// What `delivery-vehicles get` shows.
    static func details(_ vehicle: DeliveryVehicle) -> KeyValueBlock {
        var entries: [(label: String, value: String)] = [
            ("Name", vehicle.name ?? CellText.none),
            ("Type", CellText.name(vehicle.type)),
            ("Location", CellText.point(vehicle.lastLocation?.location)),
        ]
        if let location = vehicle.lastLocation {
            entries.append(("Location time", CellText.time(locationTime(vehicle))))
            if let heading = location.heading { entries.append(("Heading", "\(heading)°")) }
            if let speed = location.speed { entries.append(("Speed", "\(Int((speed * 3.6).rounded())) km/h")) }
        }
        if let status = vehicle.navigationStatus { entries.append(("Navigation", status.name)) }
        entries.append(("Stops", vehicle.remainingVehicleJourneySegments.isEmpty
            ? CellText.none
            : vehicle.remainingVehicleJourneySegments.enumerated().map { stopLine($1, number: $0 + 1) }.joined(separator: "\n")))
        if !vehicle.estimatedLegs.isEmpty {
            // Legs to stops that no road covers: straight lines, with the router's reason (stops numbered as above).
            entries.append(("Estimated legs", CellText.estimatedLegs(vehicle.estimatedLegs) { "stop \($0 + 1)" }))
        }
        if let meters = vehicle.remainingDistanceMeters { entries.append(("Next stop", CellText.distance(meters))) }
        if let remaining = vehicle.remainingDuration {
            entries.append(("Time to stop", CellText.duration(seconds: remaining.timeInterval)))
        }
        if !vehicle.attributes.isEmpty { entries.append(("Attributes", CellText.attributes(vehicle.attributes))) }
        return KeyValueBlock(entries)
    }

    /// `1. ENROUTE 52.52000,13.40000 t-1,t-2 (1.2 km, 4m05s)`: a stop in driving order, with its
    /// tasks and the drive to it when the engine gives it.
    static func stopLine(_ segment: VehicleJourneySegment, number: Int) -> String {
        let stop = segment.stop
        var line = "\(number). \(CellText.name(stop?.state)) \(CellText.point(stop?.plannedLocation?.point)) "
            + CellText.list((stop?.tasks ?? []).compactMap(\.taskId))
        var drive: [String] = []
        if let meters = segment.drivingDistanceMeters { drive.append(CellText.distance(meters)) }
        if let duration = segment.drivingDuration { drive.append(CellText.duration(seconds: duration.timeInterval)) }
        if !drive.isEmpty { line += " (" + drive.joined(separator: ", ") + ")" }
        return line
    }
}
