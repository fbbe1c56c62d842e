import FleetCLI
import FleetErrors
import FleetModel
import FleetOperator

/// `fleet-admin trips …`: create, get, list, search, update, delete, and the everyday verbs
/// assign, status, complete and cancel.
enum TripCommands {
    /// The `trips` group.
    static let command = Command(
        "trips", abstract: "Create, show, list, update and delete trips; assign them and move them along.",
        subcommands: [create, get, list, search, update, assign, status, complete, cancel, delete, TripReportCommand.command])

    /// The `<trip>` argument.
    static let tripArgument = Argument("trip", help: "The trip ID (with --provider) or its full name providers/P/trips/T.")

    // MARK: create

    /// `trips create`.
    static let create = AdminCommand.make(
        "create", abstract: "Create a trip (NEW), optionally assigned to a vehicle.",
        discussion: "Fields come from flags, or from a Trip JSON body (--json-body FILE, or -) that flags then override field by field. --type defaults to exclusive.",
        options: TripFlags.createOptions + JSONBodyFlag<Trip>.options,
        arguments: [tripArgument],
        examples: [
            Example("fleet-admin --provider demo trips create trip-1 --pickup 52.52,13.40 --dropoff 52.50,13.45",
                    "An exclusive trip, not yet assigned."),
            Example("fleet-admin --provider demo trips create trip-2 --pickup 52.52,13.40 --stop 52.51,13.42 --dropoff 52.50,13.45 --vehicle car-1 --passengers 2",
                    "A trip with one intermediate stop, assigned to car-1."),
        ]) { session in
        let name = try session.tripName(try session.arguments.require(tripArgument))
        let flags = try TripFlags(session.arguments)
        let body = try JSONBody<Trip>.read(session, path: "trip")
        var trip = flags.tripToCreate(body: body?.message)
        // Checked here so the message names the flag, not the API field it fills (trip.pickupPoint).
        guard trip.pickupPoint != nil else {
            throw session.arguments.usageError("--pickup is required: the pickup point as LAT,LNG (or pickupPoint in --json-body)")
        }
        if let vehicle = trip.vehicleId, vehicle.hasPrefix("providers/") {
            trip.vehicleId = try session.vehicleName(vehicle).vehicleID
        }
        let request = CreateTripRequest(parent: "providers/\(name.provider)", tripId: name.tripID, trip: trip)
        let created = try session.withAPI { try $0.createTrip(request) }
        session.printer.single(created, details: TripFormatting.details)
        return 0
    }

    // MARK: get

    /// `trips get`.
    static let get = AdminCommand.make(
        "get", abstract: "Show a trip.",
        options: ViewFlag.options,
        arguments: [tripArgument],
        examples: [
            Example("fleet-admin --provider demo trips get trip-1", "Status, vehicle, route progress and ETA."),
            Example("fleet-admin --provider demo trips get trip-1 --view journey-sharing --json", "What a rider's app is shown, as JSON."),
        ]) { session in
        let name = try session.tripName(try session.arguments.require(tripArgument))
        let view = try ViewFlag(session.arguments).view
        let trip = try session.withAPI { try $0.getTrip(GetTripRequest(name: name.description, view: view)) }
        session.printer.single(trip, details: TripFormatting.details)
        return 0
    }

    // MARK: list / search

    /// `trips get --view`.
    struct ViewFlag: OptionGroup {
        @Option("view", valueName: "view", help: "sdk, or journey-sharing (JOURNEY_SHARING_V1S: other riders' waypoints anonymous).",
                accepted: Vocabulary.tripViews)
        var view: TripView?

        init() {}
    }


    /// The options of `trips list` and `trips search`.
    struct ListFlags: OptionGroup {
        @Option("vehicle", valueName: "id", help: "Only the trips of this vehicle.")
        var vehicle: String?
        @Flag("active", help: "Only active trips (not COMPLETE or CANCELED).")
        var active: Bool
        @Option("page-size", valueName: "n", help: "Trips per request.", default: "100", check: .within(1...Int32.max))
        var pageSize: Int32
        @Option("limit", valueName: "n", help: "Stop after N trips.")
        var limit: Int?
        /// `trips search` only.
        @Option("stale-for", valueName: "duration", help: "Only trips not updated for at least this long (minimumStaleness).")
        var staleFor: Duration?

        init() {}
    }

    /// `trips status --index N`.
    struct StatusFlags: OptionGroup {
        @Option("index", valueName: "n", help: "The intermediate destination (intermediateDestinationIndex).", check: .within(0...Int32.max))
        var index: Int32?

        init() {}
    }

    /// `trips status <status>`.
    static let statusArgument = EnumArgument(
        "status", help: "The new status, like enroute-to-pickup or ENROUTE_TO_PICKUP.", accepted: Vocabulary.tripStatuses)

    /// `trips list`.
    static let list = AdminCommand.make(
        "list", abstract: "List trips (SearchTrips; every page, a progress bar on a terminal).",
        options: ListFlags.options(excluding: \.$staleFor),
        examples: [
            Example("fleet-admin --provider demo trips list --vehicle car-1 --active", "The trips car-1 is serving now."),
            Example("fleet-admin --provider demo trips list --json", "Every trip of the provider as a JSON array."),
        ]) { session in
        try listTrips(session)
    }

    /// `trips search`.
    static let search = AdminCommand.make(
        "search", abstract: "Search trips: list's filters plus --stale-for.",
        options: ListFlags.options,
        examples: [
            Example("fleet-admin --provider demo trips search --active --stale-for 30m", "Active trips nobody touched for half an hour."),
        ]) { session in
        try listTrips(session)
    }

    /// Lists trips (SearchTrips, every page) in the chosen format.
    static func listTrips(_ session: AdminSession) throws -> Int32 {
        let flags = try ListFlags(session.arguments)
        let vehicleID = try flags.vehicle.map { try session.vehicleName($0).vehicleID }
        let request = SearchTripsRequest(parent: try session.parent(), vehicleId: vehicleID,
                                         activeTripsOnly: flags.active ? true : nil,
                                         pageSize: flags.pageSize,
                                         minimumStaleness: flags.staleFor.map { ProtoDuration($0) })
        let limit = flags.limit
        let writer = session.printer.list(of: Trip.self, table: TripFormatting.table)
        try session.withAPI { api in
            try FleetPager(api: api, progress: session.progress("Listing trips")).trips(request, limit: limit) { writer.add($0) }
        }
        writer.finish()
        return 0
    }

    // MARK: update

    /// `trips update`.
    static let update = AdminCommand.make(
        "update", abstract: "Change a trip's fields.",
        discussion: "The update mask is made from the flags given. With --json-body, the body's top-level fields join the mask, or --mask names the fields to take from it; flags override the body. --vehicle '' unassigns the trip.",
        options: TripFlags.updateOptions + JSONBodyFlag<Trip>.options + MaskFlag.options,
        arguments: [tripArgument],
        examples: [
            Example("fleet-admin --provider demo trips update trip-1 --dropoff 52.49,13.46", "Move the dropoff."),
            Example("fleet-admin --provider demo trips update trip-1 --status enroute-to-pickup --vehicle car-1", "Assign and start in one update."),
        ]) { session in
        let name = try session.tripName(try session.arguments.require(tripArgument))
        var flags = try TripFlags(session.arguments)
        if let vehicle = flags.vehicle, vehicle.hasPrefix("providers/") { flags.vehicle = try session.vehicleName(vehicle).vehicleID }
        let body = try JSONBody<Trip>.read(session, path: "trip")
        let paths = MaskFlag.unique((try MaskFlag(session.arguments).paths ?? body?.fields ?? []) + flags.paths)
        guard !paths.isEmpty else {
            throw session.arguments.usageError("nothing to update: give a field flag (--status, --vehicle, --dropoff, …) or --json-body")
        }
        let request = UpdateTripRequest(name: name.description, trip: flags.applied(to: body?.message ?? Trip()), updateMask: FieldMask(paths))
        let trip = try session.withAPI { try $0.updateTrip(request) }
        session.printer.single(trip, details: TripFormatting.details)
        return 0
    }

    // MARK: assign

    /// `trips assign`.
    static let assign = AdminCommand.make(
        "assign", abstract: "Assign a trip to a vehicle.",
        arguments: [tripArgument, VehicleCommands.vehicleArgument],
        examples: [Example("fleet-admin --provider demo trips assign trip-1 car-1", "car-1 gets trip-1's waypoints.")]) { session in
        let name = try session.tripName(try session.arguments.require(tripArgument))
        let vehicle = try session.vehicleName(try session.arguments.require(VehicleCommands.vehicleArgument))
        guard vehicle.provider == name.provider else {
            throw session.arguments.usageError("the trip is of provider '\(name.provider)' and the vehicle of '\(vehicle.provider)'")
        }
        let request = UpdateTripRequest(name: name.description, trip: Trip(vehicleId: vehicle.vehicleID), updateMask: ["vehicleId"])
        let trip = try session.withAPI { try $0.updateTrip(request) }
        session.printer.single(trip, details: TripFormatting.details)
        return 0
    }

    // MARK: status / complete / cancel

    /// `trips status`.
    static let status = AdminCommand.make(
        "status", abstract: "Move a trip to a status.",
        discussion: "Statuses: \(FlagValue.spellings(Vocabulary.tripStatuses).joined(separator: ", ")) (any case, dashes or underscores). For the intermediate statuses without --index, the next destination after an arrival, the current one otherwise.",
        options: StatusFlags.options,
        arguments: [tripArgument, statusArgument.argument],
        examples: [
            Example("fleet-admin --provider demo trips status trip-1 enroute-to-pickup", "The driver is on the way."),
            Example("fleet-admin --provider demo trips status trip-2 arrived-at-intermediate-destination --index 0", "Arrived at the first stop."),
        ]) { session in
        let name = try session.tripName(try session.arguments.require(tripArgument))
        guard let status = try session.arguments.value(statusArgument) else {
            throw session.arguments.usageError("missing argument <status>")
        }
        let given = try StatusFlags(session.arguments).index
        let trip = try session.withAPI { api in
            var index = given
            if index == nil, status == .enrouteToIntermediateDestination || status == .arrivedAtIntermediateDestination {
                let current = try api.getTrip(GetTripRequest(name: name.description))
                index = TripStatusPath.impliedIndex(moving: current, to: status)
            }
            return try api.updateTrip(statusUpdate(name, TripStatusPath.Step(status, index: index)))
        }
        session.printer.single(trip, details: TripFormatting.details)
        return 0
    }

    /// `trips complete`.
    static let complete = finalStatusCommand("complete", .complete, "The dropoff is done (from ENROUTE_TO_DROPOFF).")
    /// `trips cancel`.
    static let cancel = finalStatusCommand("cancel", .canceled, "The trip will not happen; it leaves its vehicle.")

    /// `trips complete|cancel`: sets only `tripStatus`.
    static func finalStatusCommand(_ word: String, _ status: TripStatus, _ note: String) -> Command {
        AdminCommand.make(
            word, abstract: "Set a trip \(status.name).",
            arguments: [tripArgument],
            examples: [Example("fleet-admin --provider demo trips \(word) trip-1", note)]) { session in
            let name = try session.tripName(try session.arguments.require(tripArgument))
            let trip = try session.withAPI { try $0.updateTrip(statusUpdate(name, TripStatusPath.Step(status))) }
            session.printer.single(trip, details: TripFormatting.details)
            return 0
        }
    }

    /// The UpdateTrip request of one status step.
    static func statusUpdate(_ name: TripName, _ step: TripStatusPath.Step) -> UpdateTripRequest {
        TripStatusPath.request(moving: name, step)
    }

    // MARK: delete

    /// `trips delete`.
    static let delete = AdminCommand.make(
        "delete", abstract: "Delete a trip that is not active on a vehicle.",
        arguments: [tripArgument],
        examples: [Example("fleet-admin --provider demo trips delete trip-1", "Fails with FAILED_PRECONDITION (exit 19) while active and assigned.")]) { session in
        let name = try session.tripName(try session.arguments.require(tripArgument))
        try session.withAPI { try $0.deleteTrip(DeleteTripRequest(name: name.description)) }
        DeletionReport.print(name.description, session: session)
        return 0
    }
}
