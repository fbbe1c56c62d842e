import FleetCLI
import FleetErrors
import FleetModel
import FleetOperator

/// `fleet-admin delivery-vehicles …` (Deliveries): create, get, list, update, delete.
enum DeliveryVehicleCommands {
    /// The `delivery-vehicles` group.
    static let command = Command(
        "delivery-vehicles", abstract: "Create, show, list, update and delete delivery vehicles; give them their stops.",
        discussion: "Deliveries (Fleet Engine's DeliveryService): a delivery vehicle drives through its remaining stops (remainingVehicleJourneySegments), each a place with the tasks done there. Assigning a task is putting it on a stop; removing a stop closes its tasks. Tasks themselves: fleet-admin tasks.",
        subcommands: [create, get, list, update, delete])

    /// The `<delivery-vehicle>` argument.
    static let vehicleArgument = Argument(
        "delivery-vehicle", help: "The delivery vehicle ID (with --provider) or its full name providers/P/deliveryVehicles/V.")


    // MARK: create

    /// `delivery-vehicles create`.
    static let create = AdminCommand.make(
        "create", abstract: "Create a delivery vehicle.",
        discussion: "Fields come from flags, or from a DeliveryVehicle JSON body (--json-body FILE, or - for standard input) that flags then override field by field. Fleet Engine lets a new delivery vehicle set only its type, location and attributes; give it stops with update.",
        options: DeliveryVehicleFlags.createOptions + JSONBodyFlag<DeliveryVehicle>.options,
        arguments: [vehicleArgument],
        examples: [
            Example("fleet-admin --provider demo delivery-vehicles create van-1 --type auto --location 52.52,13.40",
                    "A delivery van at Berlin's centre."),
            Example("fleet-admin --provider demo delivery-vehicles create bike-1 --type bicycle --attribute depot=north --attribute zone=A",
                    "A cargo bike with two attributes."),
        ]) { session in
        let name = try session.deliveryVehicleName(try session.arguments.require(vehicleArgument))
        let flags = try DeliveryVehicleFlags(session.arguments)
        let body = try JSONBody<DeliveryVehicle>.read(session, path: "deliveryVehicle")
        let request = CreateDeliveryVehicleRequest(parent: "providers/\(name.provider)", deliveryVehicleId: name.deliveryVehicleID,
                                                   deliveryVehicle: flags.applied(to: body?.message ?? DeliveryVehicle()))
        let vehicle = try session.withAPI { try $0.createDeliveryVehicle(request) }
        session.printer.single(vehicle, details: DeliveryVehicleFormatting.details)
        return 0
    }

    // MARK: get

    /// `delivery-vehicles get`.
    static let get = AdminCommand.make(
        "get", abstract: "Show a delivery vehicle and its remaining stops.",
        arguments: [vehicleArgument],
        examples: [
            Example("fleet-admin --provider demo delivery-vehicles get van-1", "Its location and stops, in the order driven."),
            Example("fleet-admin delivery-vehicles get providers/demo/deliveryVehicles/van-1 --json", "Fleet Engine's JSON of the vehicle."),
        ]) { session in
        let name = try session.deliveryVehicleName(try session.arguments.require(vehicleArgument))
        let vehicle = try session.withAPI { try $0.getDeliveryVehicle(GetDeliveryVehicleRequest(name: name.description)) }
        session.printer.single(vehicle, details: DeliveryVehicleFormatting.details)
        return 0
    }

    // MARK: list

    /// The options of `delivery-vehicles list`.
    struct ListFlags: OptionGroup {
        @Option("filter", valueName: "expr",
                help: "Only vehicles whose attributes match: attributes.KEY = \"VALUE\", joined with AND (at most 50; values compare as strings).")
        var filter: String?
        @Option("viewport", valueName: "lat,lng,lat,lng",
                help: "Only vehicles last seen in this rectangle: its south-west then north-east corner, like 52.50,13.35,52.55,13.45.",
                transform: FlagValue.viewport)
        var viewport: Viewport?
        @Option("page-size", valueName: "n", help: "Delivery vehicles per request.", default: "100", check: .within(1...Int32.max))
        var pageSize: Int32
        @Option("limit", valueName: "n", help: "Stop after N delivery vehicles.")
        var limit: Int?

        init() {}
    }

    /// `delivery-vehicles list`.
    static let list = AdminCommand.make(
        "list", abstract: "List delivery vehicles (every page; a progress bar on a terminal).",
        discussion: "Follows nextPageToken to the end (or to --limit), printing JSON lines and JSON array elements as pages arrive. Fleet Engine leaves the stops out of listed vehicles: get shows them.",
        options: ListFlags.options,
        examples: [
            Example("fleet-admin --provider demo delivery-vehicles list", "Every delivery vehicle of the provider."),
            Example("fleet-admin --provider demo delivery-vehicles list --filter 'attributes.depot = \"north\"' --viewport 52.50,13.35,52.55,13.45",
                    "The north depot's vehicles inside a rectangle."),
        ]) { session in
        let flags = try ListFlags(session.arguments)
        let request = ListDeliveryVehiclesRequest(parent: try session.parent(), pageSize: flags.pageSize, filter: flags.filter,
                                                  viewport: flags.viewport)
        let limit = flags.limit
        let writer = session.printer.list(of: DeliveryVehicle.self, table: DeliveryVehicleFormatting.table)
        try session.withAPI { api in
            try FleetPager(api: api, progress: session.progress("Listing delivery vehicles")).deliveryVehicles(request, limit: limit) {
                writer.add($0)
            }
        }
        writer.finish()
        return 0
    }

    // MARK: update

    /// `delivery-vehicles update`.
    static let update = AdminCommand.make(
        "update", abstract: "Change a delivery vehicle's location, attributes or stops.",
        discussion: "The update mask is made from the flags given. --stop, repeated, replaces the remaining stops (remainingVehicleJourneySegments) in the order driven: a task on a stop is assigned to this vehicle, and a task whose stop is left out is closed (then record how it went with tasks close). For the drive and path fields of the stops, give a DeliveryVehicle body with --json-body: its top-level fields join the mask, or --mask names the fields to take from it; flags override the body.",
        options: DeliveryVehicleFlags.updateOptions + JSONBodyFlag<DeliveryVehicle>.options + MaskFlag.options,
        arguments: [vehicleArgument],
        examples: [
            Example("fleet-admin --provider demo delivery-vehicles update van-1 --stop 52.52,13.40:t-1:enroute --stop 52.50,13.45:t-2,t-3",
                    "Two stops: en route to the first (task t-1), then tasks t-2 and t-3 at the second."),
            Example("fleet-admin --provider demo delivery-vehicles update van-1 --stop 52.50,13.45:t-2,t-3:arrived --location 52.50,13.45",
                    "The first stop is done (t-1 closes); arrived at the next."),
            Example("fleet-admin --provider demo delivery-vehicles update van-1 --no-stops", "The round is over: every remaining task closes."),
            Example("fleet-admin --provider demo delivery-vehicles update van-1 --json-body stops.json",
                    "Stops from a file: {\"remainingVehicleJourneySegments\":[{\"stop\":{…}}]}."),
        ]) { session in
        let name = try session.deliveryVehicleName(try session.arguments.require(vehicleArgument))
        let flags = try DeliveryVehicleFlags(session.arguments)
        let body = try JSONBody<DeliveryVehicle>.read(session, path: "deliveryVehicle")
        let paths = MaskFlag.unique((try MaskFlag(session.arguments).paths ?? body?.fields ?? []) + flags.paths)
        guard !paths.isEmpty else {
            throw session.arguments.usageError("nothing to update: give a field flag (--location, --stop, --no-stops, --attribute, --type) or --json-body")
        }
        var vehicle = flags.applied(to: body?.message ?? DeliveryVehicle())
        vehicle.name = name.description
        let request = UpdateDeliveryVehicleRequest(deliveryVehicle: vehicle, updateMask: FieldMask(paths))
        let updated = try session.withAPI { try $0.updateDeliveryVehicle(request) }
        session.printer.single(updated, details: DeliveryVehicleFormatting.details)
        return 0
    }

    // MARK: delete

    /// `delivery-vehicles delete`.
    static let delete = AdminCommand.make(
        "delete", abstract: "Delete a delivery vehicle.",
        arguments: [vehicleArgument],
        examples: [Example("fleet-admin --provider demo delivery-vehicles delete van-1", "Prints Deleted providers/demo/deliveryVehicles/van-1.")]) { session in
        let name = try session.deliveryVehicleName(try session.arguments.require(vehicleArgument))
        try session.withAPI { try $0.deleteDeliveryVehicle(DeleteDeliveryVehicleRequest(name: name.description)) }
        DeletionReport.print(name.description, session: session)
        return 0
    }
}
