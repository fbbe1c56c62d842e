import FleetCLI
import FleetOperator

/// `fleet-admin trips report TRIP`: what a finished trip's driven path adds up to.
enum TripReportCommand {
    /// The command.
    static let command = AdminCommand.make(
        "report", abstract: "Sum up a finished trip from the position history: distance, duration, time standing, average and top speed.",
        discussion: """
        From the points the vehicle reported while serving the trip (fleet-admin history --trip): distance is the \
        great-circle metres between consecutive points added up, duration from the first point to the last, time \
        standing the time between points that moved slower than 0.5 m/s on average, top speed the highest speed the \
        vehicle reported (or, without any, the highest between two points). A trip still under way is refused \
        (TRIP_NOT_FINISHED).
        """,
        arguments: [TripCommands.tripArgument],
        examples: [
            Example("fleet-admin --provider demo trips report trip-1", "The trip's figures."),
            Example("fleet-admin --provider demo trips report trip-1 --json", "The same as JSON."),
        ]) { session in
        let name = try session.tripName(try session.arguments.require(TripCommands.tripArgument))
        let report = try session.withAPI { api in
            try TripReport.make(trip: name, api: api, history: try HistoryCommand.historyReader(api))
        }
        session.printer.value(report.json) {
            func minutes(_ seconds: Double) -> String {
                let whole = Int(seconds.rounded())
                return "\(whole / 60) min \(whole % 60) s"
            }
            let kmh: (Double) -> String = { String(Int(($0 * 3.6).rounded())) + " km/h" }
            return [
                "trip:      \(report.tripID) (\(report.points) points)",
                "from:      \(report.start?.rfc3339String ?? "-")",
                "to:        \(report.end?.rfc3339String ?? "-")",
                "distance:  \(Double(Int(report.distanceMeters / 10)) / 100) km",
                "duration:  \(minutes(report.durationSeconds))",
                "standing:  \(minutes(report.standingSeconds))",
                "average:   \(kmh(report.averageMetersPerSecond))",
                "top:       \(kmh(report.topMetersPerSecond))",
            ]
        }
        return 0
    }
}
