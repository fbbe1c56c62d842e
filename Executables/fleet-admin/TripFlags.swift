import FleetCLI
import FleetModel

/// The trip fields set by flags of `trips create` and `trips update`. Flags win over a
/// `--json-body`: each flag given replaces that field of the body.
struct TripFlags: Sendable {
    /// `--pickup LAT,LNG` → `pickupPoint`.
    var pickup: LatLng?
    /// `--dropoff LAT,LNG` → `dropoffPoint`.
    var dropoff: LatLng?
    /// `--stop LAT,LNG`, repeated → `intermediateDestinations`, in order.
    var stops: [LatLng]?
    /// `--type exclusive|shared` → `tripType`.
    var type: TripType?
    /// `--vehicle ID` → `vehicleId` ('' unassigns, on update).
    var vehicle: String?
    /// `--attributes k=v,…` → `attributes`.
    var attributes: [TripAttribute]?
    /// `--passengers N` → `numberOfPassengers` (create only: the server owns it afterwards).
    var passengers: Int32?
    /// `--status S` → `tripStatus` (update only).
    var status: TripStatus?
    /// `--index N` → `intermediateDestinationIndex` (update only).
    var index: Int32?

    /// `--pickup LAT,LNG`.
    static let pickupOption = OptionDefinition.value(
        "pickup", valueName: "lat,lng", help: "The pickup point (write --pickup=-33.87,151.21 for a negative latitude).")
    /// `--dropoff LAT,LNG`.
    static let dropoffOption = OptionDefinition.value("dropoff", valueName: "lat,lng", help: "The dropoff point.")
    /// `--stop LAT,LNG` (repeatable).
    static let stopOption = OptionDefinition.value(
        "stop", valueName: "lat,lng", help: "An intermediate destination; repeat for several, in order (exclusive trips only).",
        repeatable: true)
    /// `--type exclusive|shared`.
    static let typeOption = EnumOption(
        "type", valueName: "type", help: "The trip type: exclusive or shared.", accepted: Vocabulary.tripTypes)
    /// `--vehicle ID`.
    static let vehicleOption = OptionDefinition.value("vehicle", valueName: "id", help: "The vehicle the trip is assigned to.")
    /// `--attributes k=v,…`.
    static let attributesOption = OptionDefinition.value(
        "attributes", valueName: "k=v,...", help: "The trip's attributes: k=v,k2=v2 (string values).")
    /// `--passengers N`.
    static let passengersOption = OptionDefinition.value("passengers", valueName: "n", help: "How many riders (numberOfPassengers).")
    /// `--status S`.
    static let statusOption = EnumOption(
        "status", valueName: "status", help: "The new trip status (any case, dashes or underscores: enroute-to-pickup).",
        accepted: Vocabulary.tripStatuses)
    /// `--index N`.
    static let indexOption = OptionDefinition.value(
        "index", valueName: "n", help: "The intermediate destination the status refers to (intermediateDestinationIndex).")

    /// Options of both `create` and `update`.
    static let commonOptions: [OptionDefinition] = [
        pickupOption, dropoffOption, stopOption, typeOption.option, vehicleOption, attributesOption,
    ]
    /// `--passengers`, for `create`.
    static let createOptions: [OptionDefinition] = [passengersOption]
    /// `--status`, `--index`, for `update`.
    static let updateOptions: [OptionDefinition] = [statusOption.option, indexOption]

    /// Reads whichever of the flags the running command declares.
    init(_ arguments: ParsedArguments, declared options: [OptionDefinition]) throws(UsageError) {
        pickup = try arguments.latLng(Self.pickupOption)
        dropoff = try arguments.latLng(Self.dropoffOption)
        let stops = try arguments.latLngs(Self.stopOption)
        self.stops = stops.isEmpty ? nil : stops
        type = try arguments.value(Self.typeOption)
        vehicle = arguments.string(Self.vehicleOption)
        attributes = try arguments.attributes(Self.attributesOption)
        if options.contains(Self.passengersOption) { passengers = try arguments.int32(Self.passengersOption, in: 0...Int32.max) }
        if options.contains(Self.statusOption.option) { status = try arguments.value(Self.statusOption) }
        if options.contains(Self.indexOption) { index = try arguments.int32(Self.indexOption, in: 0...Int32.max) }
    }

    /// Flags set directly (tests).
    init(pickup: LatLng? = nil, dropoff: LatLng? = nil, stops: [LatLng]? = nil, type: TripType? = nil, vehicle: String? = nil,
         attributes: [TripAttribute]? = nil, passengers: Int32? = nil, status: TripStatus? = nil, index: Int32? = nil) {
        self.pickup = pickup
        self.dropoff = dropoff
        self.stops = stops
        self.type = type
        self.vehicle = vehicle
        self.attributes = attributes
        self.passengers = passengers
        self.status = status
        self.index = index
    }

    /// The update-mask paths of the fields given, in declaration order.
    var paths: [String] {
        var paths: [String] = []
        if vehicle != nil { paths.append("vehicleId") }
        if status != nil { paths.append("tripStatus") }
        if type != nil { paths.append("tripType") }
        if pickup != nil { paths.append("pickupPoint") }
        if stops != nil { paths.append("intermediateDestinations") }
        if index != nil { paths.append("intermediateDestinationIndex") }
        if dropoff != nil { paths.append("dropoffPoint") }
        if attributes != nil { paths.append("attributes") }
        return paths
    }

    /// `trip` with the given fields replaced.
    func applied(to trip: Trip) -> Trip {
        var trip = trip
        if let pickup { trip.pickupPoint = TerminalLocation(point: pickup) }
        if let dropoff { trip.dropoffPoint = TerminalLocation(point: dropoff) }
        if let stops { trip.intermediateDestinations = stops.map { TerminalLocation(point: $0) } }
        if let type { trip.tripType = type }
        if let vehicle { trip.vehicleId = vehicle }
        if let attributes { trip.attributes = attributes }
        if let passengers { trip.numberOfPassengers = passengers }
        if let status { trip.tripStatus = status }
        if let index { trip.intermediateDestinationIndex = index }
        return trip
    }

    /// What `trips create` sends: the body (if any) with the flags applied; EXCLUSIVE when neither gives a type.
    func tripToCreate(body: Trip?) -> Trip {
        var trip = applied(to: body ?? Trip())
        if trip.tripType == nil { trip.tripType = .exclusive }
        return trip
    }
}
