import FleetModel

/// Walking a trip through the state machine: the legal steps from NEW to a status (how `import`
/// restores a trip), and the intermediate destination a status change implies. Pure.
public enum TripStatusPath {
    /// One status change: the status, and the intermediate destination index it names.
    public struct Step: Sendable, Equatable, CustomStringConvertible {
        /// The status to move to.
        public let status: TripStatus
        /// `intermediateDestinationIndex` to send with it, for the intermediate statuses.
        public let index: Int32?

        /// A step.
        public init(_ status: TripStatus, index: Int32? = nil) {
            self.status = status
            self.index = index
        }

        /// `ENROUTE_TO_INTERMEDIATE_DESTINATION[1]`.
        public var description: String { index.map { "\(status.name)[\($0)]" } ?? status.name }
    }

    /// The status changes that take a NEW trip to `status` (with intermediate destination `index`)
    /// along the shortest legal path: NEW → ENROUTE_TO_PICKUP → ARRIVED_AT_PICKUP →
    /// [ENROUTE_TO_INTERMEDIATE_DESTINATION[i] → ARRIVED_AT_INTERMEDIATE_DESTINATION[i]] →
    /// ENROUTE_TO_DROPOFF → COMPLETE; CANCELED straight from NEW. Empty for NEW (and for unknown statuses).
    public static func steps(to status: TripStatus, index: Int32?) -> [Step] {
        let toPickup = [Step(.enrouteToPickup), Step(.arrivedAtPickup)]
        switch status {
        case .enrouteToPickup: return [Step(.enrouteToPickup)]
        case .arrivedAtPickup: return toPickup
        case .enrouteToIntermediateDestination:
            return toPickup + [Step(.enrouteToIntermediateDestination, index: index ?? 0)]
        case .arrivedAtIntermediateDestination:
            return toPickup + [Step(.enrouteToIntermediateDestination, index: index ?? 0),
                               Step(.arrivedAtIntermediateDestination, index: index ?? 0)]
        case .enrouteToDropoff: return toPickup + [Step(.enrouteToDropoff)]
        case .complete: return toPickup + [Step(.enrouteToDropoff), Step(.complete)]
        case .canceled: return [Step(.canceled)]
        default: return []
        }
    }

    /// The intermediate destination a move of `trip` to `status` goes to when the operator names
    /// none: the next one after an arrival, the current one otherwise, the first from the pickup.
    /// Nil for statuses that name no intermediate destination.
    public static func impliedIndex(moving trip: Trip, to status: TripStatus) -> Int32? {
        let current = trip.intermediateDestinationIndex
        switch status {
        case .enrouteToIntermediateDestination:
            switch trip.tripStatus {
            case .arrivedAtIntermediateDestination?: return (current ?? 0) + 1
            case .enrouteToIntermediateDestination?: return current ?? 0
            default: return 0
            }
        case .arrivedAtIntermediateDestination:
            return current ?? 0
        default:
            return nil
        }
    }

    /// The UpdateTrip request that takes the trip `name` one `step`: its status, and the
    /// intermediate destination's index when the step names one.
    public static func request(moving name: TripName, _ step: Step) -> UpdateTripRequest {
        var paths = ["tripStatus"]
        if step.index != nil { paths.append("intermediateDestinationIndex") }
        return UpdateTripRequest(name: name.description, trip: Trip(tripStatus: step.status, intermediateDestinationIndex: step.index),
                                 updateMask: FieldMask(paths))
    }
}
