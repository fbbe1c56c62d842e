import FleetCLI
import FleetErrors
import FleetModel
import FleetOperator

/// `fleet-admin vehicles …`: create, get, list, update, search, delete, online, offline.
enum VehicleCommands {
    /// The `vehicles` group.
    static let command = Command(
        "vehicles", abstract: "Create, show, list, update, search and delete vehicles.",
        subcommands: [create, get, list, update, search, delete, online, offline])

    /// The `<vehicle>` argument.
    static let vehicleArgument = Argument("vehicle", help: "The vehicle ID (with --provider) or its full name providers/P/vehicles/V.")

    // MARK: create

    /// `vehicles create`.
    static let create = AdminCommand.make(
        "create", abstract: "Create a vehicle.",
        discussion: "Fields come from flags, or from a Vehicle JSON body (--json-body FILE, or - for standard input) that flags then override field by field. What neither gives defaults to --state offline, --type exclusive and --category auto; --capacity has no default.",
        options: VehicleFlags.options + JSONBodyFlag<Vehicle>.options,
        arguments: [vehicleArgument],
        examples: [
            Example("fleet-admin --provider demo vehicles create car-1 --capacity 4 --type exclusive,shared --state online --location 52.52,13.40",
                    "An online car taking exclusive and shared trips, at Berlin's centre."),
            Example("fleet-admin --provider demo vehicles create car-2 --json-body car.json --state offline",
                    "A vehicle from a JSON file, created offline whatever the file says."),
        ]) { session in
        let name = try session.vehicleName(try session.arguments.require(vehicleArgument))
        let flags = try VehicleFlags(session.arguments)
        let body = try JSONBody<Vehicle>.read(session, path: "vehicle")
        let request = CreateVehicleRequest(parent: "providers/\(name.provider)", vehicleId: name.vehicleID,
                                           vehicle: flags.vehicleToCreate(body: body?.message))
        let vehicle = try session.withAPI { try $0.createVehicle(request) }
        session.printer.single(vehicle, details: VehicleFormatting.details)
        return 0
    }

    // MARK: get

    /// `vehicles get`.
    static let get = AdminCommand.make(
        "get", abstract: "Show a vehicle.",
        arguments: [vehicleArgument],
        examples: [
            Example("fleet-admin --provider demo vehicles get car-1", "Its state, location, trips and waypoints."),
            Example("fleet-admin vehicles get providers/demo/vehicles/car-1 --json", "Fleet Engine's JSON of the vehicle."),
        ]) { session in
        let name = try session.vehicleName(try session.arguments.require(vehicleArgument))
        let vehicle = try session.withAPI { try $0.getVehicle(GetVehicleRequest(name: name.description)) }
        session.printer.single(vehicle, details: VehicleFormatting.details)
        return 0
    }

    // MARK: list

    /// `vehicles list`.
    static let list = AdminCommand.make(
        "list", abstract: "List vehicles (every page; a progress bar on a terminal).",
        discussion: "Follows nextPageToken to the end (or to --limit), printing JSON lines and JSON array elements as pages arrive.",
        options: ListOptions.options,
        examples: [
            Example("fleet-admin --provider demo vehicles list --state online", "Every online vehicle."),
            Example("fleet-admin --provider demo vehicles list --jsonl | jq -r .name", "One JSON object per vehicle, for a pipe."),
        ]) { session in
        let options = try ListOptions(session.arguments)
        let request = ListVehiclesRequest(
            parent: try session.parent(), pageSize: options.pageSize,
            minimumCapacity: options.minCapacity,
            tripTypes: options.tripTypes ?? [],
            vehicleTypeCategories: options.categories,
            vehicleState: options.state,
            onTripOnly: options.onTrip ? true : nil,
            filter: options.filter)
        let limit = options.limit
        let writer = session.printer.list(of: Vehicle.self, table: VehicleFormatting.table)
        try session.withAPI { api in
            try FleetPager(api: api, progress: session.progress("Listing vehicles")).vehicles(request, limit: limit) { writer.add($0) }
        }
        writer.finish()
        return 0
    }

    // MARK: update

    /// `vehicles update`.
    static let update = AdminCommand.make(
        "update", abstract: "Change a vehicle's fields.",
        discussion: "The update mask is made from the flags given (--attributes replaces every attribute). With --json-body, the body's top-level fields join the mask, or --mask names the fields to take from it; flags override the body.",
        options: VehicleFlags.options + JSONBodyFlag<Vehicle>.options + MaskFlag.options,
        arguments: [vehicleArgument],
        examples: [
            Example("fleet-admin --provider demo vehicles update car-1 --location 52.53,13.41", "Report a new location."),
            Example("fleet-admin --provider demo vehicles update car-1 --capacity 6 --attributes wheelchair=yes", "Change seats and replace the attributes."),
            Example("echo '{\"vehicleState\":\"ONLINE\"}' | fleet-admin --provider demo vehicles update car-1 --json-body -", "Update from JSON."),
        ]) { session in
        let name = try session.vehicleName(try session.arguments.require(vehicleArgument))
        let flags = try VehicleFlags(session.arguments)
        let body = try JSONBody<Vehicle>.read(session, path: "vehicle")
        let paths = MaskFlag.unique((try MaskFlag(session.arguments).paths ?? body?.fields ?? []) + flags.paths)
        guard !paths.isEmpty else {
            throw session.arguments.usageError("nothing to update: give a field flag (--state, --capacity, --location, …) or --json-body")
        }
        let request = UpdateVehicleRequest(name: name.description, vehicle: flags.applied(to: body?.message ?? Vehicle()),
                                           updateMask: FieldMask(paths))
        let vehicle = try session.withAPI { try $0.updateVehicle(request) }
        session.printer.single(vehicle, details: VehicleFormatting.details)
        return 0
    }

    // MARK: online / offline

    /// `vehicles online`.
    static let online = stateCommand("online", .online)
    /// `vehicles offline`.
    static let offline = stateCommand("offline", .offline)

    /// `vehicles online|offline`: sets only `vehicleState`.
    static func stateCommand(_ word: String, _ state: VehicleState) -> Command {
        AdminCommand.make(
            word, abstract: "Set a vehicle \(state.name).",
            arguments: [vehicleArgument],
            examples: [Example("fleet-admin --provider demo vehicles \(word) car-1", "The same as vehicles update car-1 --state \(word).")]) { session in
            let name = try session.vehicleName(try session.arguments.require(vehicleArgument))
            let request = UpdateVehicleRequest(name: name.description, vehicle: Vehicle(vehicleState: state), updateMask: ["vehicleState"])
            let vehicle = try session.withAPI { try $0.updateVehicle(request) }
            session.printer.single(vehicle, details: VehicleFormatting.details)
            return 0
        }
    }

    // MARK: search

    /// `vehicles search`.
    static let search = AdminCommand.make(
        "search", abstract: "Find vehicles that can serve a pickup (SearchVehicles).",
        discussion: "Vehicles whose location is older than --staleness (default 5m) are left out, as Fleet Engine does.",
        options: SearchOptions.options,
        examples: [
            Example("fleet-admin --provider demo vehicles search --pickup 52.52,13.40", "The nearest vehicles for an exclusive trip."),
            Example("fleet-admin --provider demo vehicles search --pickup 52.52,13.40 --dropoff 52.50,13.45 --type shared --capacity 2",
                    "Vehicles with two free seats for a shared trip."),
        ]) { session in
        let options = try SearchOptions(session.arguments)
        let request = SearchVehiclesRequest(
            parent: try session.parent(),
            pickupPoint: TerminalLocation(point: options.pickup),
            dropoffPoint: options.dropoff.map { TerminalLocation(point: $0) },
            pickupRadiusMeters: options.radius,
            count: options.count,
            minimumCapacity: options.capacity,
            tripTypes: [options.type],
            maximumStaleness: options.staleness.map { ProtoDuration($0) },
            vehicleTypes: options.categories.map { VehicleType(category: $0) },
            orderBy: options.orderBy,
            includeBackToBack: options.backToBack ? true : nil,
            tripId: options.trip,
            currentTripsPresent: options.currentTrips,
            filter: options.filter)
        let response = try session.withAPI { try $0.searchVehicles(request) }
        let writer = session.printer.list(of: VehicleMatch.self, table: MatchFormatting.table)
        writer.add(response.matches)
        writer.finish()
        return 0
    }

    // MARK: delete

    /// `vehicles delete`.
    static let delete = AdminCommand.make(
        "delete", abstract: "Delete a vehicle that has no active trips.",
        arguments: [vehicleArgument],
        examples: [Example("fleet-admin --provider demo vehicles delete car-1", "Fails with FAILED_PRECONDITION (exit 19) while it has active trips.")]) { session in
        let name = try session.vehicleName(try session.arguments.require(vehicleArgument))
        try session.withAPI { try $0.deleteVehicle(DeleteVehicleRequest(name: name.description)) }
        DeletionReport.print(name.description, session: session)
        return 0
    }

    // MARK: Shared options

    /// The options of `vehicles list`.
    struct ListOptions: OptionGroup {
        @Option("category", valueName: "categories", help: "Only these categories (comma-separated; default: all).",
                acceptedLists: Vocabulary.categories)
        private var categoryLists: [[VehicleType.Category]]
        @Option("state", valueName: "state", help: "Only vehicles in this state: online or offline.", accepted: Vocabulary.vehicleStates)
        var state: VehicleState?
        @Option("type", valueName: "types", help: "Only vehicles taking one of these trip types.", acceptedList: Vocabulary.tripTypes)
        var tripTypes: [TripType]?
        @Option("min-capacity", valueName: "n", help: "Only vehicles seating at least N.")
        var minCapacity: Int32?
        @Option("filter", valueName: "expr", help: "An AIP-160 filter over attributes, like 'attributes.wheelchair=\"yes\"'.")
        var filter: String?
        @Flag("on-trip", help: "Only vehicles with current trips.")
        var onTrip: Bool
        @Option("page-size", valueName: "n", help: "Vehicles per request.", default: "100", check: .within(1...Int32.max))
        var pageSize: Int32
        @Option("limit", valueName: "n", help: "Stop after N vehicles.")
        var limit: Int?

        init() {}

        /// The categories asked for; every category when none is.
        var categories: [VehicleType.Category] { Vocabulary.categories(given: categoryLists) }
    }

    /// The options of `vehicles search`.
    struct SearchOptions: OptionGroup {
        @Option("pickup", valueName: "lat,lng", help: "The pickup point.", transform: FlagValue.latLng)
        var pickup: LatLng
        @Option("dropoff", valueName: "lat,lng", help: "The dropoff point (needed for shared trips and --order-by dropoff-point-eta).",
                transform: FlagValue.latLng)
        var dropoff: LatLng?
        @Option("radius", valueName: "meters", help: "How far from the pickup to look (400–10000).", default: "2000")
        var radius: Int32
        @Option("count", valueName: "n", help: "At most this many matches (1–50).", default: "10")
        var count: Int32
        @Option("capacity", valueName: "n", help: "Seats needed.", default: "1")
        var capacity: Int32
        @Option("type", valueName: "type", help: "The trip type: exclusive or shared.", accepted: Vocabulary.tripTypes, default: "exclusive")
        var type: TripType
        @Option("category", valueName: "categories", help: "Vehicle categories (comma-separated; default: all).",
                acceptedLists: Vocabulary.categories)
        private var categoryLists: [[VehicleType.Category]]
        @Option("order-by", valueName: "order", help: "How matches are ordered.", accepted: Vocabulary.matchOrders,
                default: "pickup-point-eta")
        var orderBy: SearchVehiclesRequest.VehicleMatchOrder
        @Flag("back-to-back", help: "Include vehicles finishing another trip (includeBackToBack).")
        var backToBack: Bool
        @Option("current-trips", valueName: "none|any", help: "Whether vehicles with current trips are included.",
                accepted: Vocabulary.currentTripsPresent)
        var currentTrips: SearchVehiclesRequest.CurrentTripsPresent?
        @Option("trip", valueName: "id", help: "The trip the search is for (tripId).")
        var trip: String?
        @Option("staleness", valueName: "duration", help: "Leave out vehicles whose location is older (maximumStaleness).")
        var staleness: Duration?
        @Option("filter", valueName: "expr", help: "An AIP-160 filter over attributes.")
        var filter: String?

        init() {}

        /// The categories asked for; every category when none is.
        var categories: [VehicleType.Category] { Vocabulary.categories(given: categoryLists) }
    }
}

/// What a delete prints: the name for people, `{}` (Fleet Engine's answer) as JSON.
enum DeletionReport {
    /// `vehicles print`.
    static func print(_ name: String, session: AdminSession) {
        session.printer.value(.object(JSONObject())) { ["Deleted \(name)"] }
    }
}
