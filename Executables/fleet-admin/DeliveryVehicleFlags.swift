import FleetCLI
import FleetModel

/// The delivery vehicle fields set by flags of `delivery-vehicles create` and `update`. Flags win over a
/// `--json-body`: each flag given replaces that field of the body.
struct DeliveryVehicleFlags: OptionGroup {
    /// `--location LAT,LNG` → `lastLocation.location` (the engine stamps the times).
    private var lastLocation = LocationFlag()
    /// `--type auto|two-wheeler|bicycle|pedestrian` → `type`.
    @Option("type", valueName: "type", help: "The vehicle type: auto, two-wheeler, bicycle or pedestrian (Fleet Engine's default: auto).",
            accepted: Vocabulary.deliveryVehicleTypes)
    var type: DeliveryVehicle.DeliveryVehicleType?
    /// `--attribute k=v`, repeated → `attributes` (replacing all of them).
    private var attributeFlag = AttributeFlag<DeliveryVehicleAttribute>()
    /// `--stop LAT,LNG:TASK[,TASK…][:STATE]`, repeated.
    @Option("stop", valueName: "lat,lng:tasks[:state]",
            help: "A remaining stop: where it is, the IDs of the tasks done there, and its state (new, enroute or arrived; default new), like 52.52,13.40:t-1,t-2:enroute. Repeat for each stop, in the order driven; given at all, they replace every remaining stop. A task whose stop is left out is closed.",
            transform: FlagValue.vehicleStop)
    private var givenStops: [VehicleJourneySegment]
    /// `--no-stops`.
    @Flag("no-stops", help: "Remove every remaining stop (closing the tasks they had).")
    private var noStops: Bool

    /// The options of `create` (Fleet Engine lets a new delivery vehicle set only these).
    static let createOptions = options(excluding: \.$givenStops, \.$noStops)
    /// The options of `update`.
    static let updateOptions = options

    /// No flag given.
    init() {}

    /// `--stop` and `--no-stops` do not go together.
    func validate() throws(ValidationError) {
        if noStops && !givenStops.isEmpty { throw ValidationError("--stop and --no-stops cannot be used together") }
    }

    /// `--location LAT,LNG` → `lastLocation.location` (the engine stamps the times).
    var location: LatLng? {
        get { lastLocation.location }
        set { lastLocation.location = newValue }
    }

    /// `--attribute k=v`, repeated → `attributes` (replacing all of them).
    var attributes: [DeliveryVehicleAttribute]? {
        get { attributeFlag.attributes }
        set { attributeFlag.attributes = newValue }
    }

    /// `--stop …`, repeated, or `--no-stops` → `remainingVehicleJourneySegments` (update only); nil when neither is given.
    var stops: [VehicleJourneySegment]? {
        get { noStops ? [] : givenStops.isEmpty ? nil : givenStops }
        set {
            givenStops = newValue ?? []
            noStops = newValue?.isEmpty == true
        }
    }

    /// The update-mask paths of the fields given, in declaration order.
    var paths: [String] {
        var paths: [String] = []
        if location != nil { paths.append("lastLocation") }
        if stops != nil { paths.append("remainingVehicleJourneySegments") }
        if attributes != nil { paths.append("attributes") }
        if type != nil { paths.append("type") }
        return paths
    }

    /// `vehicle` with the given fields replaced.
    func applied(to vehicle: DeliveryVehicle) -> DeliveryVehicle {
        var vehicle = vehicle
        if let location { vehicle.lastLocation = DeliveryVehicleLocation(location: location) }
        if let stops { vehicle.remainingVehicleJourneySegments = stops }
        if let attributes { vehicle.attributes = attributes }
        if let type { vehicle.type = type }
        return vehicle
    }
}

/// `--attribute KEY=VALUE`, repeated: the attributes of a delivery vehicle or task, one per flag, so a
/// value may hold commas (an address, a note). Declared once for `delivery-vehicles` and `tasks`.
struct AttributeFlag<Attribute: KeyedAttribute & Sendable>: OptionGroup {
    @Option("attribute", valueName: "key=value",
            help: "An attribute with a string value (which may hold commas); repeat for several. Given at all, they replace every attribute; --attribute '' alone clears them.",
            transform: FlagValue.attribute)
    private var given: [Attribute?]

    /// No attribute given.
    init() {}

    /// The attributes given, or nil when none was; `--attribute ''` alone is no attributes.
    var attributes: [Attribute]? {
        get { given.isEmpty ? nil : given.compactMap { $0 } }
        set { given = newValue.map { $0.isEmpty ? [nil] : $0.map(Optional.some) } ?? [] }
    }
}

/// `--location LAT,LNG`: where a vehicle is, declared once for `vehicles` and `delivery-vehicles`.
struct LocationFlag: OptionGroup {
    @Option("location", valueName: "lat,lng",
            help: "Its location, as LAT,LNG in degrees (write --location=-33.87,151.21 for a negative latitude).",
            transform: FlagValue.latLng)
    var location: LatLng?

    /// No location given.
    init() {}
}
