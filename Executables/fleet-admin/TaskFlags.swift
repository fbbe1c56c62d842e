import FleetCLI
import FleetModel

/// The task fields set by flags of `tasks create` and `tasks update`. Flags win over a `--json-body`:
/// each flag given replaces that field of the body. Type, tracking ID, location and duration are
/// immutable once created (Fleet Engine), so `update` offers only the window and the attributes.
struct TaskFlags: Sendable {
    /// `--type T` → `type` (create only).
    var type: DeliveryTask.TaskType?
    /// `--tracking-id T` → `trackingId` (create only).
    var trackingID: String?
    /// `--location LAT,LNG` → `plannedLocation` (create only).
    var location: LatLng?
    /// `--duration D` → `taskDuration` (create only).
    var duration: ProtoDuration?
    /// `--window FROM,TO` → `targetTimeWindow`.
    var window: TimeWindow?
    /// `--attribute k=v`, repeated → `attributes` (replacing all of them).
    var attributes: [TaskAttribute]?

    /// `--type T`.
    static let typeOption = EnumOption(
        "type", valueName: "type", help: "The task type (required): pickup, delivery, scheduled-stop or unavailable (a break).",
        accepted: Vocabulary.taskTypes)
    /// `--tracking-id T`.
    static let trackingIDOption = OptionDefinition.value(
        "tracking-id", valueName: "id",
        help: "The shipment's tracking ID, what customers look it up by (required for pickup and delivery, refused for scheduled-stop and unavailable).")
    /// `--location LAT,LNG`.
    static let locationOption = OptionDefinition.value(
        "location", valueName: "lat,lng",
        help: "Where the task is done (plannedLocation; optional for unavailable). Write --location=-33.87,151.21 for a negative latitude.")
    /// `--duration D`.
    static let durationOption = OptionDefinition.value(
        "duration", valueName: "duration", help: "How long the task takes at its location (taskDuration; required), like 5m or 90s.")
    /// `--window FROM,TO`.
    static let windowOption = OptionDefinition.value(
        "window", valueName: "from,to",
        help: "When the task should be done (targetTimeWindow): two RFC 3339 times, like 2026-03-01T09:00:00Z,2026-03-01T12:00:00Z.")

    /// The options of `create`.
    static let createOptions: [OptionDefinition] = [typeOption.option, trackingIDOption, locationOption, durationOption, windowOption, AttributeFlag.option]
    /// The options of `update`.
    static let updateOptions: [OptionDefinition] = [windowOption, AttributeFlag.option]

    /// Reads whichever of the flags the running command declares; a malformed value is a usage error.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        if arguments.declares(option: Self.typeOption.option.name) {
            type = try arguments.value(Self.typeOption)
            trackingID = arguments.string(Self.trackingIDOption)
            location = try arguments.latLng(Self.locationOption)
            duration = try arguments.protoDuration(Self.durationOption)
        }
        window = try arguments.timeWindow(Self.windowOption)
        attributes = try arguments.attributeList(AttributeFlag.option)
    }

    /// Flags set directly (tests).
    init(type: DeliveryTask.TaskType? = nil, trackingID: String? = nil, location: LatLng? = nil, duration: ProtoDuration? = nil,
         window: TimeWindow? = nil, attributes: [TaskAttribute]? = nil) {
        self.type = type
        self.trackingID = trackingID
        self.location = location
        self.duration = duration
        self.window = window
        self.attributes = attributes
    }

    /// The update-mask paths of the fields `update` may set, in declaration order.
    var paths: [String] {
        var paths: [String] = []
        if window != nil { paths.append("targetTimeWindow") }
        if attributes != nil { paths.append("attributes") }
        return paths
    }

    /// `task` with the given fields replaced.
    func applied(to task: DeliveryTask) -> DeliveryTask {
        var task = task
        if let type { task.type = type }
        if let trackingID { task.trackingId = trackingID }
        if let location { task.plannedLocation = LocationInfo(point: location) }
        if let duration { task.taskDuration = duration }
        if let window { task.targetTimeWindow = window }
        if let attributes { task.attributes = attributes }
        return task
    }

    /// What `tasks create` sends: the body (if any) with the flags applied, OPEN (the only state a task
    /// is created in) when the body gives no state.
    func taskToCreate(body: DeliveryTask?) -> DeliveryTask {
        var task = applied(to: body ?? DeliveryTask())
        if task.state == nil { task.state = .open }
        return task
    }
}
