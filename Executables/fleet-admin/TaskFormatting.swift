import FleetCLI
import FleetModel

/// Tasks and their tracking information as table rows and key: value blocks. Pure.
enum TaskFormatting {
    /// The columns of `tasks list` and `tasks batch-create`.
    static let header = ["ID", "TYPE", "STATE", "OUTCOME", "TRACKING ID", "VEHICLE", "LOCATION", "DURATION"]

    /// One task as a row of `header`.
    static func row(_ task: DeliveryTask) -> [String] {
        [
            CellText.id(fromName: task.name),
            CellText.name(task.type),
            CellText.name(task.state),
            CellText.name(task.taskOutcome),
            nonEmpty(task.trackingId),
            nonEmpty(task.deliveryVehicleId),
            CellText.point(task.plannedLocation?.point),
            CellText.duration(seconds: task.taskDuration?.timeInterval),
        ]
    }

    /// Tasks as a table.
    static func table(_ tasks: [DeliveryTask]) -> TextTable {
        TextTable(header: header, rows: tasks.map(row))
    }

    /// What `tasks get` (and `create`, `update`, `close`) shows.
    static func details(_ task: DeliveryTask) -> KeyValueBlock {
        var entries: [(label: String, value: String)] = [
            ("Name", task.name ?? CellText.none),
            ("Type", CellText.name(task.type)),
            ("State", CellText.name(task.state)),
            ("Tracking ID", nonEmpty(task.trackingId)),
            ("Vehicle", nonEmpty(task.deliveryVehicleId)),
            ("Location", CellText.point(task.plannedLocation?.point)),
            ("Duration", CellText.duration(seconds: task.taskDuration?.timeInterval)),
        ]
        if let window = task.targetTimeWindow { entries.append(("Window", windowText(window))) }
        if let outcome = task.taskOutcome { entries.append(("Outcome", outcome.name)) }
        if let time = task.taskOutcomeTime { entries.append(("Outcome time", CellText.time(time))) }
        if let location = task.taskOutcomeLocation?.point {
            let source = task.taskOutcomeLocationSource.map { " (\($0.name))" } ?? ""
            entries.append(("Outcome location", CellText.point(location) + source))
        }
        if let sharing = task.journeySharingInfo {
            // The segments run through the task's own stop.
            entries.append(("Stops before it", String(max(0, sharing.remainingVehicleJourneySegments.count - 1))))
            if let location = sharing.lastLocation?.location { entries.append(("Vehicle location", CellText.point(location))) }
        }
        if !task.attributes.isEmpty { entries.append(("Attributes", CellText.attributes(task.attributes))) }
        return KeyValueBlock(entries)
    }

    /// What `tasks tracking-info` shows: the customer's view of the tasks of a tracking ID.
    static func trackingDetails(_ info: TaskTrackingInfo) -> KeyValueBlock {
        var entries: [(label: String, value: String)] = [
            ("Name", info.name ?? CellText.none),
            ("Tracking ID", nonEmpty(info.trackingId)),
            ("State", CellText.name(info.state)),
        ]
        if let outcome = info.taskOutcome { entries.append(("Outcome", outcome.name)) }
        if let time = info.taskOutcomeTime { entries.append(("Outcome time", CellText.time(time))) }
        entries.append(("Location", CellText.point(info.plannedLocation?.point)))
        if let window = info.targetTimeWindow { entries.append(("Window", windowText(window))) }
        if let location = info.vehicleLocation?.location { entries.append(("Vehicle location", CellText.point(location))) }
        // remainingStopCount counts the task's own stop.
        if let stops = info.remainingStopCount { entries.append(("Stops before it", String(max(0, stops - 1)))) }
        if let meters = info.remainingDrivingDistanceMeters { entries.append(("Distance", CellText.distance(meters))) }
        if let eta = info.estimatedArrivalTime { entries.append(("ETA", CellText.time(eta))) }
        if let done = info.estimatedTaskCompletionTime { entries.append(("Completion", CellText.time(done))) }
        if !info.routePolylinePoints.isEmpty { entries.append(("Route", "\(info.routePolylinePoints.count) points")) }
        if !info.attributes.isEmpty { entries.append(("Attributes", CellText.attributes(info.attributes))) }
        return KeyValueBlock(entries)
    }

    /// `2026-03-01T09:00:00Z – 2026-03-01T12:00:00Z`.
    static func windowText(_ window: TimeWindow) -> String {
        CellText.time(window.startTime) + " – " + CellText.time(window.endTime)
    }

    /// The text, or `-` when it is missing or empty.
    private static func nonEmpty(_ text: String?) -> String {
        text.flatMap { $0.isEmpty ? nil : $0 } ?? CellText.none
    }
}
