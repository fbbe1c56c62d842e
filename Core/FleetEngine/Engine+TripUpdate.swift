import FleetErrors
import FleetInterface
import FleetModel

/// UpdateTrip in its three steps, each on the trip as stored before the call (`before`): the masked
/// fields, then the status through the state machine, then the vehicles that the trip leaves or joins.
extension Engine {
    /// The trip with the update's masked fields set, before any status change. The status and the
    /// vehicle's waypoint order are left to `transitionStatus` and `rebalanceVehicles`.
    ///
    /// - Throws: FAILED_PRECONDITION for `tripType` once the trip has a vehicle; INVALID_ARGUMENT for
    ///   intermediate destinations the trip type does not allow.
    func applyMask(of update: Trip, paths: [Trip.FieldPath], to before: Trip, now: Timestamp) throws -> Trip {
        var trip = before
        for path in paths {
            switch path {
            case .vehicleId: trip.vehicleId = update.vehicleId.flatMap { $0.isEmpty ? nil : $0 }
            case .tripType:
                guard before.vehicleId == nil || before.vehicleId == "" else {
                    throw FleetError.failedPrecondition("trip.tripType can only change while the trip has no vehicle", field: "trip.tripType")
                }
                trip.tripType = update.tripType
            case .pickupPoint: trip.pickupPoint = update.pickupPoint
            case .dropoffPoint: trip.dropoffPoint = update.dropoffPoint
            case .intermediateDestinations:
                trip.intermediateDestinations = update.intermediateDestinations
                trip.intermediateDestinationsVersion = now
            case .intermediateDestinationIndex: trip.intermediateDestinationIndex = update.intermediateDestinationIndex
            case .actualPickupPoint: trip.actualPickupPoint = update.actualPickupPoint
            case .actualPickupArrivalPoint: trip.actualPickupArrivalPoint = update.actualPickupArrivalPoint
            case .actualIntermediateDestinationArrivalPoints:
                trip.actualIntermediateDestinationArrivalPoints = update.actualIntermediateDestinationArrivalPoints
            case .actualIntermediateDestinations: trip.actualIntermediateDestinations = update.actualIntermediateDestinations
            case .actualDropoffPoint: trip.actualDropoffPoint = update.actualDropoffPoint
            case .attributes: trip.attributes = update.attributes
            case .tripStatus, .vehicleWaypoints:
                break // once the other fields are settled: transitionStatus, rebalanceVehicles
            case .name, .pickupTime, .intermediateDestinationsVersion, .dropoffTime, .remainingWaypoints, .route,
                 .currentRouteSegment, .currentRouteSegmentVersion, .currentRouteSegmentTraffic,
                 .currentRouteSegmentTrafficVersion, .currentRouteSegmentEndPoint, .remainingDistanceMeters,
                 .etaToFirstWaypoint, .remainingTimeToFirstWaypoint, .remainingWaypointsVersion,
                 .remainingWaypointsRouteVersion, .numberOfPassengers, .lastLocation, .lastLocationSnappable, .view:
                throw UpdateMask.serverOwned(path)
            }
        }
        if paths.contains(.intermediateDestinations) {
            try checkIntermediates(trip.intermediateDestinations, type: trip.tripType ?? .exclusive)
        }
        return trip
    }

    /// Moves `trip` to the status (and intermediate destination index) the update asks for, through
    /// the trip state machine, and stamps pickup and dropoff times. Nothing changes when the mask names
    /// neither `tripStatus` nor `intermediateDestinationIndex`.
    ///
    /// - Throws: FAILED_PRECONDITION `.intermediateDestinationsVersionMismatch` when the client's
    ///   `intermediateDestinationsVersion` is not the stored one (it planned against other stops);
    ///   the state machine's errors for a transition it forbids, and for a new vehicle on a trip that
    ///   has ended.
    func transitionStatus(_ trip: inout Trip, from before: Trip, update: Trip, paths: [Trip.FieldPath], now: Timestamp) throws {
        let from = before.tripStatus ?? .new
        let to = paths.contains(.tripStatus) ? (update.tripStatus ?? .unknownTripStatus) : from
        let toIndex = paths.contains(.intermediateDestinationIndex) ? update.intermediateDestinationIndex : before.intermediateDestinationIndex
        if let sent = update.intermediateDestinationsVersion,
           to == .enrouteToIntermediateDestination || paths.contains(.intermediateDestinationIndex),
           sent != before.intermediateDestinationsVersion {
            throw FleetError(.intermediateDestinationsVersionMismatch,
                             detail: "sent \(sent), the trip has \(before.intermediateDestinationsVersion?.description ?? "none")",
                             field: "trip.intermediateDestinationsVersion")
        }
        guard paths.contains(.tripStatus) || paths.contains(.intermediateDestinationIndex) else { return }
        try TripLifecycle.validate(from: from, fromIndex: before.intermediateDestinationIndex, to: to, toIndex: toIndex,
                                   intermediateCount: trip.intermediateDestinations.count,
                                   hasVehicle: trip.vehicleId.map { !$0.isEmpty } ?? false)
        if !TripLifecycle.isActive(from) && paths.contains(.vehicleId) && trip.vehicleId != before.vehicleId {
            throw FleetError.failedPrecondition("trip is \(from.name): its vehicle can no longer change", field: "trip.vehicleId")
        }
        trip.tripStatus = to
        stampTimes(&trip, from: from, to: to, now: now)
    }

    /// The vehicles an updated trip touches, changed to match it: the one it was active on gives it up
    /// when it moves or ends; the one it is active on now takes it (capacity and trip types checked) or,
    /// if it had it, keeps its waypoints in step with the trip's status and the update's
    /// `vehicleWaypoints` order. `current` is the trip's vehicle now, nil while it has none.
    ///
    /// - Throws: NOT_FOUND for a vehicle that does not exist; FAILED_PRECONDITION for `vehicleWaypoints`
    ///   without an active trip on a vehicle; `assign`'s and `reorderWaypoints`' errors.
    func rebalanceVehicles(for record: TripRecord, before: Trip, wasActive: Bool, update: Trip, paths: [Trip.FieldPath],
                           now: Timestamp) throws -> (changed: [VehicleRecord], current: VehicleRecord?) {
        let tripID = record.key.id
        let provider = record.key.provider
        let order = paths.contains(.vehicleWaypoints) ? update.vehicleWaypoints : []
        let oldVehicle = wasActive ? before.vehicleId.flatMap { $0.isEmpty ? nil : $0 } : nil
        let newVehicle = record.isActive ? record.vehicleID : nil
        var changed: [VehicleRecord] = []
        if let old = oldVehicle, old != newVehicle {
            var v = try requireAssignee(old, provider: provider)
            unassign(tripID, from: &v, now: now)
            changed.append(v)
        }
        guard let new = newVehicle else {
            if paths.contains(.vehicleWaypoints) {
                throw FleetError.failedPrecondition("trip.vehicleWaypoints needs an active trip with a vehicle", field: "trip.vehicleWaypoints")
            }
            return (changed, nil)
        }
        var v = try requireAssignee(new, provider: provider)
        if v.vehicle.currentTrips.contains(tripID) {
            let remaining = TripLifecycle.remainingWaypoints(of: record.trip, tripID: tripID)
            let replaced = WaypointOrder.replace(in: v.vehicle.waypoints, tripID: tripID, with: remaining)
            if replaced.map(WaypointKey.init) != v.vehicle.waypoints.map(WaypointKey.init) {
                v.vehicle.waypoints = replaced
                v.vehicle.waypointsVersion = now
            }
            if paths.contains(.vehicleWaypoints) {
                try reorderWaypoints(&v, to: order, now: now)
            }
        } else {
            try assign(record, to: &v, order: order, now: now)
        }
        refreshProgress(&v, now: now)
        changed.append(v)
        return (changed, v)
    }
}
