import FleetInterface
import FleetModel

/// What the person waiting for a shipment knows about it: the Consumer SDK's shipment tracking
/// model, built from `GetTaskTrackingInfo` snapshots. Each part the follower reports is a property;
/// a part the task's view config hides is nil (or empty) until the server shows it.
public struct ShipmentModel: FollowedModel {
    /// `shipment`.
    public static let noun = "shipment"

    /// The tracking info's resource name as it is followed (`providers/p/taskTrackingInfo/x`).
    public var name: String
    /// The tracking ID: the last segment of the name.
    public var trackingID: String { name.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? name }

    /// The task's state: OPEN or CLOSED; nil before the first snapshot.
    public var state: DeliveryTask.State?
    /// How the task ended, once it did and the provider said so.
    public var outcome: DeliveryTask.TaskOutcome?
    /// When the outcome was set.
    public var outcomeTime: Timestamp?
    /// The stops the vehicle makes until the shipment's, its own included (`remainingStopCount`).
    public var remainingStopCount: Int32?
    /// The driving distance to the shipment's stop, in metres.
    public var remainingDrivingDistanceMeters: Int32?
    /// When the vehicle reaches the stop.
    public var estimatedArrivalTime: Timestamp?
    /// When the task is expected done.
    public var estimatedTaskCompletionTime: Timestamp?
    /// The vehicle's last reported position, heading, speed and accuracy, while the view config shows it.
    public var vehicle: VehicleFix?
    /// When the server received that position.
    public var vehicleLocationTime: Timestamp?
    /// The vehicle's route to the stop, while the view config shows it.
    public var route: [LatLng] = []
    /// Where the task is done.
    public var plannedLocation: LatLng?
    /// The time window the task should be done in.
    public var targetTimeWindow: TimeWindow?
    /// The last snapshot as received; nil before the first.
    public var info: TaskTrackingInfo?
    /// When the last snapshot was received (the follower's clock); nil before the first.
    public var observedAt: Timestamp?
    /// The last refresh failure, until a refresh succeeds again.
    public var lastFailure: FollowFailure?

    /// An empty model for the tracking info `name`, before any snapshot.
    public init(name: String) {
        self.name = name
    }

    /// The stops before the shipment's: `remainingStopCount` less its own; nil when not shown.
    public var stopsBefore: Int32? { remainingStopCount.map { max(0, $0 - 1) } }
    /// The state's name, then the outcome's once there is one (`CLOSED SUCCEEDED`).
    public var statusName: String? {
        state.map { state in outcome.map { "\(state.name) \($0.name)" } ?? state.name }
    }
    /// While the task is OPEN and its vehicle is shown (a closed task's vehicle has moved on).
    public var expectsVehicleReports: Bool { state == .open && vehicle != nil }

    /// GetTaskTrackingInfo of the followed name (there are no versions to send).
    public func request() -> GetTaskTrackingInfoRequest {
        GetTaskTrackingInfoRequest(name: name)
    }

    /// The model after a snapshot: every part as the server shows it now.
    public func merging(_ info: TaskTrackingInfo, answering request: GetTaskTrackingInfoRequest, observedAt: Timestamp) -> ShipmentModel {
        var next = ShipmentModel(name: name)
        next.state = info.state
        next.outcome = info.taskOutcome.flatMap { $0 == .taskOutcomeUnspecified ? nil : $0 }
        next.outcomeTime = info.taskOutcomeTime
        next.remainingStopCount = info.remainingStopCount
        next.remainingDrivingDistanceMeters = info.remainingDrivingDistanceMeters
        next.estimatedArrivalTime = info.estimatedArrivalTime
        next.estimatedTaskCompletionTime = info.estimatedTaskCompletionTime
        next.vehicle = VehicleFix(info.vehicleLocation)
        next.vehicleLocationTime = next.vehicle == nil ? nil : info.vehicleLocation.flatMap { $0.serverTime ?? $0.updateTime }
        next.route = info.routePolylinePoints
        next.plannedLocation = info.plannedLocation?.point
        next.targetTimeWindow = info.targetTimeWindow
        next.info = info
        next.observedAt = observedAt
        return next
    }

    /// `shipmentClosed` once the task is CLOSED with an outcome. A task closed without one yet is
    /// followed on: the provider usually sets the outcome as it closes the stop.
    public func ending(_ configuration: FollowConfiguration) -> FollowOutcome? {
        guard state == .closed, let outcome else { return nil }
        return .shipmentClosed(outcome)
    }

    /// The value of one part as its event carries it; nil for `shipment`, `vehicleStale` and `error`.
    public func value(of kind: ShipmentEventKind) -> FollowEventValue? {
        switch kind {
        case .taskState: .taskState(state)
        case .taskOutcome: .outcome(outcome, at: outcome == nil ? nil : outcomeTime)
        case .remainingStopCount: .stops(remainingStopCount)
        case .remainingDrivingDistance: .distance(remainingDrivingDistanceMeters)
        case .estimatedArrivalTime: .eta(estimatedArrivalTime)
        case .estimatedTaskCompletionTime: .eta(estimatedTaskCompletionTime)
        case .vehicleLocation: .vehicle(vehicle)
        case .route: .route(route)
        case .plannedLocation: .location(plannedLocation)
        case .targetTimeWindow: .window(targetTimeWindow)
        case .shipment, .vehicleStale, .error: nil
        }
    }

    /// The events that take a subscriber from `previous` to this model: nothing when nothing changed,
    /// else `shipment` (the changed parts with their values, and the tracking info) followed by one
    /// event per changed part, in order.
    public func events(since previous: ShipmentModel, at time: Timestamp) -> [ShipmentEvent] {
        guard let info else { return [] }
        let changed = ShipmentEventKind.parts.compactMap { kind -> (ShipmentEventKind, FollowEventValue)? in
            guard let value = value(of: kind), value != previous.value(of: kind) else { return nil }
            return (kind, value)
        }
        return FollowEvent.updateEvents(name: name, at: time, snapshot: .taskTrackingInfo(info), changed: changed)
    }
}
