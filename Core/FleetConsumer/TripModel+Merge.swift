import FleetGeo
import FleetModel

extension TripModel {
    /// The model after a `GetTrip` snapshot, sent with the versions `sent`.
    ///
    /// Every part is taken from the snapshot, except parts the server left out because they had not
    /// changed since the version sent (see `TripVersions.isOmitted`): the route, its traffic, and the
    /// paths and traffic of each remaining waypoint then keep their previous value, in the parts and
    /// in `trip`. ETAs come from
    /// this trip's pickup and dropoff waypoints (`eta`; for the first waypoint also
    /// `etaToFirstWaypoint`), else from `pickupTime` and `dropoffTime`.
    public func merging(_ trip: Trip, sent: TripVersions, observedAt: Timestamp) -> TripModel {
        var next = self
        next.observedAt = observedAt
        next.lastFailure = nil
        next.status = trip.tripStatus
        next.vehicleID = trip.vehicleId.flatMap { $0.isEmpty ? nil : $0 }
        next.vehicle = VehicleFix(trip.lastLocation)
        next.vehicleLocationTime = next.vehicle == nil ? nil : trip.lastLocation.flatMap { $0.serverTime ?? $0.updateTime }
        next.pickupLocation = trip.pickupPoint
        next.dropoffLocation = trip.dropoffPoint
        next.intermediateDestinations = trip.intermediateDestinations
        next.intermediateDestinationIndex = trip.intermediateDestinationIndex
        next.remainingDistanceMeters = trip.remainingDistanceMeters

        var known = trip
        let route = trip.route.isEmpty ? Self.decode(trip.currentRouteSegment) : trip.route
        if !TripVersions.isOmitted(isEmpty: route.isEmpty, version: trip.currentRouteSegmentVersion, sent: sent.route) {
            next.activeRoute = route
        } else {
            known.route = self.trip?.route ?? []
            known.currentRouteSegment = self.trip?.currentRouteSegment
        }
        next.versions.route = trip.currentRouteSegmentVersion

        if !TripVersions.isOmitted(isEmpty: trip.currentRouteSegmentTraffic == nil,
                                   version: trip.currentRouteSegmentTrafficVersion, sent: sent.traffic) {
            next.activeRouteTraffic = trip.currentRouteSegmentTraffic
        } else {
            known.currentRouteSegmentTraffic = self.trip?.currentRouteSegmentTraffic
        }
        next.versions.traffic = trip.currentRouteSegmentTrafficVersion

        let pathsOmitted = TripVersions.isOmitted(isEmpty: true, version: trip.remainingWaypointsRouteVersion,
                                                  sent: sent.waypointsRoute)
        next.remainingWaypoints = pathsOmitted
            ? trip.remainingWaypoints.map { keepingPaths(of: $0) }
            : trip.remainingWaypoints
        next.versions.waypointsRoute = trip.remainingWaypointsRouteVersion
        known.remainingWaypoints = next.remainingWaypoints
        next.trip = known

        next.pickupETA = next.eta(of: .pickupWaypointType, trip: trip) ?? trip.pickupTime
        next.dropoffETA = next.eta(of: .dropOffWaypointType, trip: trip) ?? trip.dropoffTime
        next.legDistanceMeters = legDistance(after: next)
        return next
    }

    /// A waypoint whose paths the server left out, with the paths this model holds for the same
    /// waypoint (same trip, type and place), when it has them.
    private func keepingPaths(of waypoint: TripWaypoint) -> TripWaypoint {
        guard waypoint.pathToWaypoint.isEmpty, waypoint.encodedPathToWaypoint == nil, waypoint.trafficToWaypoint == nil,
              let held = remainingWaypoints.first(where: { $0.isSamePlace(as: waypoint) }) else { return waypoint }
        var kept = waypoint
        kept.pathToWaypoint = held.pathToWaypoint
        kept.encodedPathToWaypoint = held.encodedPathToWaypoint
        kept.trafficToWaypoint = held.trafficToWaypoint
        return kept
    }

    /// The ETA of this trip's waypoint of `type` among the remaining waypoints: its `eta`, or for the
    /// first waypoint `etaToFirstWaypoint`.
    private func eta(of type: WaypointType, trip: Trip) -> Timestamp? {
        guard let index = remainingWaypoints.firstIndex(where: { $0.tripId == tripID && $0.waypointType == type }) else {
            return nil
        }
        return remainingWaypoints[index].eta ?? (index == 0 ? trip.etaToFirstWaypoint : nil)
    }

    /// The current leg's length: restarts at the remaining distance when the next waypoint or the
    /// route changes, otherwise the largest remaining distance seen.
    private func legDistance(after next: TripModel) -> Int32? {
        guard let remaining = next.remainingDistanceMeters else { return nil }
        let sameWaypoint = nextWaypoint.map { held in next.nextWaypoint.map(held.isSamePlace) ?? false } ?? false
        let sameLeg = sameWaypoint && versions.route == next.versions.route
        guard sameLeg, let leg = legDistanceMeters else { return remaining }
        return max(leg, remaining)
    }

    /// The points of an encoded polyline; empty when there is none or it cannot be decoded.
    static func decode(_ encoded: String?) -> [LatLng] {
        guard let encoded, !encoded.isEmpty, let points = try? Polyline.decode(encoded) else { return [] }
        return points.map { LatLng(latitude: $0.latitude, longitude: $0.longitude) }
    }
}

extension TripWaypoint {
    /// Whether two waypoints are the same stop: same trip, type and place.
    func isSamePlace(as other: TripWaypoint) -> Bool {
        tripId == other.tripId && waypointType == other.waypointType && location?.point == other.location?.point
    }
}
