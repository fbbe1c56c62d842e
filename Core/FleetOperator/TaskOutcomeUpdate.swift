import FleetModel

/// The UpdateTask request that closes a task and records its outcome (`fleet-admin tasks close`). Pure.
///
/// Fleet Engine's rules (UpdateTaskRequest): a task assigned to a delivery vehicle is closed by removing
/// its stop from the vehicle, not by UpdateTask; the outcome may be set once the task is no longer among
/// the vehicle's remaining stops, and cannot change once set. So the request names `state` only while
/// the task is still OPEN (an unassigned task, closed directly; an engine refuses it for a task still on
/// a stop), and always names the outcome and its time, and its place when one is given (without it,
/// Fleet Engine takes the vehicle's last location).
public struct TaskOutcomeUpdate: Sendable, Equatable {
    /// The request to send.
    public let request: UpdateTaskRequest

    /// The request closing `name` with `outcome` at `time` (and `location`), given the task as it is now.
    public init(name: TaskName, outcome: DeliveryTask.TaskOutcome, time: Timestamp, location: LatLng?, current: DeliveryTask) {
        var task = DeliveryTask(name: name.description, taskOutcome: outcome, taskOutcomeTime: time,
                                taskOutcomeLocation: location.map { LocationInfo(point: $0) })
        var paths: [String] = []
        if current.state != .closed {
            task.state = .closed
            paths.append("state")
        }
        paths += ["taskOutcome", "taskOutcomeTime"]
        if location != nil { paths.append("taskOutcomeLocation") }
        request = UpdateTaskRequest(task: task, updateMask: FieldMask(paths))
    }
}
