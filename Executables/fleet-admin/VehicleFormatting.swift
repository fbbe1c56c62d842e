import FleetCLI
import FleetModel

/// Vehicles as table rows and key: value blocks. Pure.
enum VehicleFormatting {
    /// The columns of `vehicles list`.
    static let header = ["ID", "STATE", "TYPE", "CAPACITY", "TRIPS", "LOCATION", "UPDATED"]
    /// CAPACITY is a number.
    static let rightAligned: Set<Int> = [3]

    /// One vehicle as a row of `header`.
    static func row(_ vehicle: Vehicle) -> [String] {
        [
            CellText.id(fromName: vehicle.name),
            CellText.name(vehicle.vehicleState),
            CellText.name(vehicle.vehicleType?.category),
            vehicle.maximumCapacity.map(String.init) ?? CellText.none,
            CellText.list(vehicle.currentTrips),
            CellText.point(vehicle.lastLocation?.location),
            CellText.time(locationTime(vehicle)),
        ]
    }

    /// Vehicles as a table.
    static func table(_ vehicles: [Vehicle]) -> TextTable {
        TextTable(header: header, rows: vehicles.map(row), rightAligned: rightAligned)
    }

    /// When the vehicle's location was last received (server time, else the device's time).
    static func locationTime(_ vehicle: Vehicle) -> Timestamp? {
        vehicle.lastLocation?.serverTime ?? vehicle.lastLocation?.updateTime
    }

    /// What `vehicles get` shows.
    static func details(_ vehicle: Vehicle) -> KeyValueBlock {
        var entries: [(label: String, value: String)] = [
            ("Name", vehicle.name ?? CellText.none),
            ("State", CellText.name(vehicle.vehicleState)),
            ("Type", CellText.name(vehicle.vehicleType?.category)),
            ("Trip types", CellText.list(vehicle.supportedTripTypes.map(\.name))),
            ("Capacity", vehicle.maximumCapacity.map(String.init) ?? CellText.none),
            ("Back to back", vehicle.backToBackEnabled == true ? "enabled" : "disabled"),
            ("Current trips", CellText.list(vehicle.currentTrips)),
            ("Location", CellText.point(vehicle.lastLocation?.location)),
        ]
        if let location = vehicle.lastLocation {
            entries.append(("Location time", CellText.time(locationTime(vehicle))))
            if let heading = location.heading { entries.append(("Heading", "\(heading)°")) }
            if let speed = location.speed { entries.append(("Speed", "\(Int((speed * 3.6).rounded())) km/h")) }
        }
        if !vehicle.attributes.isEmpty { entries.append(("Attributes", CellText.attributes(vehicle.attributes))) }
        if let plate = vehicle.licensePlate {
            entries.append(("License plate", "\(plate.countryCode ?? "?") …\(plate.lastCharacter ?? "")"))
        }
        if let status = vehicle.navigationStatus { entries.append(("Navigation", status.name)) }
        if !vehicle.waypoints.isEmpty {
            entries.append(("Waypoints", vehicle.waypoints.map(waypointLine).joined(separator: "\n")))
        }
        if !vehicle.estimatedLegs.isEmpty {
            // Legs of the server's plan that no road covers: straight lines, with the router's reason.
            entries.append(("Estimated legs", CellText.estimatedLegs(vehicle.estimatedLegs) { index in
                guard vehicle.waypoints.indices.contains(index) else { return "waypoint \(index + 1)" }
                let waypoint = vehicle.waypoints[index]
                return "waypoint \(index + 1) (\(shortType(waypoint.waypointType)) \(waypoint.tripId ?? CellText.none))"
            }))
        }
        if let meters = vehicle.remainingDistanceMeters { entries.append(("Next waypoint", CellText.distance(meters))) }
        if let eta = vehicle.etaToFirstWaypoint { entries.append(("ETA", CellText.time(eta))) }
        return KeyValueBlock(entries)
    }

    /// `PICKUP t-1 52.52000,13.40000 ETA 2026-01-01T00:05:00Z`.
    static func waypointLine(_ waypoint: TripWaypoint) -> String {
        var parts = [shortType(waypoint.waypointType), waypoint.tripId ?? CellText.none, CellText.terminal(waypoint.location)]
        if let eta = waypoint.eta { parts.append("ETA " + CellText.time(eta)) }
        if let meters = waypoint.distanceMeters { parts.append(CellText.distance(meters)) }
        return parts.joined(separator: " ")
    }

    /// `PICKUP`, `DROPOFF`, `STOP` for the waypoint types.
    static func shortType(_ type: WaypointType?) -> String {
        switch type {
        case .pickupWaypointType?: "PICKUP"
        case .dropOffWaypointType?: "DROPOFF"
        case .intermediateDestinationWaypointType?: "STOP"
        default: "WAYPOINT"
        }
    }
}
