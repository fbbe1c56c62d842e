import FleetCLI
import FleetModel

/// The vehicle fields set by flags of `vehicles create` and `vehicles update`. Flags win over a
/// `--json-body`: each flag given replaces that field of the body.
struct VehicleFlags: OptionGroup {
    /// `--state online|offline` → `vehicleState`.
    @Option("state", valueName: "state", help: "The vehicle state: online or offline.", accepted: Vocabulary.vehicleStates)
    var state: VehicleState?
    /// `--type exclusive[,shared]` → `supportedTripTypes`.
    @Option("type", valueName: "types", help: "Trip types the vehicle takes: exclusive, shared, or exclusive,shared.",
            acceptedList: Vocabulary.tripTypes)
    var tripTypes: [TripType]?
    /// `--capacity N` → `maximumCapacity`.
    @Option("capacity", valueName: "n", help: "How many riders it seats (at least 1).")
    var capacity: Int32?
    /// `--category auto` → `vehicleType.category`.
    @Option("category", valueName: "category",
            help: "The vehicle category: auto, taxi, truck, two-wheeler, bicycle or pedestrian.", accepted: Vocabulary.categories)
    var category: VehicleType.Category?
    /// `--location LAT,LNG` → `lastLocation.location` (the engine stamps the times).
    private var lastLocation = LocationFlag()
    /// `--attributes k=v,…` → `attributes` (replacing all of them).
    @Option("attributes", valueName: "k=v,...", help: "Its attributes, replacing all it has: k=v,k2=v2 (string values; '' for none).",
            transform: FlagValue.attributes)
    var attributes: [VehicleAttribute]?
    /// `--back-to-back` / `--no-back-to-back` → `backToBackEnabled`.
    @Flag("back-to-back", help: "Accept back-to-back trips (backToBackEnabled).", inversion: "Refuse back-to-back trips.")
    var backToBack: Bool?

    /// No flag given.
    init() {}

    /// `--location LAT,LNG` → `lastLocation.location` (the engine stamps the times).
    var location: LatLng? {
        get { lastLocation.location }
        set { lastLocation.location = newValue }
    }

    /// The update-mask paths of the fields given, in declaration order.
    var paths: [String] {
        var paths: [String] = []
        if state != nil { paths.append("vehicleState") }
        if tripTypes != nil { paths.append("supportedTripTypes") }
        if capacity != nil { paths.append("maximumCapacity") }
        if category != nil { paths.append("vehicleType") }
        if location != nil { paths.append("lastLocation") }
        if attributes != nil { paths.append("attributes") }
        if backToBack != nil { paths.append("backToBackEnabled") }
        return paths
    }

    /// `vehicle` with the given fields replaced.
    func applied(to vehicle: Vehicle) -> Vehicle {
        var vehicle = vehicle
        if let state { vehicle.vehicleState = state }
        if let tripTypes { vehicle.supportedTripTypes = tripTypes }
        if let capacity { vehicle.maximumCapacity = capacity }
        if let category { vehicle.vehicleType = VehicleType(category: category) }
        if let location { vehicle.lastLocation = VehicleLocation(location: location) }
        if let attributes { vehicle.attributes = attributes }
        if let backToBack { vehicle.backToBackEnabled = backToBack }
        return vehicle
    }

    /// What `vehicles create` sends: the body (if any) with the flags applied, then the defaults
    /// for what neither gave: OFFLINE, EXCLUSIVE trips, AUTO. The capacity has no default.
    func vehicleToCreate(body: Vehicle?) -> Vehicle {
        var vehicle = applied(to: body ?? Vehicle())
        if vehicle.vehicleState == nil { vehicle.vehicleState = .offline }
        if vehicle.supportedTripTypes.isEmpty { vehicle.supportedTripTypes = [.exclusive] }
        if vehicle.vehicleType == nil { vehicle.vehicleType = VehicleType(category: .auto) }
        return vehicle
    }
}
