import FleetGeo
import FleetLearning
import FleetModel
import FleetStore
import Synchronization

/// The geometry built from a vehicle's route segment, kept per process so that a location update
/// snaps in O(1) instead of decoding the polyline again (building it is O(points)).
final class RouteCache: Sendable {
    final class Entry: Sendable {
        let routeVersion: Timestamp?
        let trafficVersion: Timestamp?
        let waypointsKey: [WaypointKey]
        let route: Route
        let traffic: TrafficProfile
        let waypoints: RouteWaypoints
        /// The route cut into road pieces, when the engine times it with learned travel times.
        let learnedRoute: LearnedRoute?
        /// Its stretches by block of road, for its live traffic.
        let trafficIndex: RouteTrafficIndex?
        /// The vehicle's plan of learned times along it, kept between updates.
        let learnedTiming = Mutex<LearnedTiming?>(nil)
        /// The slow and jammed stretches ahead from the fleet's live speeds, when they were worked out, and what
        /// working them out again can reuse.
        let liveTraffic = Mutex(KeptLiveTraffic())
        /// The router's times on the stretches with nothing learned, and the generation of the learned tables that
        /// said which stretches those are.
        let routerFallback = Mutex<(generation: Int, fallback: RouterFallback?)?>(nil)

        init(routeVersion: Timestamp?, trafficVersion: Timestamp?, waypointsKey: [WaypointKey], route: Route,
             traffic: TrafficProfile, waypoints: RouteWaypoints, learnedRoute: LearnedRoute?) {
            self.routeVersion = routeVersion
            self.trafficVersion = trafficVersion
            self.waypointsKey = waypointsKey
            self.route = route
            self.traffic = traffic
            self.waypoints = waypoints
            self.learnedRoute = learnedRoute
            trafficIndex = learnedRoute.map(RouteTrafficIndex.init)
        }
    }

    /// A route's live traffic as last worked out (``Engine/routeTraffic(_:index:provider:travelledMeters:through:times:generation:timing:settings:now:)``).
    struct KeptLiveTraffic: Sendable {
        /// The last answer and when it was worked out.
        var last: (computedAt: Double, traffic: LiveRouteTraffic)? = nil
        /// Its runs of stretches, reused where no pass landed near them since.
        var readings = RouteTrafficReadings()
    }

    private let entries = Mutex<[RecordKey: Entry]>([:])
    private let capacity: Int

    init(capacity: Int = 20_000) {
        self.capacity = capacity
    }

    /// The geometry for a vehicle's current route and waypoints, built once per change of either.
    func entry(for record: VehicleRecord, learned: Bool) -> Entry? {
        let v = record.vehicle
        guard let segment = v.currentRouteSegment else { return nil }
        let waypointsKey = v.waypoints.map(WaypointKey.init)
        if let cached = entries.withLock({ $0[record.key] }),
           cached.routeVersion == v.currentRouteSegmentVersion,
           cached.trafficVersion == record.tracking.trafficVersion,
           cached.waypointsKey == waypointsKey, (cached.learnedRoute != nil) == learned {
            return cached
        }
        guard let points = try? Polyline.decode(segment), let route = Route(points: points) else { return nil }
        let traffic = TrafficProfile(route: route, intervals: RouteGeometry.intervals(v.currentRouteSegmentTraffic, route: route))
        var positions = v.waypoints.compactMap { $0.location?.point.map(GeoPoint.init) }
        if positions.isEmpty, let end = v.currentRouteSegmentEndPoint?.location?.point {
            positions = [GeoPoint(end)]
        }
        let entry = Entry(routeVersion: v.currentRouteSegmentVersion, trafficVersion: record.tracking.trafficVersion,
                          waypointsKey: waypointsKey, route: route, traffic: traffic,
                          waypoints: RouteWaypoints(route: route, positions: positions),
                          learnedRoute: learned ? LearnedRoute(route: route) : nil)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[record.key] = entry
        }
        return entry
    }
}

extension Engine {
    /// Recomputes what derives from a vehicle's location, route and waypoints: where it is on its route,
    /// its observed speed, and the remaining distance and ETA to each remaining waypoint in order.
    ///
    /// The vehicle's `remainingDistanceMeters` and `etaToFirstWaypoint` are to its next waypoint (or the
    /// end of its route); each waypoint carries its ETA, the distance and time of the leg to it (the first
    /// leg starts at the vehicle, so it reaches 0 on arrival). Trips copy these when read.
    func refreshProgress(_ record: inout VehicleRecord, now: Timestamp) {
        planRouteIfDue(&record, now: now)
        let v = record.vehicle
        guard let location = v.lastLocation, let here = location.location.map(GeoPoint.init) else {
            record.vehicle.remainingDistanceMeters = nil
            record.vehicle.etaToFirstWaypoint = nil
            return
        }
        let t = now.timeIntervalSince1970
        let fixTime = (location.updateTime ?? location.serverTime ?? now).timeIntervalSince1970
        var estimator = ETAEstimator(category: VehicleCategory(v.vehicleType?.category),
                                     observedSpeed: ObservedSpeed(snapshot: record.tracking.speed))
        if let reported = location.speed, reported >= 0 {
            estimator.observe(metersPerSecond: reported, at: fixTime)
        }
        var etas: [WaypointETA]
        if let cached = routeCache.entry(for: record, learned: configuration.learnedETAs != nil) {
            var progress = RouteProgress(route: cached.route, resumingAtMeters: record.tracking.travelledMeters ?? 0)
            let match = progress.update(here, heading: location.heading.map(Double.init))
            record.tracking.travelledMeters = match.travelledMeters
            record.tracking.snappable = !match.isOffRoute
            if location.speed == nil {
                estimator.observe(position: here, at: fixTime, traffic: cached.traffic.speed(atMeters: match.travelledMeters))
            }
            etas = estimator.estimate(from: match, waypoints: cached.waypoints, traffic: cached.traffic, now: t)
            var traffic: LiveRouteTraffic? = nil
            if cached.learnedRoute != nil, !match.isOffRoute {
                (etas, traffic) = withLearnedTimes(etas, provider: record.key.provider, route: cached,
                                                   segment: record.vehicle.currentRouteSegment,
                                                   travelledMeters: match.travelledMeters,
                                                   livePace: 1 / estimator.freeFlowMetersPerSecond(now: t), now: t)
            }
            publishLiveTraffic(traffic, travelledMeters: match.travelledMeters, on: &record, now: now)
        } else {
            publishLiveTraffic(nil, travelledMeters: 0, on: &record, now: now)
            record.tracking.snappable = false
            if location.speed == nil { estimator.observe(position: here, at: fixTime) }
            etas = estimator.estimateWithoutRoute(from: here, to: v.waypoints.compactMap { $0.location?.point.map(GeoPoint.init) }, now: t)
        }
        record.tracking.speed = estimator.observedSpeed.snapshot

        var previous = (meters: 0.0, seconds: 0.0)
        for (i, eta) in etas.enumerated() where i < record.vehicle.waypoints.count {
            let leg = (meters: max(0, eta.remainingMeters - previous.meters), seconds: max(0, eta.remainingSeconds - previous.seconds))
            record.vehicle.waypoints[i].distanceMeters = Int32(roundingClamped: leg.meters)
            record.vehicle.waypoints[i].duration = ProtoDuration(timeInterval: leg.seconds)
            record.vehicle.waypoints[i].eta = now.adding(seconds: eta.remainingSeconds)
            previous = (eta.remainingMeters, eta.remainingSeconds)
        }
        if let first = etas.first {
            record.vehicle.remainingDistanceMeters = Int32(roundingClamped: first.remainingMeters)
            record.vehicle.etaToFirstWaypoint = now.adding(seconds: first.remainingSeconds)
        } else {
            record.vehicle.remainingDistanceMeters = nil
            record.vehicle.etaToFirstWaypoint = nil
        }
    }
}
