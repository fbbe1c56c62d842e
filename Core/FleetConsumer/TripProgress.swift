import FleetInterface
import FleetModel

/// How far along its lifecycle a trip status is: what `--until STATUS` compares.
///
/// NEW < ENROUTE_TO_PICKUP < ARRIVED_AT_PICKUP < ENROUTE_TO_INTERMEDIATE_DESTINATION <
/// ARRIVED_AT_INTERMEDIATE_DESTINATION < ENROUTE_TO_DROPOFF < COMPLETE = CANCELED. A status this build
/// does not know (and UNKNOWN_TRIP_STATUS) ranks before NEW.
public enum TripProgress {
    /// The statuses `--until` accepts, in lifecycle order.
    public static let untilStatuses: [TripStatus] = [
        .new, .enrouteToPickup, .arrivedAtPickup, .enrouteToIntermediateDestination,
        .arrivedAtIntermediateDestination, .enrouteToDropoff, .complete, .canceled,
    ]

    /// The status's place in the lifecycle: 0 for unknown, 1 for NEW … 7 for COMPLETE and CANCELED.
    public static func rank(of status: TripStatus) -> Int {
        switch status {
        case .new: 1
        case .enrouteToPickup: 2
        case .arrivedAtPickup: 3
        case .enrouteToIntermediateDestination: 4
        case .arrivedAtIntermediateDestination: 5
        case .enrouteToDropoff: 6
        case .complete, .canceled: 7
        default: 0
        }
    }

    /// Whether a trip in `status` has reached `target` or gone past it. A trip that ended (COMPLETE
    /// or CANCELED) has reached every target.
    public static func hasReached(_ status: TripStatus, _ target: TripStatus) -> Bool {
        if status == target || TripLifecycle.isTerminal(status) { return true }
        let targetRank = rank(of: target)
        return targetRank > 0 && rank(of: status) >= targetRank
    }
}
