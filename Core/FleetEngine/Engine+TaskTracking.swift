import FleetErrors
import FleetInterface
import FleetModel
import FleetStore

// GetTaskTrackingInfo: what the person waiting for a shipment sees, by its tracking ID.
extension Engine: TaskTrackingJSONReading {
    /// The task tracking info of a tracking ID: of the tasks that carry it, the one Fleet Engine would
    /// pick ("If a tracking ID is associated with multiple Tasks, Fleet Engine uses a heuristic to decide
    /// which Task's TaskTrackingInfo to select"; see ``shownTask(_:vehicles:)``), with its state, outcome,
    /// planned location, time window and attributes, and, while it is OPEN on a vehicle, the vehicle's
    /// location, its route to the task's stop, the stops left until then (that stop included), the
    /// remaining driving distance, the arrival and completion times, each shown as the task's
    /// `taskTrackingViewConfig` (else the engine's `taskTrackingDefaults`) allows. Nothing of other
    /// tasks is shown beyond the route through their stops.
    ///
    /// - Throws: NOT_FOUND (`TRACKING_ID_NOT_FOUND`) when no task has the tracking ID.
    public func getTaskTrackingInfo(_ request: GetTaskTrackingInfoRequest) throws -> TaskTrackingInfo {
        try readTaskTrackingInfo(request).info
    }

    /// GetTaskTrackingInfo as proto3 JSON text, written as `options` say: the same bytes as
    /// `getTaskTrackingInfo(request).jsonBytes(options:)`, the route joined from the text its vehicle's
    /// stops keep of their legs (``EncodedStops/pathTexts``) rather than written point by point.
    public func getTaskTrackingInfoJSON(_ request: GetTaskTrackingInfoRequest, options: EncodingOptions) throws -> [UInt8] {
        let read = try readTaskTrackingInfo(request, routeAsText: true)
        guard let route = read.routeText else { return read.info.jsonBytes(options: options) }
        var members = RouteSplicingWriter(writer: ProtoJSONTextWriter(options: options), route: route)
        read.info.writeFields(to: &members)
        var writer = ProtoJSONTextWriter(options: options)
        writer.writeObject { $0.writeMembersText(members.writer.bytes) }
        return writer.bytes
    }

    /// GetTaskTrackingInfo's answer with what a watch of it needs: the records it was read from and the
    /// time its arrival and completion times count from.
    struct TaskTrackingRead {
        /// The answer; without its `routePolylinePoints` when read with the route as text.
        var info: TaskTrackingInfo
        /// `routePolylinePoints` as a JSON array, when read with the route as text and it has points.
        var routeText: [UInt8]?
        /// The shipment's index, its tasks and the vehicles of the open ones.
        var keys: Set<RecordKey>
        var now: Timestamp
    }

    /// GetTaskTrackingInfo, with the records read and the time it was answered for; the route as
    /// JSON text (`routeText`) rather than in the info when `routeAsText`.
    func readTaskTrackingInfo(_ request: GetTaskTrackingInfoRequest, routeAsText: Bool = false) throws -> TaskTrackingRead {
        try Validate.values(of: request)
        let name = try TaskTrackingInfoName(parsing: request.name ?? "", field: "name")
        let provider = name.provider
        let shipmentKey = RecordKey(.shipment, provider: provider, id: name.trackingID)
        // The tasks and their vehicles as of one moment, in one read of the store.
        let (tasks, vehicles, keys) = try store.withSnapshot { snapshot in
            var keys: Set<RecordKey> = [shipmentKey]
            var tasks: [TaskRecord] = []
            if let stored = try snapshot.get(shipmentKey) {
                for id in try records.shipment(stored).taskIDs {
                    let key = RecordKey(.task, provider: provider, id: id)
                    keys.insert(key)
                    if let task = try snapshot.get(key) { tasks.append(try records.task(task)) }
                }
            }
            var vehicles: [String: DeliveryVehicleRecord] = [:]
            for task in tasks where task.isOpen {
                guard let id = task.vehicleID else { continue }
                let key = RecordKey(.deliveryVehicle, provider: provider, id: id)
                keys.insert(key)
                guard vehicles[id] == nil, let stored = try snapshot.get(key) else { continue }
                vehicles[id] = try records.deliveryVehicle(stored)
            }
            return (tasks, vehicles, keys)
        }
        guard let shown = shownTask(tasks, vehicles: vehicles) else {
            throw FleetError(.trackingIDNotFound, detail: name.description, field: "name")
        }
        let now = clock.now()
        let task = shown.record.task
        var info = TaskTrackingInfo(name: name.description, trackingId: name.trackingID, state: task.state,
                                    taskOutcome: task.taskOutcome, taskOutcomeTime: task.taskOutcomeTime,
                                    plannedLocation: task.plannedLocation, targetTimeWindow: task.targetTimeWindow,
                                    attributes: task.attributes)
        guard let place = shown.place else { return TaskTrackingRead(info: info, routeText: nil, keys: keys, now: now) }
        let vehicle = place.vehicle
        let stopCount = place.stopIndex + 1
        let forecast = place.forecast
        let visibility = TrackingVisibility(stopCount: stopCount, meters: forecast.meters, seconds: forecast.seconds)
        let config = task.taskTrackingViewConfig ?? TaskTrackingViewConfig()
        let defaults = configuration.taskTrackingDefaults
        func shows(_ option: KeyPath<TaskTrackingViewConfig, TaskTrackingViewConfig.VisibilityOption?>) -> Bool {
            visibility.allows(config[keyPath: option] ?? defaults[keyPath: option])
        }
        if shows(\.vehicleLocationVisibility) {
            info.vehicleLocation = vehicle.vehicle.lastLocation
        }
        var routeText: [UInt8]?
        if shows(\.routePolylinePointsVisibility) {
            if routeAsText {
                routeText = routeJSON(vehicle, through: place.stopIndex)
            } else {
                info.routePolylinePoints = journeySegments(vehicle, through: place.stopIndex).flatMap(\.path)
            }
        }
        if shows(\.remainingStopCountVisibility) {
            info.remainingStopCount = Int32(stopCount)
        }
        if shows(\.remainingDrivingDistanceVisibility), let meters = forecast.meters {
            info.remainingDrivingDistanceMeters = Int32(roundingClamped: meters)
        }
        if let seconds = forecast.seconds {
            if shows(\.estimatedArrivalTimeVisibility) {
                info.estimatedArrivalTime = now.adding(seconds: seconds)
            }
            if shows(\.estimatedTaskCompletionTimeVisibility) {
                // The tasks at the stop are done in their order, this one last of those up to it.
                let tasksAtStop = vehicle.vehicle.remainingVehicleJourneySegments[place.stopIndex].stop?.tasks ?? []
                let upToThis = tasksAtStop.prefix { $0.taskId != shown.record.key.id } + tasksAtStop.filter { $0.taskId == shown.record.key.id }
                let working = upToThis.reduce(0) { $0 + ($1.taskDuration?.timeInterval ?? 0) }
                info.estimatedTaskCompletionTime = now.adding(seconds: seconds + working)
            }
        }
        return TaskTrackingRead(info: info, routeText: routeText, keys: keys, now: now)
    }

    /// The route through the vehicle's stops up to the one at `index` (the paths of
    /// ``journeySegments(_:through:)`` joined) as a JSON array of points, from the text its stops keep
    /// of each leg; nil when it has no point.
    func routeJSON(_ vehicle: DeliveryVehicleRecord, through index: Int) -> [UInt8]? {
        let legs = vehicle.currentStops.pathTexts
        let first = pathToNextStop(vehicle)
        var text: [UInt8] = [UInt8(ascii: "[")]
        if !first.isEmpty { text += ProtoJSONTextWriter.arrayText(first).dropFirst().dropLast() }
        for i in legs.indices.dropFirst().prefix(index) where !legs[i].isEmpty {
            if text.count > 1 { text.append(UInt8(ascii: ",")) }
            text += legs[i]
        }
        guard text.count > 1 else { return nil }
        text.append(UInt8(ascii: "]"))
        return text
    }

    /// Where an OPEN task stands on its vehicle: the vehicle, the index of the task's stop among its
    /// remaining stops, and the distance and time until the vehicle gets there.
    struct TaskPlace {
        let vehicle: DeliveryVehicleRecord
        let stopIndex: Int
        let forecast: StopForecast
    }

    /// Which of a tracking ID's tasks GetTaskTrackingInfo shows: the OPEN task on a vehicle that the
    /// vehicle reaches first (soonest arrival, then fewest stops, then task ID); else an OPEN task on no
    /// vehicle, a PICKUP before a DELIVERY (the shipment is picked up before it is delivered); else the
    /// task closed last. The first is what the person waiting is waiting for; the last says how the
    /// shipment ended. Nil when there is no task.
    func shownTask(_ tasks: [TaskRecord], vehicles: [String: DeliveryVehicleRecord]) -> (record: TaskRecord, place: TaskPlace?)? {
        var best: (rank: ShownRank, record: TaskRecord, place: TaskPlace?)?
        for record in tasks {
            var place: TaskPlace?
            if record.isOpen, let id = record.vehicleID, let vehicle = vehicles[id], let index = vehicle.stopIndex(ofTask: record.key.id) {
                place = TaskPlace(vehicle: vehicle, stopIndex: index, forecast: stopForecasts(vehicle)[index])
            }
            let rank: ShownRank
            if let place {
                rank = ShownRank(group: 0, primary: place.forecast.seconds ?? .infinity, secondary: Double(place.stopIndex), id: record.key.id)
            } else if record.isOpen {
                let order: Double = record.task.type == .pickup ? 0 : record.task.type == .delivery ? 1 : 2
                rank = ShownRank(group: 1, primary: order, secondary: 0, id: record.key.id)
            } else {
                let closed = record.closedAt ?? record.task.taskOutcomeTime ?? record.updatedAt ?? .unixEpoch
                rank = ShownRank(group: 2, primary: -closed.timeIntervalSince1970, secondary: 0, id: record.key.id)
            }
            if best == nil || rank < best!.rank { best = (rank, record, place) }
        }
        return best.map { ($0.record, $0.place) }
    }
}

/// The order in which a tracking ID's tasks are considered for showing: lowest first.
struct ShownRank: Comparable {
    var group: Int
    var primary: Double
    var secondary: Double
    var id: String

    static func < (a: ShownRank, b: ShownRank) -> Bool {
        (a.group, a.primary, a.secondary, a.id) < (b.group, b.primary, b.secondary, b.id)
    }
}

/// What a task's tracking view options are compared with: how far its stop is, in stops, metres and seconds.
struct TrackingVisibility {
    var stopCount: Int
    var meters: Double?
    var seconds: Double?

    /// Whether an element with `option` is shown. No option shows it; a threshold shows it once the
    /// figure is at or under it ("visible to the end users if the remaining stop count <=
    /// remaining_stop_count_threshold", and so on), never while the figure is unknown.
    func allows(_ option: TaskTrackingViewConfig.VisibilityOption?) -> Bool {
        switch option?.visibilityOption {
        case nil: true
        case .always(let always)?: always
        case .never(let never)?: !never
        case .remainingStopCountThreshold(let n)?: stopCount <= Int(n)
        case .remainingDrivingDistanceMetersThreshold(let m)?: meters.map { $0 <= Double(m) } ?? false
        case .durationUntilEstimatedArrivalTimeThreshold(let d)?: seconds.map { $0 <= d.timeInterval } ?? false
        }
    }
}

/// Writes a message's members as `ProtoJSONTextWriter` does, but its `routePolylinePoints` as text
/// written already (``Engine/routeJSON(_:through:)``), in the field's own place among the members.
private struct RouteSplicingWriter: ProtoFieldWriter {
    var writer: ProtoJSONTextWriter
    let route: [UInt8]

    mutating func write<Value: ProtoJSONValue>(_ jsonName: String, _ value: Value?) {
        writer.write(jsonName, value)
    }

    mutating func write<Value: ProtoJSONValue>(_ jsonName: String, _ values: [Value]) {
        if jsonName == "routePolylinePoints" {
            writer.writeJSONText(jsonName, route)
        } else {
            writer.write(jsonName, values)
        }
    }
}
