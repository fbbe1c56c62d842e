import FleetCLI
import FleetErrors
import FleetInterface
import FleetModel
import FleetOperator

extension HistoryFormat: OptionValue {}

/// `fleet-admin history VEHICLE` (or `--delivery-vehicle ID`): a vehicle's position history, in a
/// format for people's tools (GPX, GeoJSON) or for the ETA evaluator (CSV).
enum HistoryCommand {
    /// The options of `history`.
    struct Flags: OptionGroup {
        @Option("delivery-vehicle", valueName: "id",
                help: "Read a delivery vehicle's history instead of a rides vehicle's: its ID (with --provider) or providers/P/deliveryVehicles/D.")
        var deliveryVehicle: String?
        @Option("trip", valueName: "id", help: "Only the points that served this trip.")
        var trip: String?
        @Option("from", valueName: "time", help: "The first time (RFC 3339, or seconds since 1970); default: the oldest point kept.",
                transform: HistoryCommand.time)
        var from: Timestamp?
        @Option("to", valueName: "time", help: "The time the span ends before (RFC 3339, or seconds since 1970); default: now.",
                transform: HistoryCommand.time)
        var to: Timestamp?
        @Option("format", valueName: "format",
                help: "csv (trip_id,timestamp,latitude,longitude,…: what fleet-bench eta --traces reads), gpx, geojson or jsonl.", default: "csv")
        var format: HistoryFormat

        init() {}
    }

    /// The `<vehicle>` argument.
    static let vehicleArgument = Argument(
        "vehicle", help: "The rides vehicle: its ID (with --provider) or its full name providers/P/vehicles/V (none with --delivery-vehicle).",
        arity: .optional)

    /// The command.
    static let command = AdminCommand.make(
        "history", abstract: "Print a vehicle's or a delivery vehicle's position history: every accepted location update, in time order.",
        discussion: """
        The server keeps every location update it accepts for --history-retention (fleet-admin serve; 30 days by \
        default). The CSV holds the points that served a trip, one row per trip, under the header \
        trip_id,timestamp,latitude,longitude (then vehicle_id, speed in m/s, accuracy in m, heading, vehicle_state): \
        a trace file `fleet-bench eta --traces` reads as it is, so a fleet's own drives feed the ETA evaluator. \
        GPX, GeoJSON and JSON lines hold every point. Points are read a page at a time, so a long history is \
        written as it arrives. --delivery-vehicle reads a delivery vehicle's points instead (a rides vehicle \
        of the same ID has a history of its own); they served no trip, so its CSV holds none. Standard error \
        says how many points a CSV left out.
        """,
        options: Flags.options,
        arguments: [vehicleArgument],
        examples: [
            Example("fleet-admin --provider demo history bus-14 --from 2026-11-28T06:00:00Z --to 2026-11-28T10:00:00Z > morning.csv",
                    "A morning's drives of one bus, as a trace file."),
            Example("fleet-bench eta --traces morning.csv", "The engine's ETAs judged on them."),
            Example("fleet-admin --provider demo history car-1 --trip trip-7 --format gpx > trip-7.gpx", "One trip's path, for a GPS tool."),
            Example("fleet-admin --provider demo history --delivery-vehicle van-7 --format geojson > round.geojson",
                    "A delivery vehicle's round, for a map."),
        ]) { session in
        let flags = try Flags(session.arguments)
        let name = try subjectName(session, flags)
        var request = HistoryRequest(name: name, tripID: flags.trip, pageSize: 5_000)
        request.from = flags.from
        request.to = flags.to
        let format = flags.format
        let output = session.context.standardOutput
        try session.withAPI { api in
            var writer = HistoryWriter(format: format) { output.write($0) }
            let reader = try historyReader(api)
            writer.begin(title: name)
            try reader.forEachPosition(request) { writer.add($0) }
            writer.end()
            if format == .csv, writer.pointsWithoutTrip > 0 {
                // Said, so that a CSV with fewer rows than the vehicle's points, or none, is not a puzzle.
                session.context.standardError.write("""
                    \(writer.pointsWithoutTrip) of \(writer.points) points served no trip and are not in the CSV \
                    (a trace is a trip's drive); --format jsonl, gpx or geojson hold every point.

                    """)
            }
        }
        return 0
    }

    /// The name of the vehicle whose history is read: `<vehicle>`'s, or `--delivery-vehicle`'s; a
    /// usage error for both or neither, or for `--trip` with a delivery vehicle.
    private static func subjectName(_ session: AdminSession, _ flags: Flags) throws -> String {
        let arguments = session.arguments
        let vehicle = arguments.string(vehicleArgument)
        guard let deliveryVehicle = flags.deliveryVehicle else {
            guard let vehicle else { throw arguments.usageError("missing argument <vehicle> (or --delivery-vehicle ID for a delivery vehicle)") }
            return try session.vehicleName(vehicle).description
        }
        if vehicle != nil {
            throw arguments.usageError("give a rides vehicle as <vehicle> or a delivery vehicle with --delivery-vehicle, not both")
        }
        if flags.trip != nil {
            throw arguments.usageError("--trip goes with a rides vehicle: a delivery vehicle serves no trips")
        }
        return try session.deliveryVehicleName(deliveryVehicle).description
    }

    /// The history of the engine behind `api`: UNIMPLEMENTED for a transport without one.
    static func historyReader(_ api: any FleetAPI) throws -> any HistoryReading {
        guard let reader = api as? any HistoryReading else {
            throw FleetError(.methodNotImplemented, detail: "this transport reads no position history")
        }
        return reader
    }

    /// A time option: RFC 3339 or seconds since 1970; a usage error otherwise.
    @Sendable static func time(_ text: String) throws(ArgumentProblem) -> Timestamp {
        if let seconds = Double(text), seconds.isFinite {
            let whole = seconds.rounded(.down)
            return Timestamp(seconds: Int64(whole), nanos: Int32(((seconds - whole) * 1e9).rounded()))
        }
        guard let time = try? Timestamp(rfc3339: text) else {
            throw ArgumentProblem("is neither an RFC 3339 time (2026-11-28T08:00:00Z) nor seconds since 1970")
        }
        return time
    }
}
