import FleetErrors
import FleetInterface
import FleetModel
import FleetStore

// GetTaskTrackingInfo: what the person waiting for a shipment sees, by its tracking ID.
extension Engine: TaskTrackingAnswering {
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
    /// Answered from a kept answer while its records are unchanged (``trackingAnswer(_:encoding:)``).
    public func getTaskTrackingInfoJSON(_ request: GetTaskTrackingInfoRequest, options: EncodingOptions) throws -> [UInt8] {
        try trackingAnswer(request, encoding: .json(options))
    }

    /// GetTaskTrackingInfo as binary protobuf: the same bytes as `getTaskTrackingInfo(request).protobufBytes()`,
    /// answered from a kept answer while its records are unchanged (``trackingAnswer(_:encoding:)``).
    public func getTaskTrackingInfoProtobuf(_ request: GetTaskTrackingInfoRequest) throws -> [UInt8] {
        try trackingAnswer(request, encoding: .protobuf)
    }

    /// GetTaskTrackingInfo encoded. The answer is kept (``TrackingAnswer``) with the versions of the
    /// records it was made from; the next call reads the same records, in one read of the store as
    /// always, and when every version is the same answers with the kept bytes and the times of now,
    /// decoding and encoding nothing else. A write by any process changes a version, so it is seen at once.
    func trackingAnswer(_ request: GetTaskTrackingInfoRequest, encoding: TrackingAnswer.Encoding) throws -> [UInt8] {
        try Validate.values(of: request)
        let name = try TaskTrackingInfoName(parsing: request.name ?? "", field: "name")
        let key = TrackingAnswerCache.Key(shipment: shipmentKey(name), encoding: encoding)
        let kept = trackingAnswers.answer(for: key)
        guard let shipment = try readShipment(name, unlessStill: kept) else { return kept!.bytes(now: clock.now()) }
        let routeAsText = encoding != .protobuf
        let answer = TrackingAnswer(try taskTrackingRead(name, shipment, routeAsText: routeAsText), encoding: encoding)
        trackingAnswers.remember(answer, for: key)
        return answer.bytes(now: shipment.now)
    }

    /// GetTaskTrackingInfo's answer with what a watch of it needs: the records it was read from and the
    /// time its arrival and completion times count from.
    struct TaskTrackingRead {
        /// The answer; without its `routePolylinePoints` when read with the route as text.
        var info: TaskTrackingInfo
        /// `routePolylinePoints` as a JSON array, when read with the route as text and it has points.
        var routeText: [UInt8]?
        /// The shipment's index, its tasks and the vehicles of the open ones, with their versions.
        var reads: [ReadVersion]
        var now: Timestamp
        /// Seconds from `now` to `info.estimatedArrivalTime` and `info.estimatedTaskCompletionTime`, when set.
        var arrivalSeconds: Double?
        var completionSeconds: Double?

        /// The records read.
        var keys: Set<RecordKey> { Set(reads.map(\.key)) }
    }

    /// A tracking ID's tasks and the vehicles of the open ones, as of one moment.
    struct ShipmentRead {
        var tasks: [TaskRecord]
        var vehicles: [String: DeliveryVehicleRecord]
        var reads: [ReadVersion]
        /// When they were read.
        var now: Timestamp
    }

    func shipmentKey(_ name: TaskTrackingInfoName) -> RecordKey {
        RecordKey(.shipment, provider: name.provider, id: name.trackingID)
    }

    /// GetTaskTrackingInfo, with the records read and the time it was answered for; the route as
    /// JSON text (`routeText`) rather than in the info when `routeAsText`.
    func readTaskTrackingInfo(_ request: GetTaskTrackingInfoRequest, routeAsText: Bool = false) throws -> TaskTrackingRead {
        try Validate.values(of: request)
        let name = try TaskTrackingInfoName(parsing: request.name ?? "", field: "name")
        return try taskTrackingRead(name, try readShipment(name, unlessStill: nil)!, routeAsText: routeAsText)
    }

    /// The shipment's tasks and their vehicles, in one read of the store; nil when `kept` was made
    /// from records all still at the versions it read (checked first, in the same read: a record
    /// found changed is not read twice). Decodes only records not decoded at their version before.
    func readShipment(_ name: TaskTrackingInfoName, unlessStill kept: TrackingAnswer?) throws -> ShipmentRead? {
        let provider = name.provider
        let shipmentKey = shipmentKey(name)
        let read = try store.withSnapshot { snapshot -> (tasks: [TaskRecord], vehicles: [String: DeliveryVehicleRecord], reads: [ReadVersion])? in
            var fetched: [(key: RecordKey, record: StoreRecord?)] = []
            if let kept {
                var current = true
                for read in kept.reads {
                    let record = try snapshot.get(read.key)
                    fetched.append((read.key, record))
                    if record?.version != read.version {
                        current = false
                        break
                    }
                }
                if current { return nil }
            }
            func get(_ key: RecordKey) throws -> StoreRecord? {
                if let hit = fetched.first(where: { $0.key == key }) { return hit.record }
                return try snapshot.get(key)
            }
            let stored = try get(shipmentKey)
            var reads = [ReadVersion(key: shipmentKey, version: stored?.version)]
            var tasks: [TaskRecord] = []
            if let stored {
                for id in try records.shipment(stored).taskIDs {
                    let key = RecordKey(.task, provider: provider, id: id)
                    let task = try get(key)
                    reads.append(ReadVersion(key: key, version: task?.version))
                    if let task { tasks.append(try records.task(task)) }
                }
            }
            var vehicles: [String: DeliveryVehicleRecord] = [:]
            var vehicleKeys: Set<RecordKey> = []
            for task in tasks where task.isOpen {
                guard let id = task.vehicleID else { continue }
                let key = RecordKey(.deliveryVehicle, provider: provider, id: id)
                guard vehicleKeys.insert(key).inserted else { continue }
                let vehicle = try get(key)
                reads.append(ReadVersion(key: key, version: vehicle?.version))
                if let vehicle { vehicles[id] = try records.deliveryVehicle(vehicle) }
            }
            return (tasks, vehicles, reads)
        }
        return read.map { ShipmentRead(tasks: $0.tasks, vehicles: $0.vehicles, reads: $0.reads, now: clock.now()) }
    }

    /// The tracking info of `shipment`'s records (``getTaskTrackingInfo(_:)``).
    func taskTrackingRead(_ name: TaskTrackingInfoName, _ shipment: ShipmentRead, routeAsText: Bool) throws -> TaskTrackingRead {
        let (tasks, vehicles, reads, now) = (shipment.tasks, shipment.vehicles, shipment.reads, shipment.now)
        guard let shown = shownTask(tasks, vehicles: vehicles) else {
            throw FleetError(.trackingIDNotFound, detail: name.description, field: "name")
        }
        let task = shown.record.task
        var info = TaskTrackingInfo(name: name.description, trackingId: name.trackingID, state: task.state,
                                    taskOutcome: task.taskOutcome, taskOutcomeTime: task.taskOutcomeTime,
                                    plannedLocation: task.plannedLocation, targetTimeWindow: task.targetTimeWindow,
                                    attributes: task.attributes)
        guard let place = shown.place else { return TaskTrackingRead(info: info, routeText: nil, reads: reads, now: now) }
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
        var arrivalSeconds: Double?, completionSeconds: Double?
        if let seconds = forecast.seconds {
            if shows(\.estimatedArrivalTimeVisibility) {
                arrivalSeconds = seconds
                info.estimatedArrivalTime = now.adding(seconds: seconds)
            }
            if shows(\.estimatedTaskCompletionTimeVisibility) {
                // The tasks at the stop are done in their order, this one last of those up to it.
                let tasksAtStop = vehicle.vehicle.remainingVehicleJourneySegments[place.stopIndex].stop?.tasks ?? []
                let upToThis = tasksAtStop.prefix { $0.taskId != shown.record.key.id } + tasksAtStop.filter { $0.taskId == shown.record.key.id }
                let working = upToThis.reduce(0) { $0 + ($1.taskDuration?.timeInterval ?? 0) }
                completionSeconds = seconds + working
                info.estimatedTaskCompletionTime = now.adding(seconds: seconds + working)
            }
        }
        return TaskTrackingRead(info: info, routeText: routeText, reads: reads, now: now, arrivalSeconds: arrivalSeconds, completionSeconds: completionSeconds)
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
