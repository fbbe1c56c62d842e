import FleetErrors
import FleetModel

/// The trip state machine: which status may follow which, and which waypoints a status leaves.
///
/// NEW → ENROUTE_TO_PICKUP → ARRIVED_AT_PICKUP → [ENROUTE_TO_INTERMEDIATE_DESTINATION →
/// ARRIVED_AT_INTERMEDIATE_DESTINATION]… → ENROUTE_TO_DROPOFF → COMPLETE, and CANCELED from any
/// status that is not terminal. Staying in the same status is allowed (an idempotent retry).
public enum TripLifecycle {
    /// COMPLETE and CANCELED: the trip is over and has left its vehicle.
    public static func isTerminal(_ status: TripStatus) -> Bool {
        status == .complete || status == .canceled
    }

    /// Whether the trip still influences its vehicle's route.
    public static func isActive(_ status: TripStatus) -> Bool {
        !isTerminal(status)
    }

    /// Checks a status change, with the intermediate destination index before and after.
    /// Throws FAILED_PRECONDITION naming both statuses when the move is not allowed.
    public static func validate(from: TripStatus, fromIndex: Int32?, to: TripStatus, toIndex: Int32?,
                                intermediateCount: Int, hasVehicle: Bool) throws {
        func refuse(_ why: String) -> FleetError {
            FleetError(.illegalTransition, detail: "\(from.name) → \(to.name): \(why)", field: "trip.tripStatus")
        }
        guard TripStatus.allKnown.contains(to), to != .unknownTripStatus else {
            throw FleetError.invalidArgument("trip.tripStatus '\(to.name)' is not a trip status", field: "trip.tripStatus")
        }
        if from == to && !isIntermediate(to) { return }
        if isTerminal(from) {
            throw refuse("the trip is already \(from.name)")
        }
        if to == .canceled { return }
        if to != .new && !hasVehicle {
            throw refuse("the trip has no vehicle; set vehicleId first")
        }
        if isIntermediate(to) {
            guard intermediateCount > 0 else { throw refuse("the trip has no intermediateDestinations") }
            guard let index = toIndex, index >= 0, Int(index) < intermediateCount else {
                throw FleetError.invalidArgument(
                    "trip.intermediateDestinationIndex must be between 0 and \(intermediateCount - 1) for \(to.name)",
                    field: "trip.intermediateDestinationIndex")
            }
        }
        let allowed: Bool
        switch from {
        case .new:
            allowed = to == .enrouteToPickup
        case .enrouteToPickup:
            allowed = to == .arrivedAtPickup
        case .arrivedAtPickup:
            allowed = to == .enrouteToDropoff || to == .enrouteToIntermediateDestination
        case .enrouteToIntermediateDestination:
            let current = fromIndex ?? 0
            allowed = (to == .arrivedAtIntermediateDestination && toIndex == current)
                || (to == .enrouteToIntermediateDestination && (toIndex ?? current) >= current)
                || to == .enrouteToDropoff
        case .arrivedAtIntermediateDestination:
            let current = fromIndex ?? 0
            allowed = (to == .enrouteToIntermediateDestination && (toIndex ?? current) > current)
                || (to == .arrivedAtIntermediateDestination && toIndex == current)
                || to == .enrouteToDropoff
        case .enrouteToDropoff:
            allowed = to == .complete
        default:
            allowed = false
        }
        guard allowed else {
            throw refuse("allowed next: \(next(after: from).map(\.name).joined(separator: ", "))")
        }
    }

    /// The statuses that may follow `status` (besides staying).
    public static func next(after status: TripStatus) -> [TripStatus] {
        switch status {
        case .new: [.enrouteToPickup, .canceled]
        case .enrouteToPickup: [.arrivedAtPickup, .canceled]
        case .arrivedAtPickup: [.enrouteToIntermediateDestination, .enrouteToDropoff, .canceled]
        case .enrouteToIntermediateDestination: [.arrivedAtIntermediateDestination, .enrouteToIntermediateDestination, .enrouteToDropoff, .canceled]
        case .arrivedAtIntermediateDestination: [.enrouteToIntermediateDestination, .enrouteToDropoff, .canceled]
        case .enrouteToDropoff: [.complete, .canceled]
        default: []
        }
    }

    static func isIntermediate(_ status: TripStatus) -> Bool {
        status == .enrouteToIntermediateDestination || status == .arrivedAtIntermediateDestination
    }

    /// The trip's waypoints still ahead of the vehicle in a status, in trip order.
    public static func remainingWaypoints(of trip: Trip, tripID: String) -> [TripWaypoint] {
        let status = trip.tripStatus ?? .new
        var result: [TripWaypoint] = []
        func add(_ location: TerminalLocation?, _ type: WaypointType) {
            guard let location else { return }
            result.append(TripWaypoint(location: location, tripId: tripID, waypointType: type))
        }
        let intermediates = trip.intermediateDestinations
        switch status {
        case .new, .enrouteToPickup, .arrivedAtPickup:
            add(trip.pickupPoint, .pickupWaypointType)
            intermediates.forEach { add($0, .intermediateDestinationWaypointType) }
            add(trip.dropoffPoint, .dropOffWaypointType)
        case .enrouteToIntermediateDestination, .arrivedAtIntermediateDestination:
            let from = max(0, min(Int(trip.intermediateDestinationIndex ?? 0), intermediates.count))
            intermediates[from...].forEach { add($0, .intermediateDestinationWaypointType) }
            add(trip.dropoffPoint, .dropOffWaypointType)
        case .enrouteToDropoff:
            add(trip.dropoffPoint, .dropOffWaypointType)
        default:
            break
        }
        return result
    }
}
