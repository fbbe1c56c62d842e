import FleetGeo
import FleetModel
import FleetRouting
import FleetStore
import Synchronization

/// The route a delivery vehicle follows to its next stop (the driver's `currentRouteSegment`, or the
/// engine's first leg on roads), built once per change and kept per process, so that a location update
/// snaps onto it in O(1) instead of decoding the polyline again.
final class DeliveryRouteCache: Sendable {
    final class Entry: Sendable {
        /// What the route was built from (its source and version): another identity builds again.
        let identity: String
        let route: Route
        /// The next stop placed along the route.
        let waypoints: RouteWaypoints

        init(identity: String, route: Route, waypoints: RouteWaypoints) {
            self.identity = identity
            self.route = route
            self.waypoints = waypoints
        }
    }

    private let entries = Mutex<[RecordKey: Entry]>([:])
    private let capacity: Int

    init(capacity: Int = 20_000) {
        self.capacity = capacity
    }

    /// The entry for `identity`, built by `build` when the vehicle has none for it (nil: no usable route).
    func entry(for key: RecordKey, identity: String, build: () -> (Route, RouteWaypoints)?) -> Entry? {
        if let cached = entries.withLock({ $0[key] }), cached.identity == identity { return cached }
        guard let (route, waypoints) = build() else { return nil }
        let entry = Entry(identity: identity, route: route, waypoints: waypoints)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = entry
        }
        return entry
    }
}

/// How far, and how long, a delivery vehicle is from one of its remaining stops.
struct StopForecast: Sendable, Hashable {
    /// Driving distance from the vehicle's last location, metres; nil when unknown (no location yet).
    var meters: Double?
    /// Time until the vehicle arrives, seconds from now, counting the tasks done at the stops before it.
    var seconds: Double?
}

/// One measured leg: from the previous stop (the first from the vehicle) to a stop.
private struct Leg {
    var meters: Double
    var seconds: Double
    var points: [GeoPoint]
}

extension Engine {
    /// Within this distance of its next stop, a driver's route counts as a route to that stop; one that
    /// ends elsewhere (a stale route to the previous stop) is not used, as Fleet Engine documents for
    /// `currentRouteSegment`. 100 m, as ``FleetGeo/RouteWaypoints`` snaps a stop onto a route.
    static let driverRouteStopToleranceMeters = 100.0

    /// Recomputes what derives from a delivery vehicle's location, route and stops: the legs between its
    /// stops (``measureLegsIfDue(_:now:metersPerSecond:)``), where it is on its route to the next stop, its
    /// observed speed, and its `remainingDistanceMeters` and `remainingDuration` to that stop (0 once
    /// ARRIVED there). `newLocation` says whether `lastLocation` was just reported (its speed and
    /// position feed the observed speed).
    ///
    /// An update costs O(1) besides the record: the legs are measured only when the stops change (or a
    /// plan on roads failed or was left, at most once per `minimumReplanSeconds`), and the route to the
    /// next stop is snapped from where the last update left it. Returns whether the legs were measured
    /// (the first leg then holds the remaining figures: ``DeliveryVehicle/takeFirstLegFromRemaining()``).
    @discardableResult
    func refreshDeliveryProgress(_ record: inout DeliveryVehicleRecord, now: Timestamp, newLocation: Bool) -> Bool {
        let location = record.vehicle.lastLocation
        let here = location?.location.map(GeoPoint.init)
        let t = now.timeIntervalSince1970
        let fixTime = (location?.updateTime ?? location?.serverTime ?? now).timeIntervalSince1970
        var estimator = ETAEstimator(category: VehicleCategory(record.vehicle.type),
                                     observedSpeed: ObservedSpeed(snapshot: record.tracking.speed))
        if newLocation, let reported = location?.speed, reported >= 0 {
            estimator.observe(metersPerSecond: reported, at: fixTime)
        }
        let measured = measureLegsIfDue(&record, now: now, metersPerSecond: estimator.freeFlowMetersPerSecond(now: t))
        defer {
            record.tracking.speed = estimator.observedSpeed.snapshot
            if measured { record.vehicle.takeFirstLegFromRemaining() }
        }
        guard let here else {
            record.vehicle.remainingDistanceMeters = nil
            record.vehicle.remainingDuration = nil
            record.tracking.snappable = nil
            return measured
        }
        let observesPosition = newLocation && location?.speed == nil
        let eta: WaypointETA?
        if let route = nextStopRoute(record) {
            var progress = RouteProgress(route: route.route, resumingAtMeters: record.tracking.travelledMeters ?? 0)
            let match = progress.update(here, heading: location?.heading.map(Double.init))
            record.tracking.travelledMeters = match.travelledMeters
            record.tracking.snappable = !match.isOffRoute
            if observesPosition { estimator.observe(position: here, at: fixTime) }
            eta = estimator.estimate(from: match, waypoints: route.waypoints, now: t).first
        } else {
            record.tracking.snappable = false
            if observesPosition { estimator.observe(position: here, at: fixTime) }
            let next = record.vehicle.remainingVehicleJourneySegments.first?.stop?.plannedLocation?.point.map(GeoPoint.init)
            eta = next.flatMap { estimator.estimateWithoutRoute(from: here, to: [$0], now: t).first }
        }
        if record.vehicle.remainingVehicleJourneySegments.first?.stop?.state == .arrived {
            record.vehicle.remainingDistanceMeters = 0
            record.vehicle.remainingDuration = .zero
        } else {
            record.vehicle.remainingDistanceMeters = eta.map { Int32(roundingClamped: $0.remainingMeters) }
            record.vehicle.remainingDuration = eta.map { ProtoDuration(timeInterval: $0.remainingSeconds) }
        }
        return measured
    }

    /// Measures each remaining segment's `drivingDistanceMeters`, `drivingDuration` and path: the first from
    /// the vehicle's location, the others from the stop before. With a router, the legs follow its route
    /// through the vehicle and every stop (one plan), each as long as its path (the way the remaining
    /// distance is measured along it; a router's own figure can differ by some percent) and as long in
    /// time as the router says; otherwise they are great-circle distances times the detour factor at
    /// `metersPerSecond` (the vehicle's observed speed, or its type's default). The first leg's figures
    /// are then replaced by the vehicle's remaining ones (``refreshDeliveryProgress(_:now:newLocation:)``).
    ///
    /// Measured when the stops change (their places or order, or the vehicle's first location), at once;
    /// and, at most once per `minimumReplanSeconds`, when a plan on roads failed, or the vehicle left the
    /// planned first leg while following no route of the driver's. Returns whether they were measured.
    ///
    /// A leg no road covers is a straight-line estimate (``FleetRouting/Router/routeLegs(_:model:)``) while the
    /// others keep their roads; the vehicle's `estimatedLegs` names it by its stop, with the router's reason,
    /// and the engine's log says so when that changes.
    @discardableResult
    func measureLegsIfDue(_ record: inout DeliveryVehicleRecord, now: Timestamp, metersPerSecond: Double) -> Bool {
        let segments = record.vehicle.remainingVehicleJourneySegments
        let here = record.vehicle.lastLocation?.location.map(GeoPoint.init)
        // The places of stops unchanged since they were encoded were digested with their text.
        let digest = record.encodedStops.flatMap { $0.segments == segments ? $0.placesDigest : nil } ?? Self.stopPlacesDigest(segments)
        let key = Self.measuredStopsKey(placesDigest: digest, hasOrigin: here != nil)
        if record.tracking.measuredStops == key {
            guard configuration.router != nil, !segments.isEmpty, here != nil else { return false }
            let failed = record.tracking.legsOnRoads != true
            let strayed = record.tracking.legsOnRoads == true && !record.vehicle.hasDriverRoute && record.tracking.snappable == false
            guard failed || strayed else { return false }
            if let last = record.tracking.measuredAt, now.timeIntervalSince(last) < configuration.minimumReplanSeconds { return false }
        }
        record.tracking.measuredStops = key
        record.tracking.measuredAt = now
        record.tracking.travelledMeters = nil
        let stops = segments.map { $0.stop?.plannedLocation?.point.map(GeoPoint.init) ?? GeoPoint(latitude: 0, longitude: 0) }
        var legs = [Leg?](repeating: nil, count: stops.count)
        var onRoads = false
        var estimated: [EstimatedRouteLeg] = []
        if let router = configuration.router, !stops.isEmpty {
            let waypoints = (here.map { [$0] } ?? []) + stops
            let request = RouteRequest(waypoints: waypoints, category: VehicleCategory(record.vehicle.type))
            let plan = waypoints.count >= 2 ? try? router.routeLegs(request) : nil
            // Leg k of the request leads to stop k, or to stop k + 1 when it starts at the first stop.
            let firstEnd = here == nil ? 0 : 1
            estimated = (plan?.estimatedLegs ?? []).map {
                EstimatedRouteLeg(leg: Int32($0.leg + 1 - firstEnd), cause: $0.cause, reason: $0.reason)
            }
            if let plan, !plan.isEstimate {
                for i in stops.indices where i + firstEnd >= 1 {
                    let leg = i + firstEnd - 1
                    let a = plan.waypointIndices[leg], b = plan.waypointIndices[leg + 1]
                    var points = Array(plan.points[a...b])
                    // A road route starts where the router joined the roads; the first leg starts at the
                    // vehicle (in a yard, say), so that the vehicle is on it from the start.
                    if i == 0, let here, Geodesy.distance(points[0], here) > 1 { points.insert(here, at: 0) }
                    // A leg no road covers keeps its estimate (the straight line times the detour factor).
                    let meters = plan.isEstimated(leg: leg) ? plan.cumulativeMeters[b] - plan.cumulativeMeters[a]
                                                            : Route(points: points)?.totalMeters ?? 0
                    legs[i] = Leg(meters: meters, seconds: plan.cumulativeSeconds[b] - plan.cumulativeSeconds[a], points: points)
                }
                onRoads = true
            }
        }
        if estimated != record.vehicle.estimatedLegs {
            record.vehicle.estimatedLegs = estimated
            configuration.log?(Self.estimatedLegsLine(vehicle: record.vehicle.name ?? record.key.id, legs: estimated) { "stop \($0 + 1)" })
        }
        if !onRoads {
            let speed = max(metersPerSecond, 0.1)
            for i in stops.indices {
                guard let from = i == 0 ? here : stops[i - 1] else { continue }
                let meters = Geodesy.distance(from, stops[i]) * SpeedModel.standard.detourFactor
                legs[i] = Leg(meters: meters, seconds: meters / speed, points: [from, stops[i]])
            }
        }
        for (i, leg) in legs.enumerated() {
            record.vehicle.remainingVehicleJourneySegments[i].drivingDistanceMeters = leg.map { Int32(roundingClamped: $0.meters) }
            record.vehicle.remainingVehicleJourneySegments[i].drivingDuration = leg.map { ProtoDuration(timeInterval: $0.seconds) }
            record.vehicle.remainingVehicleJourneySegments[i].path = []
        }
        record.tracking.legPaths = legs.map { $0.map { Polyline.encode($0.points) } ?? "" }
        record.tracking.legsOnRoads = onRoads ? true : (configuration.router == nil || stops.isEmpty ? nil : false)
        return true
    }

    /// The stops' places in order (their digest, ``stopPlacesDigest(_:)``), and whether the legs start at
    /// the vehicle, as short text kept with the vehicle: a change measures the legs again. A digest
    /// rather than the places' own text (400 characters for 20 stops), since every location report
    /// writes the key.
    static func measuredStopsKey(placesDigest: UInt64, hasOrigin: Bool) -> String {
        (hasOrigin ? "@" : "") + String(placesDigest, radix: 16)
    }

    /// A digest of the places of `segments`' stops in order: 64-bit FNV-1a of their text (each stop's
    /// latitude and longitude), the same in every process, so that engines sharing a store agree.
    static func stopPlacesDigest(_ segments: [VehicleJourneySegment]) -> UInt64 {
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ text: String) {
            for byte in text.utf8 {
                digest ^= UInt64(byte)
                digest &*= 0x0000_0100_0000_01b3
            }
        }
        for (i, segment) in segments.enumerated() {
            let point = segment.stop?.plannedLocation?.point
            add("\(i == 0 ? "" : ";")\(point?.latitude ?? 0),\(point?.longitude ?? 0)")
        }
        return digest
    }

    /// The route the vehicle follows to its next stop: the driver's `currentRouteSegment` when it ends at
    /// that stop, else the engine's first leg when it was planned on roads; nil when there is neither
    /// (the distance to the stop is then a great-circle estimate).
    func nextStopRoute(_ record: DeliveryVehicleRecord) -> DeliveryRouteCache.Entry? {
        let vehicle = record.vehicle
        let stop = vehicle.remainingVehicleJourneySegments.first?.stop?.plannedLocation?.point.map(GeoPoint.init)
        if vehicle.hasDriverRoute, let bytes = vehicle.currentRouteSegment?.bytes {
            // The route's own bytes (hashed: a few microseconds for a long route) tell one route from
            // another, whoever wrote it and however soon after the last.
            let identity = "driver \(bytes.count) \(bytes.hashValue) to \(stop.map { "\($0.latitude),\($0.longitude)" } ?? "end")"
            let entry = deliveryRoutes.entry(for: record.key, identity: identity) {
                guard let points = try? Polyline.decode(String(decoding: bytes, as: UTF8.self)),
                      let route = Route(points: points) else { return nil }
                if let stop, Geodesy.distance(route.end, stop) > Self.driverRouteStopToleranceMeters { return nil }
                return (route, RouteWaypoints(route: route, positions: [stop ?? route.end]))
            }
            if let entry { return entry }
        }
        guard record.tracking.legsOnRoads == true, let stop, let encoded = record.tracking.legPaths.first, !encoded.isEmpty else {
            return nil
        }
        let identity = "leg \(encoded.utf8.count) \(encoded.hashValue)"
        return deliveryRoutes.entry(for: record.key, identity: identity) {
            guard let points = try? Polyline.decode(encoded), let route = Route(points: points) else { return nil }
            return (route, RouteWaypoints(route: route, positions: [stop]))
        }
    }

    /// The vehicle's remaining path to its next stop: the rest of its route from where the last location
    /// snapped, else a straight line from that location; empty without a location or a stop.
    func pathToNextStop(_ record: DeliveryVehicleRecord) -> [LatLng] {
        guard let here = record.vehicle.lastLocation?.location,
              let stop = record.vehicle.remainingVehicleJourneySegments.first?.stop?.plannedLocation?.point else { return [] }
        if record.tracking.snappable == true, let entry = nextStopRoute(record) {
            let route = entry.route
            let travelled = min(record.tracking.travelledMeters ?? 0, route.totalMeters)
            let at = route.location(atMeters: travelled)
            let rest = [route.point(atMeters: travelled)] + route.points[(at.segmentIndex + 1)...]
            return rest.map { LatLng(latitude: $0.latitude, longitude: $0.longitude) }
        }
        return [here, stop]
    }

    /// Distance and time from the vehicle to each of its remaining stops, in order: to the first its
    /// `remainingDistanceMeters` and `remainingDuration`, then on along the measured legs, the time also
    /// counting the `taskDuration` of every task at each stop on the way. Nil from a figure that is missing on.
    func stopForecasts(_ record: DeliveryVehicleRecord) -> [StopForecast] {
        let segments = record.vehicle.remainingVehicleJourneySegments
        var meters = record.vehicle.remainingDistanceMeters.map(Double.init)
        var seconds = record.vehicle.remainingDuration?.timeInterval
        var result: [StopForecast] = []
        result.reserveCapacity(segments.count)
        for (i, segment) in segments.enumerated() {
            if i > 0 {
                let previous = segments[i - 1]
                meters = meters.flatMap { m in segment.drivingDistanceMeters.map { m + Double($0) } }
                seconds = seconds.flatMap { s in
                    segment.drivingDuration.map { s + $0.timeInterval + Self.serviceSeconds(previous.stop) }
                }
            }
            result.append(StopForecast(meters: meters, seconds: seconds))
        }
        return result
    }

    /// The time the driver spends at a stop: the sum of its tasks' durations.
    static func serviceSeconds(_ stop: VehicleStop?) -> Double {
        (stop?.tasks ?? []).reduce(0) { $0 + ($1.taskDuration?.timeInterval ?? 0) }
    }
}

extension DeliveryVehicle {
    /// Whether the driver sent a route (a non-empty `currentRouteSegment`).
    var hasDriverRoute: Bool { !(currentRouteSegment?.bytes.isEmpty ?? true) }

    /// The first stop's `drivingDistanceMeters` and `drivingDuration` become `remainingDistanceMeters` and
    /// `remainingDuration`, when the vehicle has them and is not at that stop. Google measures the first leg
    /// "from the vehicle's location recorded at the time that this stop was added", and the remaining
    /// figures from the vehicle's latest location along the same way: at the moment the legs are measured
    /// the two are one fact, given once. (Measured apart, a router's leg left out the way from a yard to
    /// the road and had the router's own length and time, while the remaining figures had the route's
    /// length and the vehicle's speed: 1.3 km / 2m36s beside 1.5 km / 2m12s for the same stop.)
    mutating func takeFirstLegFromRemaining() {
        guard !remainingVehicleJourneySegments.isEmpty, remainingVehicleJourneySegments[0].stop?.state != .arrived,
              let meters = remainingDistanceMeters, let duration = remainingDuration else { return }
        remainingVehicleJourneySegments[0].drivingDistanceMeters = meters
        remainingVehicleJourneySegments[0].drivingDuration = duration
    }
}

extension VehicleCategory {
    /// A delivery vehicle's type as a category (unset: AUTO, as Fleet Engine defaults it).
    init(_ type: DeliveryVehicle.DeliveryVehicleType?) {
        switch type {
        case .twoWheeler?: self = .twoWheeler
        case .bicycle?: self = .bicycle
        case .pedestrian?: self = .pedestrian
        default: self = .auto
        }
    }
}
