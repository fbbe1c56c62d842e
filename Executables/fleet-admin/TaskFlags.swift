import FleetCLI
import FleetModel

/// The task fields set by flags of `tasks create` and `tasks update`. Flags win over a `--json-body`:
/// each flag given replaces that field of the body. Type, tracking ID, location and duration are
/// immutable once created (Fleet Engine), so `update` offers only the window and the attributes.
struct TaskFlags: OptionGroup {
    /// `--type T` → `type` (create only).
    @Option("type", valueName: "type", help: "The task type (required): pickup, delivery, scheduled-stop or unavailable (a break).",
            accepted: Vocabulary.taskTypes)
    var type: DeliveryTask.TaskType?
    /// `--tracking-id T` → `trackingId` (create only).
    @Option("tracking-id", valueName: "id",
            help: "The shipment's tracking ID, what customers look it up by (required for pickup and delivery, refused for scheduled-stop and unavailable).")
    var trackingID: String?
    /// `--location LAT,LNG` → `plannedLocation` (create only).
    @Option("location", valueName: "lat,lng",
            help: "Where the task is done (plannedLocation; optional for unavailable). Write --location=-33.87,151.21 for a negative latitude.",
            transform: FlagValue.latLng)
    var location: LatLng?
    /// `--duration D` → `taskDuration` (create only).
    @Option("duration", valueName: "duration", help: "How long the task takes at its location (taskDuration; required), like 5m or 90s.",
            transform: { text throws(ArgumentProblem) in ProtoDuration(try Duration(argument: text)) })
    var duration: ProtoDuration?
    /// `--window FROM,TO` → `targetTimeWindow`.
    @Option("window", valueName: "from,to",
            help: "When the task should be done (targetTimeWindow): two RFC 3339 times, like 2026-03-01T09:00:00Z,2026-03-01T12:00:00Z.",
            transform: FlagValue.timeWindow)
    var window: TimeWindow?
    /// `--attribute k=v`, repeated → `attributes` (replacing all of them).
    private var attributeFlag = AttributeFlag<TaskAttribute>()

    /// The options of `create`.
    static let createOptions = options
    /// The options of `update` (type, tracking ID, location and duration are fixed once created).
    static let updateOptions = options(\.$window) + AttributeFlag<TaskAttribute>.options

    /// No flag given.
    init() {}

    /// `--attribute k=v`, repeated → `attributes` (replacing all of them).
    var attributes: [TaskAttribute]? {
        get { attributeFlag.attributes }
        set { attributeFlag.attributes = newValue }
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
