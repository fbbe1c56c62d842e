import FleetErrors
import FleetGeo
import FleetInterface
import FleetModel
import FleetStore

// Deliveries (Fleet Engine's Last Mile API) on the engine: delivery vehicles and their stops, which
// assign tasks (Engine+Tasks) and feed what the person waiting sees (Engine+TaskTracking).
extension Engine {
    /// CreateDeliveryVehicle without waiting for the store, as `updateVehicle(_:completion:)`.
    public func createDeliveryVehicle(_ request: CreateDeliveryVehicleRequest,
                                      completion: @escaping @Sendable (Result<DeliveryVehicle, any Error>) -> Void) {
        transact(preparing: { try deliveryVehicleCreation(request) }, completion: completion)
    }

    /// The checked request as the body of a write: the first attempt writes blind at version 0, which
    /// conflicts if the vehicle exists; a retry looks.
    ///
    /// Google: "When creating a new delivery vehicle, you may set the following optional fields: type,
    /// last_location, attributes. Note: The DeliveryVehicle's `name` field is ignored. All other
    /// DeliveryVehicle fields must not be set; otherwise, an error is returned."
    private func deliveryVehicleCreation(_ request: CreateDeliveryVehicleRequest) throws -> TransactionBody<DeliveryVehicle> {
        try Validate.values(of: request)
        let parent = try ProviderName(parsing: request.parent ?? "", field: "parent")
        let id = try requiredID(request.deliveryVehicleId, field: "deliveryVehicleId")
        let name = try DeliveryVehicleName(provider: parent.provider, deliveryVehicleID: id, field: "deliveryVehicleId")
        let input = request.deliveryVehicle ?? DeliveryVehicle()
        let refused: [(field: String, isSet: Bool)] = [
            ("pastLocations", !input.pastLocations.isEmpty),
            ("navigationStatus", input.navigationStatus.map { $0 != .unknownNavigationStatus } ?? false),
            ("currentRouteSegment", input.hasDriverRoute),
            ("currentRouteSegmentEndPoint", input.currentRouteSegmentEndPoint != nil),
            ("remainingDistanceMeters", input.remainingDistanceMeters != nil),
            ("remainingDuration", input.remainingDuration != nil),
            ("remainingVehicleJourneySegments", !input.remainingVehicleJourneySegments.isEmpty),
        ]
        if let field = refused.first(where: \.isSet)?.field {
            throw FleetError.invalidArgument(
                "deliveryVehicle.\(field) cannot be set by CreateDeliveryVehicle, which takes only type, lastLocation and attributes; set \(field) with UpdateDeliveryVehicle",
                field: "deliveryVehicle.\(field)")
        }
        if input.lastLocation != nil { try checkDeliveryLocation(input.lastLocation, field: "deliveryVehicle.lastLocation") }
        try Validate.attributes(input.attributes, field: "deliveryVehicle.attributes")

        let now = clock.now()
        let vehicle = DeliveryVehicle(name: name.description, lastLocation: input.lastLocation,
                                      attributes: input.attributes, type: Self.deliveryVehicleType(input.type))
        var record = DeliveryVehicleRecord(vehicle: vehicle, version: 0, key: deliveryVehicleKey(name))
        acceptDeliveryLocation(&record, now: now)
        refreshDeliveryProgress(&record, now: now, newLocation: record.vehicle.lastLocation != nil)
        record.tracking.updatedAt = now
        record.encodeStops()
        return { [self, record] isFirstAttempt in
            if !isFirstAttempt, try store.get(record.key) != nil {
                throw FleetError(.alreadyExists, detail: name.description, field: "deliveryVehicleId")
            }
            return ([.save(record)], deliveryVehicleView(record))
        }
    }

    /// GetDeliveryVehicle: the vehicle with its stops, each task's duration and target time window
    /// ("only set in the response to GetDeliveryVehicle"), read with the vehicle in one snapshot.
    public func getDeliveryVehicle(_ request: GetDeliveryVehicleRequest) throws -> DeliveryVehicle {
        try Validate.values(of: request)
        let name = try DeliveryVehicleName(parsing: request.name ?? "", field: "name")
        let key = deliveryVehicleKey(name)
        let (record, windows) = try store.withSnapshot { snapshot in
            guard let stored = try snapshot.get(key) else { throw deliveryVehicleNotFound(key) }
            let record = try records.deliveryVehicle(stored)
            var windows: [String: TimeWindow] = [:]
            for id in record.stopTaskIDs.joined() {
                let task = try snapshot.get(RecordKey(.task, provider: name.provider, id: id)).map(TaskRecord.init)
                if let window = task?.task.targetTimeWindow { windows[id] = window }
            }
            return (record, windows)
        }
        return deliveryVehicleView(record, targetTimeWindows: windows)
    }

    /// DeleteDeliveryVehicle without waiting for the store, as `updateVehicle(_:completion:)`.
    public func deleteDeliveryVehicle(_ request: DeleteDeliveryVehicleRequest,
                                      completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        transact(preparing: { try deliveryVehicleDeletion(request) }, completion: completion)
    }

    /// Google: "Returns FAILED_PRECONDITION if the DeliveryVehicle has OPEN Tasks assigned to it." A
    /// task stays OPEN on its vehicle exactly while one of the vehicle's remaining stops lists it
    /// (leaving the stops closes it), so the stops say which.
    private func deliveryVehicleDeletion(_ request: DeleteDeliveryVehicleRequest) throws -> TransactionBody<Void> {
        try Validate.values(of: request)
        let name = try DeliveryVehicleName(parsing: request.name ?? "", field: "name")
        return { [self] _ in
            let record = try requireDeliveryVehicle(deliveryVehicleKey(name))
            let open = Array(record.stopTaskIDs.joined())
            guard open.isEmpty else {
                throw FleetError(.deliveryVehicleHasOpenTasks,
                                 detail: "\(name) has OPEN tasks \(open.joined(separator: ", ")) on its remaining stops; send remainingVehicleJourneySegments without them (which closes them) first",
                                 field: "name")
            }
            return ([.delete(record.key, expectedVersion: record.version)], ())
        }
    }

    /// UpdateDeliveryVehicle without waiting for the store, as `updateVehicle(_:completion:)`: the
    /// Driver SDK's location reports come this way.
    public func updateDeliveryVehicle(_ request: UpdateDeliveryVehicleRequest,
                                      completion: @escaping @Sendable (Result<DeliveryVehicle, any Error>) -> Void) {
        transact(preparing: { try deliveryVehicleUpdate(request) }, completion: completion)
    }

    /// UpdateDeliveryVehicle without waiting for the store, for a server: as
    /// `updateDeliveryVehicle(_:completion:)`, but `completion` gets the response as its proto3 JSON
    /// text (enums by name), its stops from the text this process keeps of them
    /// (`DeliveryVehicleRecord.encodedStops`): a location report writes no stop.
    public func updateDeliveryVehicleJSON(_ request: UpdateDeliveryVehicleRequest,
                                          completion: @escaping @Sendable (Result<[UInt8], any Error>) -> Void) {
        transact(preparing: {
            try deliveryVehicleUpdate(request) { [self] record, taskWrites in
                // The vehicle's fields are written once, for the record and for the answer.
                let fields = record.vehicleFieldsText
                return ([.deliveryVehicle(record, vehicleFields: fields)] + taskWrites, deliveryVehicleJSON(record, storedFields: fields))
            }
        }, completion: completion)
    }

    /// The checked request as the body of a read-modify-write.
    private func deliveryVehicleUpdate(_ request: UpdateDeliveryVehicleRequest) throws -> TransactionBody<DeliveryVehicle> {
        try deliveryVehicleUpdate(request) { [self] record, taskWrites in ([.save(record)] + taskWrites, deliveryVehicleView(record)) }
    }

    /// The checked request as the body of a read-modify-write, which `finish` turns into the writes
    /// and the result. The vehicle and the tasks its stops assign or close are written in one commit.
    private func deliveryVehicleUpdate<Result>(
        _ request: UpdateDeliveryVehicleRequest,
        finish: @escaping @Sendable (DeliveryVehicleRecord, _ taskWrites: [EngineWrite]) -> (writes: [EngineWrite], result: Result)
    ) throws -> TransactionBody<Result> {
        try Validate.values(of: request)
        guard let update = request.deliveryVehicle else {
            throw FleetError.invalidArgument("deliveryVehicle is required", field: "deliveryVehicle")
        }
        let name = try DeliveryVehicleName(parsing: update.name ?? "", field: "deliveryVehicle.name")
        let paths = try UpdateMask.paths(request.updateMask, of: DeliveryVehicle.self)
        try checkDeliveryVehicleUpdate(update, paths: paths)
        let key = deliveryVehicleKey(name)
        return { [self] isFirstAttempt in
            var record = try requireDeliveryVehicle(key, firstAttempt: isFirstAttempt)
            let now = clock.now()
            let taskWrites = try apply(update, paths: paths, to: &record, now: now)
            record.tracking.updatedAt = now
            record.encodeStops()
            return finish(record, taskWrites)
        }
    }

    /// ListDeliveryVehicles: the provider's delivery vehicles in ID order, those whose attributes match
    /// `filter` (attributes only: `attributes.<key> = "value"`, at most 50 restrictions) and whose last
    /// location lies in `viewport`, without their stops ("This field won't be populated in the response
    /// of ListDeliveryVehicles").
    public func listDeliveryVehicles(_ request: ListDeliveryVehiclesRequest) throws -> ListDeliveryVehiclesResponse {
        try Validate.values(of: request)
        let parent = try ProviderName(parsing: request.parent ?? "", field: "parent")
        let pageSize = try pageSize(request.pageSize, field: "pageSize")
        let filter = try AttributeFilter(filter: request.filter)
        if let viewport = request.viewport {
            try Validate.latLng(viewport.low, field: "viewport.low")
            try Validate.latLng(viewport.high, field: "viewport.high")
        }
        let after = try PageToken.decode(request.pageToken, field: "pageToken")
        var page: [DeliveryVehicle] = []
        var lastID: String?
        var hasMore = false
        var total = 0
        try forEachRecord(.deliveryVehicle, provider: parent.provider) { stored in
            let record = try records.deliveryVehicle(stored)
            guard filter.matches(record.vehicle.attributes) else { return }
            if let viewport = request.viewport, !viewport.contains(record.vehicle.lastLocation?.location) { return }
            total += 1
            if let after, stored.key.id <= after { return }
            if page.count < pageSize {
                var vehicle = deliveryVehicleView(record)
                vehicle.remainingVehicleJourneySegments = []
                page.append(vehicle)
                lastID = stored.key.id
            } else {
                hasMore = true
            }
        }
        return ListDeliveryVehiclesResponse(deliveryVehicles: page, nextPageToken: hasMore ? lastID.map(PageToken.encode) : nil,
                                            totalSize: Int64(total))
    }

    // MARK: Updates

    /// Checks the values an update sets before any store access.
    private func checkDeliveryVehicleUpdate(_ v: DeliveryVehicle, paths: [DeliveryVehicle.FieldPath]) throws {
        for path in paths {
            switch path {
            case .name:
                // "You cannot update the name of the DeliveryVehicle."
                throw UpdateMask.serverOwned(path)
            case .lastLocation:
                try checkDeliveryLocation(v.lastLocation, field: "deliveryVehicle.lastLocation")
            case .remainingVehicleJourneySegments:
                try checkStops(v.remainingVehicleJourneySegments, field: "deliveryVehicle.remainingVehicleJourneySegments")
            case .attributes:
                try Validate.attributes(v.attributes, field: "deliveryVehicle.attributes")
            case .remainingDistanceMeters:
                if let d = v.remainingDistanceMeters, d < 0 {
                    throw FleetError.invalidArgument("deliveryVehicle.remainingDistanceMeters must not be negative, got \(d)",
                                                     field: "deliveryVehicle.remainingDistanceMeters")
                }
            case .remainingDuration:
                if let d = v.remainingDuration, d.timeInterval < 0 {
                    throw FleetError.invalidArgument("deliveryVehicle.remainingDuration must not be negative, got \(d)",
                                                     field: "deliveryVehicle.remainingDuration")
                }
            case .currentRouteSegmentEndPoint:
                if let point = v.currentRouteSegmentEndPoint {
                    try Validate.latLng(point, field: "deliveryVehicle.currentRouteSegmentEndPoint")
                }
            case .pastLocations, .navigationStatus, .currentRouteSegment, .type:
                break // any value will do
            }
        }
    }

    /// Applies the masked fields of `update` to a stored vehicle, refreshes what derives from them, and
    /// returns the writes of the tasks its stops assigned or closed.
    private func apply(_ update: DeliveryVehicle, paths: [DeliveryVehicle.FieldPath],
                       to record: inout DeliveryVehicleRecord, now: Timestamp) throws -> [EngineWrite] {
        var taskWrites: [EngineWrite] = []
        var newLocation = false
        var progressInputsChanged = false
        for path in paths {
            switch path {
            case .lastLocation:
                record.vehicle.lastLocation = update.lastLocation
                acceptDeliveryLocation(&record, now: now)
                newLocation = true
                progressInputsChanged = true
            case .pastLocations:
                break // input only: locations the device could not send; the last one wins.
            case .navigationStatus:
                record.vehicle.navigationStatus = update.navigationStatus
            case .currentRouteSegment:
                let route = update.hasDriverRoute ? update.currentRouteSegment : nil
                if route != record.vehicle.currentRouteSegment {
                    record.vehicle.currentRouteSegment = route
                    record.tracking.travelledMeters = nil
                    record.vehicle.currentRouteSegmentEndPoint = nil
                }
                if paths.contains(.currentRouteSegmentEndPoint), route != nil {
                    record.vehicle.currentRouteSegmentEndPoint = update.currentRouteSegmentEndPoint
                }
                progressInputsChanged = true
            case .currentRouteSegmentEndPoint:
                // "This field is ignored in UpdateDeliveryVehicle calls if the current_route_segment field is empty."
                if !paths.contains(.currentRouteSegment), record.vehicle.hasDriverRoute {
                    record.vehicle.currentRouteSegmentEndPoint = update.currentRouteSegmentEndPoint
                }
            case .remainingDistanceMeters, .remainingDuration:
                break // the driver's navigation figures, taken after the engine's below
            case .remainingVehicleJourneySegments:
                taskWrites += try assignStops(update.remainingVehicleJourneySegments, to: &record, now: now)
                progressInputsChanged = true
            case .attributes:
                record.vehicle.attributes = update.attributes
            case .type:
                record.vehicle.type = Self.deliveryVehicleType(update.type)
            case .name:
                throw UpdateMask.serverOwned(path)
            }
        }
        let measured = progressInputsChanged && refreshDeliveryProgress(&record, now: now, newLocation: newLocation)
        // The driver app's figures for its own route win over the engine's; "Fleet Engine ignores this
        // field in UpdateDeliveryVehicleRequest if the current_route_segment field is empty."
        if record.vehicle.hasDriverRoute {
            if paths.contains(.remainingDistanceMeters) { record.vehicle.remainingDistanceMeters = update.remainingDistanceMeters }
            if paths.contains(.remainingDuration) { record.vehicle.remainingDuration = update.remainingDuration }
            if measured { record.vehicle.takeFirstLegFromRemaining() }
        }
        return taskWrites
    }

    // MARK: Stops and assignment

    /// Checks a vehicle's stops before any store access: each has a planned location and at least one
    /// task, no task is listed twice, and only the first stop may be ENROUTE or ARRIVED (Google:
    /// ARRIVED "Assumes that when the Vehicle is routing to the next stop, that all previous stops have
    /// been completed", and completed stops leave the list).
    func checkStops(_ segments: [VehicleJourneySegment], field: String) throws {
        var listedAt: [String: String] = [:]
        for (i, segment) in segments.enumerated() {
            let path = "\(field)[\(i)].stop"
            guard let stop = segment.stop else {
                throw FleetError.invalidArgument("\(path) is required", field: path)
            }
            guard stop.plannedLocation?.point != nil else {
                throw FleetError.invalidArgument("\(path).plannedLocation is required: where the vehicle stops", field: "\(path).plannedLocation")
            }
            try Validate.latLng(stop.plannedLocation?.point, field: "\(path).plannedLocation.point")
            guard !stop.tasks.isEmpty else {
                throw FleetError.invalidArgument("\(path).tasks is required: the tasks done at the stop (one or more)", field: "\(path).tasks")
            }
            for (j, info) in stop.tasks.enumerated() {
                let taskField = "\(path).tasks[\(j)].taskId"
                let id = try requiredID(info.taskId, field: taskField)
                try ResourceID.validate(id, field: taskField)
                if let first = listedAt[id] {
                    throw FleetError.invalidArgument("task \(id) is listed twice, at \(first) and at \(taskField); a task is done at one stop",
                                                     field: taskField)
                }
                listedAt[id] = taskField
            }
            let state = Self.stopState(stop.state)
            if i > 0, state == .enroute || state == .arrived {
                throw FleetError.invalidArgument(
                    "\(path).state is \(state.name), but only the first remaining stop can be ENROUTE or ARRIVED: a vehicle on its way to a later stop has completed the stops before it, and completed stops leave remainingVehicleJourneySegments",
                    field: "\(path).state")
            }
        }
    }

    /// Makes `requested` the vehicle's remaining stops and returns the writes of the tasks that changes.
    ///
    /// Google: the list "must contain all of the VehicleJourneySegments to be persisted on the
    /// DeliveryVehicle. The task_ids are retrieved from remaining_vehicle_journey_segments, and their
    /// corresponding Tasks are assigned to the DeliveryVehicle if they have not yet been assigned." A
    /// task newly listed must exist (NOT_FOUND), be OPEN (`TASK_CLOSED`) and be on no other vehicle
    /// (`TASK_ON_ANOTHER_VEHICLE`: "To change a shipment from one vehicle to another, close the original
    /// task and recreate it"); it gets the vehicle as its `deliveryVehicleId`. A task left out is
    /// closed, keeping its vehicle: "remove the VehicleStop that contains the Task from the delivery
    /// vehicle, which automatically sets the Task state to CLOSED". A stop keeps or advances its state,
    /// except that a stop the vehicle was routing to (ENROUTE) may become NEW again when the driver
    /// goes elsewhere first; one it ARRIVED at stays ARRIVED until it leaves the list (`STOP_STATE_BACKWARDS`).
    private func assignStops(_ requested: [VehicleJourneySegment], to record: inout DeliveryVehicleRecord,
                             now: Timestamp) throws -> [EngineWrite] {
        let field = "deliveryVehicle.remainingVehicleJourneySegments"
        let provider = record.key.provider
        let vehicleID = record.key.id
        let old = record.vehicle.remainingVehicleJourneySegments
        var oldState: [String: VehicleStop.State] = [:]
        var oldInfo: [String: VehicleStop.TaskInfo] = [:]
        for segment in old {
            for info in segment.stop?.tasks ?? [] {
                guard let id = info.taskId else { continue }
                oldState[id] = Self.stopState(segment.stop?.state)
                oldInfo[id] = info
            }
        }
        var writes: [EngineWrite] = []
        var listed = Set<String>()
        var segments: [VehicleJourneySegment] = []
        for (i, segment) in requested.enumerated() {
            let stop = segment.stop ?? VehicleStop()
            let state = Self.stopState(stop.state)
            if state != .arrived, let arrived = stop.tasks.first(where: { $0.taskId.flatMap { oldState[$0] } == .arrived }) {
                throw FleetError(.stopStateBackwards,
                                 detail: "the vehicle ARRIVED at the stop of task \(arrived.taskId ?? ""); it cannot become \(state.name) again",
                                 field: "\(field)[\(i)].stop.state")
            }
            var infos: [VehicleStop.TaskInfo] = []
            for (j, info) in stop.tasks.enumerated() {
                let id = info.taskId ?? ""
                listed.insert(id)
                if let kept = oldInfo[id] {
                    infos.append(kept)
                    continue
                }
                let taskField = "\(field)[\(i)].stop.tasks[\(j)].taskId"
                let key = RecordKey(.task, provider: provider, id: id)
                guard var task = try loadTask(key) else { throw taskNotFound(key, field: taskField) }
                guard task.isOpen else {
                    throw FleetError(.taskClosed, detail: "task \(id) is CLOSED and cannot be assigned", field: taskField)
                }
                if let other = task.vehicleID, other != vehicleID {
                    throw FleetError(.taskOnAnotherVehicle, detail: "task \(id) is on delivery vehicle \(other)", field: taskField)
                }
                task.task.deliveryVehicleId = vehicleID
                task.updatedAt = now
                writes.append(.save(task))
                infos.append(VehicleStop.TaskInfo(taskId: id, taskDuration: task.task.taskDuration))
            }
            var kept = VehicleJourneySegment(stop: VehicleStop(plannedLocation: stop.plannedLocation, tasks: infos, state: state))
            // The legs measured to a stop still at the same place stay until the stops are measured again.
            if i < old.count, old[i].stop?.plannedLocation == stop.plannedLocation {
                kept.drivingDistanceMeters = old[i].drivingDistanceMeters
                kept.drivingDuration = old[i].drivingDuration
            }
            segments.append(kept)
        }
        for id in oldInfo.keys.sorted() where !listed.contains(id) {
            guard var task = try loadTask(RecordKey(.task, provider: provider, id: id)), task.isOpen else { continue }
            task.task.state = .closed
            task.closedAt = now
            task.updatedAt = now
            writes.append(.save(task))
        }
        record.vehicle.remainingVehicleJourneySegments = segments
        return writes
    }

    /// A stop's state as stored: unset is NEW ("Created, but not actively routing").
    static func stopState(_ state: VehicleStop.State?) -> VehicleStop.State {
        guard let state, state != .stateUnspecified else { return .new }
        return state
    }

    /// A delivery vehicle's type: "If unset, this will default to AUTO."
    static func deliveryVehicleType(_ type: DeliveryVehicle.DeliveryVehicleType?) -> DeliveryVehicle.DeliveryVehicleType {
        guard let type, type != .deliveryVehicleTypeUnspecified else { return .auto }
        return type
    }

    // MARK: Locations

    /// A reported location: a valid position, and no sensor Fleet Engine keeps for itself
    /// (`FLEET_ENGINE_LOCATION`: "This value will be rejected if it is received in a request").
    func checkDeliveryLocation(_ location: DeliveryVehicleLocation?, field: String) throws {
        guard let location else { throw FleetError.invalidArgument("\(field) is required when named in updateMask", field: field) }
        try Validate.latLng(location.location, field: "\(field).location")
        let sensors: [(String, DeliveryVehicleLocationSensor?)] = [
            ("locationSensor", location.locationSensor), ("rawLocationSensor", location.rawLocationSensor),
            ("supplementalLocationSensor", location.supplementalLocationSensor),
        ]
        for (name, sensor) in sensors where sensor == .fleetEngineLocation {
            throw FleetError.invalidArgument("\(field).\(name) may not be FLEET_ENGINE_LOCATION: Fleet Engine sets it on locations it estimates",
                                             field: "\(field).\(name)")
        }
    }

    /// Stamps a new last location with the server's time (`serverTime`, output only), drops its
    /// input-only fields, and marks the write as one the position history keeps (when the engine
    /// keeps one).
    func acceptDeliveryLocation(_ record: inout DeliveryVehicleRecord, now: Timestamp) {
        guard var location = record.vehicle.lastLocation else { return }
        location.serverTime = now
        if location.updateTime == nil { location.updateTime = now }
        location.isGpsSensorEnabled = nil
        location.timeSinceUpdate = nil
        location.numStaleUpdates = nil
        record.vehicle.lastLocation = location
        record.addsHistoryPoint = configuration.keepsHistory
    }

    // MARK: Views

    /// The vehicle as calls return it: input-only fields left out, attributes in both spellings, each
    /// segment's path, and the tasks' target time windows when given (GetDeliveryVehicle only).
    func deliveryVehicleView(_ record: DeliveryVehicleRecord, targetTimeWindows: [String: TimeWindow] = [:]) -> DeliveryVehicle {
        var vehicle = Self.answeredFields(record.vehicle)
        let paths = Self.legPaths(record)
        for i in vehicle.remainingVehicleJourneySegments.indices {
            vehicle.remainingVehicleJourneySegments[i].path = i < paths.count ? paths[i] : []
            guard !targetTimeWindows.isEmpty, var stop = vehicle.remainingVehicleJourneySegments[i].stop else { continue }
            for j in stop.tasks.indices {
                stop.tasks[j].targetTimeWindow = stop.tasks[j].taskId.flatMap { targetTimeWindows[$0] }
            }
            vehicle.remainingVehicleJourneySegments[i].stop = stop
        }
        return vehicle
    }

    /// `deliveryVehicleView(record)` as proto3 JSON text (enums by name), its stops the text the
    /// record keeps of them (written again only when they changed), its other fields `storedFields`
    /// (``DeliveryVehicleRecord/vehicleFieldsText``) when the answer shows them as stored.
    func deliveryVehicleJSON(_ record: DeliveryVehicleRecord, storedFields: [UInt8]? = nil) -> [UInt8] {
        let vehicle = Self.answeredFields(record.vehicle)
        var writer = ProtoJSONTextWriter()
        writer.writeObject { writer in
            if let storedFields, vehicle.pastLocations == record.vehicle.pastLocations, vehicle.attributes == record.vehicle.attributes {
                writer.writeMembersText(storedFields)
                if let text = record.currentStops.answered { writer.writeJSONText("remainingVehicleJourneySegments", text) }
            } else {
                EncodedStops.write(vehicle, stops: record.currentStops.answered, to: &writer)
            }
        }
        return writer.bytes
    }

    /// The vehicle's fields as calls answer them: input-only fields left out, attributes in both spellings.
    private static func answeredFields(_ stored: DeliveryVehicle) -> DeliveryVehicle {
        var vehicle = stored
        vehicle.pastLocations = []
        vehicle.attributes = vehicle.attributes.map(\.forResponse)
        return vehicle
    }

    /// Each segment's measured path (empty where none was measured): decoded once per change of the
    /// stops when the record keeps their text (`encodedStops`), else now.
    static func legPaths(_ record: DeliveryVehicleRecord) -> [[LatLng]] {
        if let stops = record.encodedStops, stops.holds(for: record) { return stops.paths }
        return EncodedStops.paths(record.tracking.legPaths, segments: record.vehicle.remainingVehicleJourneySegments.count)
    }
}
