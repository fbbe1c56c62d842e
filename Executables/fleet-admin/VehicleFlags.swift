import FleetCLI
import FleetModel

/// The vehicle fields set by flags of `vehicles create` and `vehicles update`. Flags win over a
/// `--json-body`: each flag given replaces that field of the body.
struct VehicleFlags: Sendable {
    /// `--state online|offline` → `vehicleState`.
    var state: VehicleState?
    /// `--type exclusive[,shared]` → `supportedTripTypes`.
    var tripTypes: [TripType]?
    /// `--capacity N` → `maximumCapacity`.
    var capacity: Int32?
    /// `--category auto` → `vehicleType.category`.
    var category: VehicleType.Category?
    /// `--location LAT,LNG` → `lastLocation.location` (the engine stamps the times).
    var location: LatLng?
    /// `--attributes k=v,…` → `attributes` (replacing all of them).
    var attributes: [VehicleAttribute]?
    /// `--back-to-back` / `--no-back-to-back` → `backToBackEnabled`.
    var backToBack: Bool?

    /// `--state online|offline`.
    static let stateOption = EnumOption(
        "state", valueName: "state", help: "The vehicle state: online or offline.", accepted: Vocabulary.vehicleStates)
    /// `--type exclusive[,shared]`.
    static let typeOption = EnumOption(
        "type", valueName: "types", help: "Trip types the vehicle takes: exclusive, shared, or exclusive,shared.",
        accepted: Vocabulary.tripTypes)
    /// `--capacity N`.
    static let capacityOption = OptionDefinition.value("capacity", valueName: "n", help: "How many riders it seats (at least 1).")
    /// `--category C`.
    static let categoryOption = EnumOption(
        "category", valueName: "category",
        help: "The vehicle category: auto, taxi, truck, two-wheeler, bicycle or pedestrian.", accepted: Vocabulary.categories)
    /// `--location LAT,LNG`.
    static let locationOption = OptionDefinition.value(
        "location", valueName: "lat,lng", help: "Its location, as LAT,LNG in degrees (write --location=-33.87,151.21 for a negative latitude).")
    /// `--attributes k=v,…`.
    static let attributesOption = OptionDefinition.value(
        "attributes", valueName: "k=v,...", help: "Its attributes, replacing all it has: k=v,k2=v2 (string values; '' for none).")
    /// `--back-to-back`.
    static let backToBackOption = OptionDefinition.flag("back-to-back", help: "Accept back-to-back trips (backToBackEnabled).")
    /// `--no-back-to-back`.
    static let noBackToBackOption = OptionDefinition.flag("no-back-to-back", help: "Refuse back-to-back trips.")

    /// The options that set these fields.
    static let options: [OptionDefinition] = [
        stateOption.option, typeOption.option, capacityOption, categoryOption.option, locationOption, attributesOption,
        backToBackOption, noBackToBackOption,
    ]

    /// Reads the flags; a malformed value is a usage error.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        state = try arguments.value(Self.stateOption)
        let types = try arguments.values(Self.typeOption)
        tripTypes = types.isEmpty ? nil : types
        capacity = try arguments.int32(Self.capacityOption)
        category = try arguments.value(Self.categoryOption)
        location = try arguments.latLng(Self.locationOption)
        attributes = try arguments.attributes(Self.attributesOption)
        switch (arguments.flag(Self.backToBackOption), arguments.flag(Self.noBackToBackOption)) {
        case (true, true): throw arguments.usageError("--back-to-back and --no-back-to-back cannot be used together")
        case (true, false): backToBack = true
        case (false, true): backToBack = false
        case (false, false): backToBack = nil
        }
    }

    /// Flags set directly (tests).
    init(state: VehicleState? = nil, tripTypes: [TripType]? = nil, capacity: Int32? = nil, category: VehicleType.Category? = nil,
         location: LatLng? = nil, attributes: [VehicleAttribute]? = nil, backToBack: Bool? = nil) {
        self.state = state
        self.tripTypes = tripTypes
        self.capacity = capacity
        self.category = category
        self.location = location
        self.attributes = attributes
        self.backToBack = backToBack
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
