import FleetCLI
import FleetModel

/// The trip fields set by flags of `trips create` and `trips update`. Flags win over a
/// `--json-body`: each flag given replaces that field of the body.
struct TripFlags: OptionGroup {
    /// `--pickup LAT,LNG` → `pickupPoint`.
    @Option("pickup", valueName: "lat,lng", help: "The pickup point (write --pickup=-33.87,151.21 for a negative latitude).",
            transform: FlagValue.latLng)
    var pickup: LatLng?
    /// `--dropoff LAT,LNG` → `dropoffPoint`.
    @Option("dropoff", valueName: "lat,lng", help: "The dropoff point.", transform: FlagValue.latLng)
    var dropoff: LatLng?
    /// `--stop LAT,LNG`, repeated → `intermediateDestinations`, in order.
    @Option("stop", valueName: "lat,lng", help: "An intermediate destination; repeat for several, in order (exclusive trips only).",
            transform: FlagValue.latLng)
    private var givenStops: [LatLng]
    /// `--type exclusive|shared` → `tripType`.
    @Option("type", valueName: "type", help: "The trip type: exclusive or shared.", accepted: Vocabulary.tripTypes)
    var type: TripType?
    /// `--vehicle ID` → `vehicleId` ('' unassigns, on update).
    @Option("vehicle", valueName: "id", help: "The vehicle the trip is assigned to.")
    var vehicle: String?
    /// `--attributes k=v,…` → `attributes`.
    @Option("attributes", valueName: "k=v,...", help: "The trip's attributes: k=v,k2=v2 (string values).", transform: FlagValue.attributes)
    var attributes: [TripAttribute]?
    /// `--passengers N` → `numberOfPassengers` (create only: the server owns it afterwards).
    @Option("passengers", valueName: "n", help: "How many riders (numberOfPassengers).", check: .within(0...Int32.max))
    var passengers: Int32?
    /// `--status S` → `tripStatus` (update only).
    @Option("status", valueName: "status", help: "The new trip status (any case, dashes or underscores: enroute-to-pickup).",
            accepted: Vocabulary.tripStatuses)
    var status: TripStatus?
    /// `--index N` → `intermediateDestinationIndex` (update only).
    @Option("index", valueName: "n", help: "The intermediate destination the status refers to (intermediateDestinationIndex).",
            check: .within(0...Int32.max))
    var index: Int32?

    /// The options of `create` (the status and index are the server's until then).
    static let createOptions = options(excluding: \.$status, \.$index)
    /// The options of `update` (the number of passengers is the server's once created).
    static let updateOptions = options(excluding: \.$passengers)

    /// No flag given.
    init() {}

    /// `--stop LAT,LNG`, repeated → `intermediateDestinations`, in order; nil when not given.
    var stops: [LatLng]? {
        get { givenStops.isEmpty ? nil : givenStops }
        set { givenStops = newValue ?? [] }
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
