import FleetCLI
import FleetErrors
import FleetInterface
import FleetModel
import FleetOperator

extension HistoryFormat: OptionValue {}

/// `fleet-admin history VEHICLE` (or `--delivery-vehicle ID`): a vehicle's position history, in a
/// format for people's tools (GPX, GeoJSON) or for the ETA evaluator (CSV).
enum HistoryCommand {
    /// `--trip ID`.
    static let tripOption = Option.value("trip", valueName: "id", help: "Only the points that served this trip.")
    /// `--from TIME`.
    static let fromOption = Option.value("from", valueName: "time", help: "The first time (RFC 3339, or seconds since 1970); default: the oldest point kept.")
    /// `--to TIME`.
    static let toOption = Option.value("to", valueName: "time", help: "The time the span ends before (RFC 3339, or seconds since 1970); default: now.")
    /// `--format csv|gpx|geojson|jsonl`.
    static let formatOption = Option.choice("format", of: HistoryFormat.self, valueName: "format",
        help: "csv (trip_id,timestamp,latitude,longitude,…: what fleet-bench eta --traces reads), gpx, geojson or jsonl.", default: .csv)
    /// `--delivery-vehicle ID`.
    static let deliveryVehicleOption = Option.value(
        "delivery-vehicle", valueName: "id",
        help: "Read a delivery vehicle's history instead of a rides vehicle's: its ID (with --provider) or providers/P/deliveryVehicles/D.")
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
        of the same ID has a history of its own); they served no trip, so its CSV holds none.
        """,
        options: [deliveryVehicleOption, tripOption, fromOption, toOption, formatOption],
        arguments: [vehicleArgument],
        examples: [
            Example("fleet-admin --provider demo history bus-14 --from 2026-11-28T06:00:00Z --to 2026-11-28T10:00:00Z > morning.csv",
                    "A morning's drives of one bus, as a trace file."),
            Example("fleet-bench eta --traces morning.csv", "The engine's ETAs judged on them."),
            Example("fleet-admin --provider demo history car-1 --trip trip-7 --format gpx > trip-7.gpx", "One trip's path, for a GPS tool."),
            Example("fleet-admin --provider demo history --delivery-vehicle van-7 --format geojson > round.geojson",
                    "A delivery vehicle's round, for a map."),
        ]) { session in
        let name = try subjectName(session)
        var request = HistoryRequest(name: name, tripID: session.arguments.string(tripOption), pageSize: 5_000)
        request.from = try time(session, fromOption)
        request.to = try time(session, toOption)
        let format = session.arguments.value(formatOption, as: HistoryFormat.self) ?? .csv
        let output = session.context.standardOutput
        try session.withAPI { api in
            var writer = HistoryWriter(format: format) { output.write($0) }
            let reader = try historyReader(api)
            writer.begin(title: name)
            try reader.forEachPosition(request) { writer.add($0) }
            writer.end()
        }
        return 0
    }

    /// The name of the vehicle whose history is read: `<vehicle>`'s, or `--delivery-vehicle`'s; a
    /// usage error for both or neither, or for `--trip` with a delivery vehicle.
    private static func subjectName(_ session: AdminSession) throws -> String {
        let arguments = session.arguments
        let vehicle = arguments.string(vehicleArgument)
        guard let deliveryVehicle = arguments.string(deliveryVehicleOption) else {
            guard let vehicle else { throw arguments.usageError("missing argument <vehicle> (or --delivery-vehicle ID for a delivery vehicle)") }
            return try session.vehicleName(vehicle).description
        }
        if vehicle != nil {
            throw arguments.usageError("give a rides vehicle as <vehicle> or a delivery vehicle with --delivery-vehicle, not both")
        }
        if arguments.string(tripOption) != nil {
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
    private static func time(_ session: AdminSession, _ option: Option) throws -> Timestamp? {
        guard let text = session.arguments.string(option) else { return nil }
        if let seconds = Double(text), seconds.isFinite {
            let whole = seconds.rounded(.down)
            return Timestamp(seconds: Int64(whole), nanos: Int32(((seconds - whole) * 1e9).rounded()))
        }
        guard let time = try? Timestamp(rfc3339: text) else {
            throw session.arguments.usageError("--\(option.name): '\(text)' is neither an RFC 3339 time (2026-11-28T08:00:00Z) nor seconds since 1970")
        }
        return time
    }
}
