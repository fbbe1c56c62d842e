import FleetErrors
import FleetInterface
import FleetModel
import FleetStore

// Deliveries' tasks on the engine: one action at one place (a pickup, a delivery, a scheduled stop, a
// break), assigned to a delivery vehicle by the vehicle's stops (Engine+Deliveries).
extension Engine {
    /// The most tasks one BatchCreateTasks may create: "You can create a maximum of 500 tasks in a batch."
    static let maximumTasksPerBatch = 500

    /// The fields a task is created with and never changes: an update mask naming one is refused.
    static let immutableTaskFields: Set<DeliveryTask.FieldPath> = [.type, .trackingId, .plannedLocation, .taskDuration]

    /// CreateTask without waiting for the store, as `updateVehicle(_:completion:)`.
    public func createTask(_ request: CreateTaskRequest, completion: @escaping @Sendable (Result<DeliveryTask, any Error>) -> Void) {
        transact(preparing: {
            try Validate.values(of: request)
            let parent = try ProviderName(parsing: request.parent ?? "", field: "parent")
            let task = try newTask(request, provider: parent.provider, prefix: "")
            let creation = tasksCreation([task])
            return { isFirstAttempt in
                let (writes, tasks) = try creation(isFirstAttempt)
                return (writes, tasks[0])
            }
        }, completion: completion)
    }

    /// BatchCreateTasks without waiting for the store: every task or none, in one commit.
    ///
    /// Google: "The parent field in the CreateTaskRequest messages must either be empty, or it must match
    /// this field", the same for the header, and "You can create a maximum of 500 tasks in a batch." Each
    /// request is checked as CreateTask checks one (errors name `requests[i].…`); two with one task ID are
    /// refused.
    public func batchCreateTasks(_ request: BatchCreateTasksRequest,
                                 completion: @escaping @Sendable (Result<BatchCreateTasksResponse, any Error>) -> Void) {
        transact(preparing: {
            try Validate.values(of: request)
            let parent = try ProviderName(parsing: request.parent ?? "", field: "parent")
            guard !request.requests.isEmpty else {
                throw FleetError.invalidArgument("requests is required: the CreateTaskRequests of the tasks to create", field: "requests")
            }
            guard request.requests.count <= Self.maximumTasksPerBatch else {
                throw FleetError.invalidArgument("requests has \(request.requests.count) tasks; at most \(Self.maximumTasksPerBatch) can be created in a batch",
                                                 field: "requests")
            }
            var firstIndex: [String: Int] = [:]
            var tasks: [NewTask] = []
            for (i, item) in request.requests.enumerated() {
                let prefix = "requests[\(i)]."
                if let own = item.parent, !own.isEmpty, own != request.parent {
                    throw FleetError.invalidArgument("\(prefix)parent '\(own)' must be empty or the batch's parent '\(request.parent ?? "")'",
                                                     field: "\(prefix)parent")
                }
                if let own = item.header, let batch = request.header, own != batch {
                    throw FleetError.invalidArgument("\(prefix)header must be empty or the batch's header", field: "\(prefix)header")
                }
                let task = try newTask(item, provider: parent.provider, prefix: prefix)
                if let first = firstIndex[task.name.taskID] {
                    throw FleetError.invalidArgument("\(prefix)taskId '\(task.name.taskID)' is also requests[\(first)].taskId; each task needs its own ID",
                                                     field: "\(prefix)taskId")
                }
                firstIndex[task.name.taskID] = i
                tasks.append(task)
            }
            let creation = tasksCreation(tasks)
            return { isFirstAttempt in
                let (writes, created) = try creation(isFirstAttempt)
                return (writes, BatchCreateTasksResponse(tasks: created))
            }
        }, completion: completion)
    }

    public func getTask(_ request: GetTaskRequest) throws -> DeliveryTask {
        try Validate.values(of: request)
        let name = try TaskName(parsing: request.name ?? "", field: "name")
        let key = taskKey(name)
        // The task and its vehicle as of one moment, in one read of the store.
        let (task, vehicle) = try store.withSnapshot { snapshot in
            guard let stored = try snapshot.get(key) else { throw taskNotFound(key) }
            let task = try TaskRecord(stored)
            let vehicle = try task.vehicleID.flatMap { id in
                try snapshot.get(RecordKey(.deliveryVehicle, provider: name.provider, id: id)).map(records.deliveryVehicle)
            }
            return (task, vehicle)
        }
        return taskView(task, vehicle: vehicle)
    }

    /// DeleteTask without waiting for the store, as `updateVehicle(_:completion:)`. Google: "Returns
    /// FAILED_PRECONDITION if the Task is OPEN and assigned to a DeliveryVehicle." The tracking ID's
    /// index forgets the task in the same commit.
    public func deleteTask(_ request: DeleteTaskRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        transact(preparing: {
            try Validate.values(of: request)
            let name = try TaskName(parsing: request.name ?? "", field: "name")
            return { [self] _ in
                let record = try requireTask(taskKey(name))
                if record.isOpen, let vehicleID = record.vehicleID {
                    throw FleetError(.taskOpenAndAssigned,
                                     detail: "\(name) is OPEN on delivery vehicle \(vehicleID); send the vehicle's remainingVehicleJourneySegments without it (which closes it) first",
                                     field: "name")
                }
                var writes: [EngineWrite] = [.delete(record.key, expectedVersion: record.version)]
                if let trackingID = record.trackingID, var shipment = try loadShipment(trackingID, provider: name.provider) {
                    shipment.taskIDs.removeAll { $0 == name.taskID }
                    writes.append(.save(shipment))
                }
                return (writes, ())
            }
        }, completion: completion)
    }

    /// UpdateTask without waiting for the store, as `updateVehicle(_:completion:)`.
    public func updateTask(_ request: UpdateTaskRequest, completion: @escaping @Sendable (Result<DeliveryTask, any Error>) -> Void) {
        transact(preparing: { try taskUpdate(request) }, completion: completion)
    }

    /// ListTasks: the provider's tasks in ID order that `filter` matches (`TaskFilter`), paged as
    /// ListVehicles pages, each as GetTask shows it.
    public func listTasks(_ request: ListTasksRequest) throws -> ListTasksResponse {
        try Validate.values(of: request)
        let parent = try ProviderName(parsing: request.parent ?? "", field: "parent")
        let pageSize = try pageSize(request.pageSize, field: "pageSize")
        let filter = try TaskFilter(parsing: request.filter ?? "")
        let after = try PageToken.decode(request.pageToken, field: "pageToken")
        var page: [TaskRecord] = []
        var hasMore = false
        var total = 0
        try forEachRecord(.task, provider: parent.provider) { stored in
            let record = try TaskRecord(stored)
            guard filter.isEmpty || filter.matches(record.task) else { return }
            total += 1
            if let after, stored.key.id <= after { return }
            if page.count < pageSize { page.append(record) } else { hasMore = true }
        }
        var vehicles: [String: DeliveryVehicleRecord?] = [:]
        let tasks = try page.map { record in
            guard record.isOpen, let id = record.vehicleID else { return taskView(record, vehicle: nil) }
            if vehicles[id] == nil {
                vehicles[id] = .some(try loadDeliveryVehicle(RecordKey(.deliveryVehicle, provider: parent.provider, id: id)))
            }
            return taskView(record, vehicle: vehicles[id] ?? nil)
        }
        let next = hasMore ? page.last.map { PageToken.encode($0.key.id) } : nil
        return ListTasksResponse(tasks: tasks, nextPageToken: next, totalSize: Int64(total))
    }

    // MARK: Creation

    /// A task checked for creation, with its name.
    struct NewTask: Sendable {
        let name: TaskName
        let task: DeliveryTask
    }

    /// The task `request` creates, checked. Google: "When creating a Task, the following fields are
    /// required: type; state (must be set to OPEN); tracking_id (must not be set for UNAVAILABLE or
    /// SCHEDULED_STOP tasks, but required for all other task types); planned_location (optional for
    /// UNAVAILABLE tasks); task_duration. The following fields can be optionally set: target_time_window,
    /// task_tracking_view_config, attributes. Note: The Task's name field is ignored. All other Task
    /// fields must not be set; otherwise, an error is returned." `prefix` leads every field named in an
    /// error (`requests[3].` in a batch).
    private func newTask(_ request: CreateTaskRequest, provider: String, prefix: String) throws -> NewTask {
        let id = try requiredID(request.taskId, field: "\(prefix)taskId")
        let name = try TaskName(provider: provider, taskID: id, field: "\(prefix)taskId")
        guard let input = request.task else {
            throw FleetError.invalidArgument("\(prefix)task is required", field: "\(prefix)task")
        }
        let f = "\(prefix)task"
        let refused: [(field: String, isSet: Bool)] = [
            ("deliveryVehicleId", !(input.deliveryVehicleId ?? "").isEmpty),
            ("taskOutcome", input.taskOutcome.map { $0 != .taskOutcomeUnspecified } ?? false),
            ("taskOutcomeTime", input.taskOutcomeTime != nil),
            ("taskOutcomeLocation", input.taskOutcomeLocation != nil),
            ("taskOutcomeLocationSource", input.taskOutcomeLocationSource.map { $0 != .taskOutcomeLocationSourceUnspecified } ?? false),
            ("journeySharingInfo", input.journeySharingInfo != nil),
        ]
        if let field = refused.first(where: \.isSet)?.field {
            let how = field == "deliveryVehicleId" ? "; a task is assigned by listing it in a delivery vehicle's remainingVehicleJourneySegments (UpdateDeliveryVehicle)" : ""
            throw FleetError.invalidArgument(
                "\(f).\(field) cannot be set when creating a task, which takes type, state, trackingId, plannedLocation, taskDuration, targetTimeWindow, taskTrackingViewConfig and attributes\(how)",
                field: "\(f).\(field)")
        }
        guard let type = input.type, type != .typeUnspecified else {
            throw FleetError.invalidArgument("\(f).type is required: PICKUP, DELIVERY, SCHEDULED_STOP or UNAVAILABLE", field: "\(f).type")
        }
        guard let state = input.state, state != .stateUnspecified else {
            throw FleetError.invalidArgument("\(f).state is required and must be OPEN", field: "\(f).state")
        }
        guard state == .open else {
            throw FleetError.invalidArgument("\(f).state must be OPEN when a task is created, got \(state.name)", field: "\(f).state")
        }
        let trackingID = input.trackingId.flatMap { $0.isEmpty ? nil : $0 }
        if type == .unavailable || type == .scheduledStop {
            if trackingID != nil {
                throw FleetError.invalidArgument("\(f).trackingId cannot be set for \(type.name) tasks: only a PICKUP or DELIVERY task tracks a shipment",
                                                 field: "\(f).trackingId")
            }
        } else {
            guard let trackingID else {
                throw FleetError.invalidArgument("\(f).trackingId is required for \(type.name) tasks: the shipment's tracking ID", field: "\(f).trackingId")
            }
            try ResourceID.validate(trackingID, field: "\(f).trackingId")
        }
        if type != .unavailable || input.plannedLocation != nil {
            guard input.plannedLocation?.point != nil else {
                throw FleetError.invalidArgument("\(f).plannedLocation is required for \(type.name) tasks: where the task is done",
                                                 field: "\(f).plannedLocation")
            }
            try Validate.latLng(input.plannedLocation?.point, field: "\(f).plannedLocation.point")
        }
        guard let duration = input.taskDuration else {
            throw FleetError.invalidArgument("\(f).taskDuration is required: the time the task takes at its place", field: "\(f).taskDuration")
        }
        guard duration.timeInterval >= 0 else {
            throw FleetError.invalidArgument("\(f).taskDuration must not be negative, got \(duration)", field: "\(f).taskDuration")
        }
        if let window = input.targetTimeWindow { try checkTimeWindow(window, field: "\(f).targetTimeWindow") }
        if let config = input.taskTrackingViewConfig { try checkViewConfig(config, field: "\(f).taskTrackingViewConfig") }
        try Validate.attributes(input.attributes, field: "\(f).attributes")
        let task = DeliveryTask(name: name.description, type: type, state: .open, trackingId: trackingID,
                                plannedLocation: input.plannedLocation, taskDuration: duration,
                                targetTimeWindow: input.targetTimeWindow, taskTrackingViewConfig: input.taskTrackingViewConfig,
                                attributes: Self.storedAttributes(input.attributes))
        return NewTask(name: name, task: task)
    }

    /// Writes the tasks and, for each tracking ID among them, its index of tasks, in one commit; a task
    /// that exists already is ALREADY_EXISTS, naming it (and none is written).
    private func tasksCreation(_ tasks: [NewTask]) -> TransactionBody<[DeliveryTask]> {
        { [self] _ in
            let now = clock.now()
            var writes: [EngineWrite] = []
            var shipments: [String: ShipmentRecord] = [:]
            for new in tasks {
                let key = taskKey(new.name)
                if try store.get(key) != nil {
                    throw FleetError(.alreadyExists, detail: new.name.description,
                                     field: tasks.count == 1 ? "taskId" : "requests[\(tasks.firstIndex { $0.name == new.name } ?? 0)].taskId")
                }
                writes.append(.save(TaskRecord(task: new.task, updatedAt: now, version: 0, key: key)))
                guard let trackingID = new.task.trackingId else { continue }
                var shipment = try shipments[trackingID] ?? loadShipment(trackingID, provider: key.provider)
                    ?? ShipmentRecord(taskIDs: [], version: 0, key: RecordKey(.shipment, provider: key.provider, id: trackingID))
                shipment.taskIDs = Array(Set(shipment.taskIDs + [key.id])).sorted()
                shipments[trackingID] = shipment
            }
            writes += shipments.keys.sorted().compactMap { shipments[$0].map(EngineWrite.save) }
            return (writes, tasks.map(\.task))
        }
    }

    /// The tasks that share a tracking ID, as indexed.
    func loadShipment(_ trackingID: String, provider: String) throws -> ShipmentRecord? {
        try store.get(RecordKey(.shipment, provider: provider, id: trackingID)).map(ShipmentRecord.init)
    }

    // MARK: Updates

    /// The checked request as the body of a read-modify-write.
    private func taskUpdate(_ request: UpdateTaskRequest) throws -> TransactionBody<DeliveryTask> {
        try Validate.values(of: request)
        guard let update = request.task else {
            throw FleetError.invalidArgument("task is required", field: "task")
        }
        let name = try TaskName(parsing: update.name ?? "", field: "task.name")
        for path in request.updateMask?.paths ?? [] {
            if let field = DeliveryTask.FieldPath(firstSegmentOf: path), Self.immutableTaskFields.contains(field) {
                throw immutable(field)
            }
        }
        let paths = try UpdateMask.paths(request.updateMask, of: DeliveryTask.self)
        try checkTaskUpdate(update, paths: paths)
        let key = taskKey(name)
        return { [self] _ in
            var record = try requireTask(key)
            let vehicle = try record.vehicleID.flatMap { try loadDeliveryVehicle(RecordKey(.deliveryVehicle, provider: name.provider, id: $0)) }
            let now = clock.now()
            try apply(update, paths: paths, to: &record, vehicle: vehicle, now: now)
            record.updatedAt = now
            return ([.save(record)], taskView(record, vehicle: vehicle))
        }
    }

    private func immutable(_ field: DeliveryTask.FieldPath) -> FleetError {
        FleetError(.badUpdateMaskPath, detail: "'\(field)' is immutable: it is set when the task is created (create a new task to change it)",
                   field: "updateMask")
    }

    /// Checks the values an update sets before any store access. Google: "The following fields are
    /// maintained by Fleet Engine. Do not update them using Task.update: last_location,
    /// last_location_snappable, name, remaining_vehicle_journey_segments, task_outcome_location_source."
    private func checkTaskUpdate(_ t: DeliveryTask, paths: [DeliveryTask.FieldPath]) throws {
        for path in paths {
            switch path {
            case .state:
                guard t.state == .open || t.state == .closed else {
                    throw FleetError.invalidArgument("task.state must be OPEN or CLOSED", field: "task.state")
                }
            case .taskOutcome:
                guard t.taskOutcome == .succeeded || t.taskOutcome == .failed else {
                    throw FleetError.invalidArgument("task.taskOutcome must be SUCCEEDED or FAILED", field: "task.taskOutcome")
                }
            case .taskOutcomeLocation:
                if let location = t.taskOutcomeLocation {
                    try Validate.latLng(location.point, field: "task.taskOutcomeLocation.point")
                }
            case .targetTimeWindow:
                if let window = t.targetTimeWindow { try checkTimeWindow(window, field: "task.targetTimeWindow") }
            case .taskTrackingViewConfig:
                if let config = t.taskTrackingViewConfig { try checkViewConfig(config, field: "task.taskTrackingViewConfig") }
            case .attributes:
                try Validate.attributes(t.attributes, field: "task.attributes")
            case .taskOutcomeTime:
                break // any time will do; unset means now
            case .name, .deliveryVehicleId, .journeySharingInfo, .taskOutcomeLocationSource:
                throw UpdateMask.serverOwned(path)
            case .type, .trackingId, .plannedLocation, .taskDuration:
                throw immutable(path)
            }
        }
    }

    /// Applies the masked fields of `update` to a stored task.
    ///
    /// - `state`: only OPEN → CLOSED, and only for a task on no vehicle: "If the Task has been assigned
    ///   to a delivery vehicle, then don't set the Task state to CLOSED using Task.update. Instead,
    ///   remove the VehicleStop that contains the Task from the delivery vehicle" (`ASSIGNED_TASK_CLOSED_BY_ITS_STOP`);
    ///   "Once you close a task, you may not reopen it" (`TASK_CLOSED`).
    /// - `taskOutcome`: "Once a task is closed, you then finalize it by setting its outcome", so the task
    ///   must be CLOSED (before or by this update: `TASK_NOT_CLOSED`), and "You cannot change the value of
    ///   task_outcome once you set it" (`TASK_OUTCOME_ALREADY_SET`; the same value again is accepted).
    ///   With it, `taskOutcomeTime` defaults to now and `taskOutcomeLocation` to the vehicle's last (raw)
    ///   location ("If this value isn't explicitly updated by the provider, then Fleet Engine populates it
    ///   by default with the last known vehicle location"), `taskOutcomeLocationSource` saying which:
    ///   PROVIDER or LAST_VEHICLE_LOCATION.
    /// - `taskOutcomeTime`, `taskOutcomeLocation`: the outcome's own, so only with an outcome set
    ///   (`TASK_OUTCOME_NOT_SET`); unset in the update, they take their defaults.
    private func apply(_ update: DeliveryTask, paths: [DeliveryTask.FieldPath], to record: inout TaskRecord,
                       vehicle: DeliveryVehicleRecord?, now: Timestamp) throws {
        let id = record.key.id
        if paths.contains(.state) {
            if update.state == .closed, record.isOpen {
                if let vehicleID = record.vehicleID {
                    throw FleetError(.assignedTaskClosedByItsStop,
                                     detail: "task \(id) is on delivery vehicle \(vehicleID): send the vehicle's remainingVehicleJourneySegments without it, which closes it",
                                     field: "task.state")
                }
                record.task.state = .closed
                record.closedAt = now
            } else if update.state == .open, !record.isOpen {
                throw FleetError(.taskClosed, detail: "task \(id) is CLOSED and cannot be reopened", field: "task.state")
            }
        }
        let vehicleLocation = vehicle?.vehicle.lastLocation.flatMap { $0.rawLocation ?? $0.location }
        func outcomeLocation(_ location: LocationInfo?) {
            if let location {
                record.task.taskOutcomeLocation = location
                record.task.taskOutcomeLocationSource = .provider
            } else if let vehicleLocation {
                record.task.taskOutcomeLocation = LocationInfo(point: vehicleLocation)
                record.task.taskOutcomeLocationSource = .lastVehicleLocation
            } else {
                record.task.taskOutcomeLocation = nil
                record.task.taskOutcomeLocationSource = nil
            }
        }
        if let first = paths.first(where: { $0 == .taskOutcome || $0 == .taskOutcomeTime || $0 == .taskOutcomeLocation }), record.isOpen {
            throw FleetError(.taskNotClosed, detail: "task \(id) is OPEN", field: "task.\(first)")
        }
        let hadOutcome = record.task.taskOutcome.map { $0 != .taskOutcomeUnspecified } ?? false
        for path in paths {
            switch path {
            case .taskOutcome:
                let outcome = update.taskOutcome ?? .taskOutcomeUnspecified
                if hadOutcome, let current = record.task.taskOutcome {
                    guard current == outcome else {
                        throw FleetError(.taskOutcomeAlreadySet, detail: "task \(id)'s outcome is \(current.name); it cannot become \(outcome.name)",
                                         field: "task.taskOutcome")
                    }
                    continue
                }
                record.task.taskOutcome = outcome
                if !paths.contains(.taskOutcomeTime) { record.task.taskOutcomeTime = now }
                if !paths.contains(.taskOutcomeLocation) { outcomeLocation(nil) }
            case .taskOutcomeTime, .taskOutcomeLocation:
                guard hadOutcome || paths.contains(.taskOutcome) else {
                    throw FleetError(.taskOutcomeNotSet, detail: "task \(id) has no outcome yet", field: "task.\(path)")
                }
                if path == .taskOutcomeTime {
                    record.task.taskOutcomeTime = update.taskOutcomeTime ?? now
                } else {
                    outcomeLocation(update.taskOutcomeLocation)
                }
            case .targetTimeWindow:
                record.task.targetTimeWindow = update.targetTimeWindow
            case .taskTrackingViewConfig:
                record.task.taskTrackingViewConfig = update.taskTrackingViewConfig
            case .attributes:
                record.task.attributes = Self.storedAttributes(update.attributes)
            case .state:
                break // above: the outcome depends on it
            case .name, .deliveryVehicleId, .journeySharingInfo, .taskOutcomeLocationSource:
                throw UpdateMask.serverOwned(path)
            case .type, .trackingId, .plannedLocation, .taskDuration:
                throw immutable(path)
            }
        }
    }

    // MARK: Checks

    /// A time window: "Required. The start time of the time window (inclusive)", the same of the end,
    /// and the start not after the end.
    func checkTimeWindow(_ window: TimeWindow, field: String) throws {
        guard let start = window.startTime else {
            throw FleetError.invalidArgument("\(field).startTime is required", field: "\(field).startTime")
        }
        guard let end = window.endTime else {
            throw FleetError.invalidArgument("\(field).endTime is required", field: "\(field).endTime")
        }
        guard start <= end else {
            throw FleetError.invalidArgument("\(field).startTime (\(start)) is after \(field).endTime (\(end))", field: "\(field).endTime")
        }
    }

    /// A tracking view configuration: `always` and `never` "cannot be set to false", thresholds are not negative.
    func checkViewConfig(_ config: TaskTrackingViewConfig, field: String) throws {
        let options: [(String, TaskTrackingViewConfig.VisibilityOption?)] = [
            ("routePolylinePointsVisibility", config.routePolylinePointsVisibility),
            ("estimatedArrivalTimeVisibility", config.estimatedArrivalTimeVisibility),
            ("estimatedTaskCompletionTimeVisibility", config.estimatedTaskCompletionTimeVisibility),
            ("remainingDrivingDistanceVisibility", config.remainingDrivingDistanceVisibility),
            ("remainingStopCountVisibility", config.remainingStopCountVisibility),
            ("vehicleLocationVisibility", config.vehicleLocationVisibility),
        ]
        for (name, option) in options {
            let path = "\(field).\(name)"
            switch option?.visibilityOption {
            case .always(false)?:
                throw FleetError.invalidArgument("\(path).always cannot be set to false; leave it out, or set another option", field: "\(path).always")
            case .never(false)?:
                throw FleetError.invalidArgument("\(path).never cannot be set to false; leave it out, or set another option", field: "\(path).never")
            case .remainingStopCountThreshold(let n)? where n < 0:
                throw FleetError.invalidArgument("\(path).remainingStopCountThreshold must not be negative, got \(n)",
                                                 field: "\(path).remainingStopCountThreshold")
            case .remainingDrivingDistanceMetersThreshold(let m)? where m < 0:
                throw FleetError.invalidArgument("\(path).remainingDrivingDistanceMetersThreshold must not be negative, got \(m)",
                                                 field: "\(path).remainingDrivingDistanceMetersThreshold")
            case .durationUntilEstimatedArrivalTimeThreshold(let d)? where d.timeInterval < 0:
                throw FleetError.invalidArgument("\(path).durationUntilEstimatedArrivalTimeThreshold must not be negative, got \(d)",
                                                 field: "\(path).durationUntilEstimatedArrivalTimeThreshold")
            default:
                continue
            }
        }
    }

    /// Attributes as stored: "If none are set the TaskAttribute string_value will be stored as the empty string".
    static func storedAttributes(_ attributes: [TaskAttribute]) -> [TaskAttribute] {
        attributes.map { attribute in
            var a = attribute
            if a.taskAttributeValue == nil { a.stringValue = "" }
            return a
        }
    }

    // MARK: Views

    /// The task as calls return it: with `journeySharingInfo` while it is OPEN on a vehicle ("Not
    /// populated when state is CLOSED"): the segments up to and including its stop ("the stops that the
    /// assigned vehicle will make before it completes this Task. Note that this list can contain stops
    /// from other tasks"), the first from the vehicle's last location, with its remaining distance,
    /// duration and path; the stops themselves are left out ("This field won't be populated in the
    /// response of a GetTask call").
    func taskView(_ record: TaskRecord, vehicle: DeliveryVehicleRecord?) -> DeliveryTask {
        var task = record.task
        task.journeySharingInfo = nil
        guard record.isOpen, let vehicle, vehicle.key.id == record.vehicleID,
              let index = vehicle.stopIndex(ofTask: record.key.id) else { return task }
        task.journeySharingInfo = DeliveryTask.JourneySharingInfo(
            remainingVehicleJourneySegments: journeySegments(vehicle, through: index),
            lastLocation: vehicle.vehicle.lastLocation,
            lastLocationSnappable: vehicle.tracking.snappable ?? false)
        return task
    }

    /// The vehicle's remaining segments up to and including stop `index`, without their stops: the first
    /// from the vehicle's last location ("populated with the value from DeliveryVehicle.remaining_duration"
    /// and the path to the stop), the others as measured between the stops.
    func journeySegments(_ vehicle: DeliveryVehicleRecord, through index: Int) -> [VehicleJourneySegment] {
        let segments = vehicle.vehicle.remainingVehicleJourneySegments
        let paths = Self.legPaths(vehicle)
        return (0...index).map { i in
            if i == 0 {
                return VehicleJourneySegment(drivingDistanceMeters: vehicle.vehicle.remainingDistanceMeters,
                                             drivingDuration: vehicle.vehicle.remainingDuration,
                                             path: pathToNextStop(vehicle))
            }
            return VehicleJourneySegment(drivingDistanceMeters: segments[i].drivingDistanceMeters,
                                         drivingDuration: segments[i].drivingDuration,
                                         path: i < paths.count ? paths[i] : [])
        }
    }
}
