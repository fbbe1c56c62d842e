import FleetCLI
import FleetModel

/// The delivery vehicle fields set by flags of `delivery-vehicles create` and `update`. Flags win over a
/// `--json-body`: each flag given replaces that field of the body.
struct DeliveryVehicleFlags: Sendable {
    /// `--location LAT,LNG` → `lastLocation.location` (the engine stamps the times).
    var location: LatLng?
    /// `--type auto|two-wheeler|bicycle|pedestrian` → `type`.
    var type: DeliveryVehicle.DeliveryVehicleType?
    /// `--attribute k=v`, repeated → `attributes` (replacing all of them).
    var attributes: [DeliveryVehicleAttribute]?
    /// `--stop …`, repeated, or `--no-stops` → `remainingVehicleJourneySegments` (update only).
    var stops: [VehicleJourneySegment]?

    /// `--type T`.
    static let typeOption = EnumOption(
        "type", valueName: "type", help: "The vehicle type: auto, two-wheeler, bicycle or pedestrian (Fleet Engine's default: auto).",
        accepted: Vocabulary.deliveryVehicleTypes)
    /// `--stop LAT,LNG:TASK[,TASK…][:STATE]` (repeatable).
    static let stopOption = OptionDefinition.value(
        "stop", valueName: "lat,lng:tasks[:state]",
        help: "A remaining stop: where it is, the IDs of the tasks done there, and its state (new, enroute or arrived; default new), like 52.52,13.40:t-1,t-2:enroute. Repeat for each stop, in the order driven; given at all, they replace every remaining stop. A task whose stop is left out is closed.",
        repeatable: true)
    /// `--no-stops`.
    static let noStopsOption = OptionDefinition.flag(
        "no-stops", help: "Remove every remaining stop (closing the tasks they had).")

    /// The options of `create` (Fleet Engine lets a new delivery vehicle set only these).
    static let createOptions: [OptionDefinition] = [VehicleFlags.locationOption, typeOption.option, AttributeFlag.option]
    /// The options of `update`.
    static let updateOptions: [OptionDefinition] = createOptions + [stopOption, noStopsOption]

    /// Reads whichever of the flags the running command declares; a malformed value is a usage error.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        location = try arguments.latLng(VehicleFlags.locationOption)
        type = try arguments.value(Self.typeOption)
        attributes = try arguments.attributeList(AttributeFlag.option)
        guard arguments.declares(option: Self.stopOption.name) else { return }
        let given = try arguments.vehicleStops(Self.stopOption)
        switch (given.isEmpty, arguments.flag(Self.noStopsOption)) {
        case (false, true): throw arguments.usageError("--stop and --no-stops cannot be used together")
        case (false, false): stops = given
        case (true, true): stops = []
        case (true, false): stops = nil
        }
    }

    /// Flags set directly (tests).
    init(location: LatLng? = nil, type: DeliveryVehicle.DeliveryVehicleType? = nil, attributes: [DeliveryVehicleAttribute]? = nil,
         stops: [VehicleJourneySegment]? = nil) {
        self.location = location
        self.type = type
        self.attributes = attributes
        self.stops = stops
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
/// value may hold commas (an address, a note).
enum AttributeFlag {
    /// The option, declared once for `delivery-vehicles` and `tasks`.
    static let option = OptionDefinition.value(
        "attribute", valueName: "key=value",
        help: "An attribute with a string value (which may hold commas); repeat for several. Given at all, they replace every attribute; --attribute '' alone clears them.",
        repeatable: true)
}
