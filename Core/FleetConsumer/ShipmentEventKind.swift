/// The events a shipment follower emits: the parts of `TaskTrackingInfo` the Consumer SDK's shipment
/// tracking shows the person waiting, in emission order (`shipment` first, listing what changed; the
/// state and outcome before the stops, the ETA and the vehicle).
public enum ShipmentEventKind: String, FollowEventKind {
    /// The shipment's tracking info changed; carries the changed parts with their values, and the
    /// tracking info.
    case shipment
    /// The task's state: OPEN or CLOSED.
    case taskState
    /// How the task ended (SUCCEEDED, FAILED) and when; null while it has no outcome.
    case taskOutcome
    /// The stops the vehicle makes until this one, this one included (`remainingStopCount`).
    case remainingStopCount
    /// The driving distance left to the shipment's stop, in metres.
    case remainingDrivingDistance
    /// When the vehicle reaches the stop (`estimatedArrivalTime`).
    case estimatedArrivalTime
    /// When the task is expected done (`estimatedTaskCompletionTime`).
    case estimatedTaskCompletionTime
    /// Where the vehicle is, its heading, speed and accuracy, when the view config shows it.
    case vehicleLocation
    /// The vehicle's route to the stop, when the view config shows it.
    case route
    /// Where the task is done (`plannedLocation`).
    case plannedLocation
    /// The time window the task should be done in.
    case targetTimeWindow
    /// The vehicle's position became stale or fresh again (told by the clock).
    case vehicleStale
    /// A refresh failed.
    case error

    /// `shipment`.
    public static var update: ShipmentEventKind { .shipment }
    /// Events name the tracking info under `"shipment"`.
    public static let subjectKey = "shipment"
}
