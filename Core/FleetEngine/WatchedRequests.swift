import FleetErrors
import FleetModel
import FleetStore

// What each watch reads and follows: a trip, a task, a shipment's tracking info.

extension WatchedRequest {
    /// The request with `field` (its header) cleared.
    func without<Field>(_ field: WritableKeyPath<Self, Field?>) -> Self {
        var request = self
        request[keyPath: field] = nil
        return request
    }
}

extension GetTripRequest: WatchedRequest {
    typealias Message = Trip
    typealias State = Trip

    var feedRequest: Self { without(\.header) }

    func watchedKey(in engine: Engine) throws -> RecordKey {
        try Validate.values(of: self)
        let key = engine.tripKey(try TripName(parsing: name ?? "", field: "name"))
        _ = try engine.requireTrip(key)
        return key
    }

    /// The trip and its vehicle (whose location and route make the trip's remaining distance and ETA).
    func read(from engine: Engine) throws -> WatchedAnswer<GetTripRequest> {
        let trip = try engine.getTrip(self)
        let provider = try TripName(parsing: name ?? "", field: "name").provider
        let vehicle = trip.vehicleId.flatMap { $0.isEmpty ? nil : RecordKey(.vehicle, provider: provider, id: $0) }
        return WatchedAnswer(message: trip, state: trip.watchedState, dependencies: vehicle.map { [$0] } ?? [])
    }
}

extension Trip {
    /// The trip but for the time left to the next waypoint, which changes with the clock alone.
    var watchedState: Trip {
        var trip = self
        trip.remainingTimeToFirstWaypoint = nil
        return trip
    }
}

extension GetTaskRequest: WatchedRequest {
    typealias Message = DeliveryTask
    typealias State = DeliveryTask

    var feedRequest: Self { without(\.header) }

    func watchedKey(in engine: Engine) throws -> RecordKey {
        try Validate.values(of: self)
        let key = engine.taskKey(try TaskName(parsing: name ?? "", field: "name"))
        guard try engine.loadTask(key) != nil else { throw engine.taskNotFound(key) }
        return key
    }

    /// The task and its vehicle (whose location and stops make the task's journey sharing info).
    func read(from engine: Engine) throws -> WatchedAnswer<GetTaskRequest> {
        let task = try engine.getTask(self)
        let provider = try TaskName(parsing: name ?? "", field: "name").provider
        let vehicle = task.deliveryVehicleId.flatMap { $0.isEmpty ? nil : RecordKey(.deliveryVehicle, provider: provider, id: $0) }
        return WatchedAnswer(message: task, state: task, dependencies: vehicle.map { [$0] } ?? [])
    }
}

extension GetTaskTrackingInfoRequest: WatchedRequest {
    typealias Message = TaskTrackingInfo
    typealias State = TaskTrackingState

    var feedRequest: Self { without(\.header) }

    func watchedKey(in engine: Engine) throws -> RecordKey {
        let name = try TaskTrackingInfoName(parsing: name ?? "", field: "name")
        _ = try engine.getTaskTrackingInfo(self)
        return RecordKey(.shipment, provider: name.provider, id: name.trackingID)
    }

    /// The tracking info, the tracking ID's tasks and the vehicles of the open ones.
    func read(from engine: Engine) throws -> WatchedAnswer<GetTaskTrackingInfoRequest> {
        let read = try engine.readTaskTrackingInfo(self)
        return WatchedAnswer(message: read.info, state: TaskTrackingState(read), dependencies: read.keys)
    }
}

/// A tracking info as a watcher compares it: the arrival and completion times as milliseconds from the
/// moment of reading, which the clock alone does not change (GetTaskTrackingInfo gives them as the
/// time of asking plus the time left).
struct TaskTrackingState: Equatable, Sendable {
    var info: TaskTrackingInfo
    var arrivalMilliseconds: Int64?
    var completionMilliseconds: Int64?

    init(_ read: Engine.TaskTrackingRead) {
        func fromNow(_ time: Timestamp?) -> Int64? {
            time.map { Int64(($0.timeIntervalSince(read.now) * 1000).rounded()) }
        }
        info = read.info
        info.estimatedArrivalTime = nil
        info.estimatedTaskCompletionTime = nil
        arrivalMilliseconds = fromNow(read.info.estimatedArrivalTime)
        completionMilliseconds = fromNow(read.info.estimatedTaskCompletionTime)
    }
}
