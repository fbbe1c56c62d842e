import FleetErrors
import FleetGeo
import FleetModel
import FleetRouting
import Synchronization

extension Engine {
    /// Plans a vehicle's route on roads with the configured router, as Fleet Engine does for a vehicle whose
    /// driver sends no route: from its last location through its remaining waypoints in order. The plan
    /// becomes the vehicle's `currentRouteSegment` (so riders see it as the trip's route) and the remaining
    /// distances and ETAs follow it along the roads.
    ///
    /// A plan is made when the vehicle has waypoints, a location and no route of the driver's (a route the
    /// driver sends always wins), and
    /// - it has no plan yet, or its waypoints changed since (a trip assigned, a pickup done): at once;
    /// - or the last update found it off its plan (more than ``FleetGeo/RouteMatchingOptions``'
    ///   `offRouteThresholdMeters`, 50 m: GPS error in urban canyons plus a wide road, so a vehicle on the
    ///   planned road never counts as astray), or the last plan failed: at most once per
    ///   `minimumReplanSeconds`.
    /// Updates along the plan only snap to it, as they do to a driver's route. A vehicle without waypoints
    /// loses its plan.
    ///
    /// A leg no road covers (a dropoff in a pedestrian zone, a point off the map, an island) is a straight
    /// line in the plan, timed at the category's default speed (``FleetRouting/Router/routeLegs(_:model:)``);
    /// the other legs keep their roads. The vehicle's `estimatedLegs` (an extension, in REST answers) names
    /// each such leg by the waypoint it leads to, with the router's cause and message, and the engine's log
    /// says so once per change. When no leg has a road, the vehicle keeps the great-circle estimates until
    /// the next try, and `estimatedLegs` says why.
    func planRouteIfDue(_ record: inout VehicleRecord, now: Timestamp) {
        guard let router = configuration.router else { return }
        let vehicle = record.vehicle
        let planned = record.tracking.routePlanned == true
        guard vehicle.currentRouteSegment == nil || planned else { return }
        let stops = vehicle.waypoints.compactMap { $0.location?.point.map(GeoPoint.init) }
        guard let here = vehicle.lastLocation?.location.map(GeoPoint.init), !stops.isEmpty, stops.count == vehicle.waypoints.count else {
            if planned { setPlannedRoute(nil, on: &record, now: now) }
            record.vehicle.estimatedLegs = []
            return
        }
        let key = Self.plannedWaypointsKey(vehicle.waypoints)
        if record.tracking.plannedWaypoints == key {
            let strayed = planned && vehicle.currentRouteSegment != nil && record.tracking.snappable == false
            let failed = vehicle.currentRouteSegment == nil
            guard strayed || failed else { return }
            if let last = record.tracking.plannedAt, now.timeIntervalSince(last) < configuration.minimumReplanSeconds { return }
        }
        record.tracking.plannedAt = now
        record.tracking.plannedWaypoints = key
        let request = RouteRequest(waypoints: [here] + stops, category: VehicleCategory(vehicle.vehicleType?.category))
        let plan = try? router.routeLegs(request)
        // The request starts at the vehicle, so its leg k leads to waypoint k.
        noteEstimatedLegs(plan?.estimatedLegs ?? [], on: &record)
        guard let plan, !plan.isEstimate else {
            setPlannedRoute(nil, on: &record, now: now)
            return
        }
        // A road route starts where the router put the vehicle on a road; the route starts at the vehicle
        // (in a yard, say), so that it is on its route from the start.
        let lead = Geodesy.distance(plan.points[0], here) > 1
        let encoded = Polyline.encode(lead ? [here] + plan.points : plan.points)
        // The router's times along it, for the stretches where the fleet learned nothing (`RouterFallback`).
        routerTimes.keep(RouterTimes(cumulativeSeconds: lead ? [0] + plan.cumulativeSeconds : plan.cumulativeSeconds,
                                     firstTimedPoint: lead ? 1 : 0), for: encoded)
        setPlannedRoute(encoded, on: &record, now: now)
    }

    /// Sets the vehicle's `estimatedLegs` from a plan's legs (leg k leads to waypoint k), and logs them when
    /// they changed: once per plan that changes them, never per update. The log numbers waypoints from 1, as
    /// `fleet-admin vehicles get` does.
    private func noteEstimatedLegs(_ legs: [EstimatedLeg], on record: inout VehicleRecord) {
        let estimated = legs.map { EstimatedRouteLeg(leg: Int32($0.leg), cause: $0.cause, reason: $0.reason) }
        guard estimated != record.vehicle.estimatedLegs else { return }
        record.vehicle.estimatedLegs = estimated
        guard let log = configuration.log else { return }
        log(Self.estimatedLegsLine(vehicle: record.vehicle.name ?? record.key.id, legs: estimated) { index in
            let waypoint = record.vehicle.waypoints[index]
            return "waypoint \(index + 1) (trip \(waypoint.tripId ?? "?") \((waypoint.waypointType ?? .unknownWaypointType).name))"
        })
    }

    /// The log line for a vehicle's estimated legs: every leg with the place it leads to (`place` of the
    /// leg's index) and the router's cause and message; or that every leg is on roads again.
    static func estimatedLegsLine(vehicle: String, legs: [EstimatedRouteLeg], place: (Int) -> String) -> String {
        guard !legs.isEmpty else { return "\(vehicle): every leg of its route is on roads again" }
        let list = legs.map { leg in
            "the leg to \(place(Int(leg.leg ?? 0))): \(leg.cause ?? "") \(leg.reason ?? "")"
        }.joined(separator: "; ")
        return "\(vehicle): no road for \(legs.count == 1 ? "1 leg" : "\(legs.count) legs") of its route, a straight-line estimate instead: \(list)"
    }

    /// Installs (or, with nil, removes) the engine's planned route as the vehicle's route segment.
    private func setPlannedRoute(_ encoded: String?, on record: inout VehicleRecord, now: Timestamp) {
        record.tracking.routePlanned = encoded == nil ? nil : true
        guard encoded != record.vehicle.currentRouteSegment else { return }
        record.vehicle.currentRouteSegment = encoded
        record.vehicle.currentRouteSegmentEndPoint = nil
        record.vehicle.currentRouteSegmentVersion = now
        record.tracking.waypointsRouteVersion = now
        record.tracking.travelledMeters = nil
        record.tracking.snappable = nil
    }

    /// The waypoints a plan went through, as text kept with the vehicle: trip, type and place of each.
    static func plannedWaypointsKey(_ waypoints: [TripWaypoint]) -> String {
        waypoints.map { w in
            let point = w.location?.point
            return "\(w.tripId ?? "")/\((w.waypointType ?? .unknownWaypointType).name)/\(point?.latitude ?? 0),\(point?.longitude ?? 0)"
        }.joined(separator: ";")
    }
}

/// The router's cumulative seconds at each point of a route the engine planned, and the first point they count from
/// (before it, a lead from where the vehicle stood to where the router joined the roads, untimed).
struct RouterTimes: Sendable {
    let cumulativeSeconds: [Double]
    let firstTimedPoint: Int
}

/// The router's times of the routes this node planned lately, by encoded route: kept in memory only, so a node that
/// did not plan a vehicle's route times its unlearned stretches with the vehicle's live pace until the next plan.
final class RouterTimesCache: Sendable {
    private let entries = Mutex<[String: RouterTimes]>([:])
    private let capacity = 20_000

    func keep(_ times: RouterTimes, for route: String) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[route] = times
        }
    }

    func times(of route: String) -> RouterTimes? {
        entries.withLock { $0[route] }
    }
}
