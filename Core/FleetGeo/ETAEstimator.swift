#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a vehicle's position on its route into a remaining distance and time to each of its waypoints.
///
/// Speed along the route comes, in order, from: the traffic on each stretch (SLOW and TRAFFIC_JAM, see
/// ``SpeedModel``), the vehicle's recent observed speed in free-flowing traffic (``ObservedSpeed``, blended toward
/// the default when the vehicle has mostly been standing), and the default speed of its ``VehicleCategory``.
/// Without a route, and from an off-route vehicle back to its next waypoint, distances are great-circle distances
/// times ``SpeedModel/detourFactor`` and flagged as estimates. Deterministic: time is always passed in.
public struct ETAEstimator: Sendable {
    /// The vehicle's category, for its default speed.
    public let category: VehicleCategory
    /// The model's constants.
    public let model: SpeedModel
    /// The vehicle's smoothed observed speed.
    public private(set) var observedSpeed: ObservedSpeed

    /// An estimator for a vehicle of `category` that has not been observed yet.
    public init(category: VehicleCategory, model: SpeedModel = .standard) {
        self.category = category
        self.model = model
        self.observedSpeed = ObservedSpeed(model: model)
    }

    /// An estimator that carries on from a stored observed speed.
    public init(category: VehicleCategory, model: SpeedModel = .standard, observedSpeed: ObservedSpeed) {
        self.category = category
        self.model = model
        self.observedSpeed = observedSpeed
    }

    /// Feeds a reported position at `time` (epoch seconds); `traffic` is the traffic where the vehicle is
    /// (``TrafficProfile/speed(atMeters:)`` at its matched position), so that speeds in congestion are not averaged.
    public mutating func observe(position: GeoPoint, at time: Double, traffic: TrafficSpeed = .unspecified) {
        observedSpeed.record(position: position, at: time, traffic: traffic)
    }

    /// Feeds a speed reported by the vehicle itself, in metres per second.
    public mutating func observe(metersPerSecond speed: Double, at time: Double,
                                 traffic: TrafficSpeed = .unspecified) {
        observedSpeed.record(metersPerSecond: speed, at: time, traffic: traffic)
    }

    /// The speed the vehicle is expected to hold in normal traffic at `now`, metres per second. Always positive.
    ///
    /// The observed average is trusted by how long the vehicle has been watched (1 − e^(−t/τ),
    /// ``SpeedModel/trustTimeConstantSeconds``) against the category default. If the result is below the stopped
    /// floor (the vehicle has mostly been standing: a long light, a pickup), it blends back toward the default, all
    /// the way when stopped outright; it never drops below the floor (for floor fractions up to one half, as the
    /// default 0.25), so a stopped vehicle never makes the ETA infinite. Observations older than the maximum age are
    /// ignored.
    public func freeFlowMetersPerSecond(now: Double) -> Double {
        let fallback = model.defaultMetersPerSecond(for: category)
        guard let observed = observedSpeed.metersPerSecond, let sampled = observedSpeed.lastSampleTime,
              now - sampled <= model.observationMaximumAgeSeconds else { return fallback }
        let trust = 1 - exp(-observedSpeed.observedSeconds / model.trustTimeConstantSeconds)
        let blended = trust * observed + (1 - trust) * fallback
        let floor = fallback * model.stoppedFloorFraction
        if blended >= floor { return blended }
        let weight = blended / floor
        return weight * blended + (1 - weight) * fallback
    }

    /// The expected speed in `traffic` at `now`, metres per second.
    public func metersPerSecond(in traffic: TrafficSpeed, now: Double) -> Double {
        let freeFlow = freeFlowMetersPerSecond(now: now)
        switch traffic {
        case .normal, .unspecified: return freeFlow
        case .slow: return freeFlow * model.slowFractionOfFreeFlow
        case .trafficJam: return min(freeFlow, model.trafficJamKilometersPerHour / 3.6)
        }
    }

    /// Seconds to drive a distance split by traffic, at the speeds of `now`.
    public func seconds(for meters: TrafficMeters, now: Double) -> Double {
        var total = meters.normal / metersPerSecond(in: .normal, now: now)
        if meters.slow > 0 { total += meters.slow / metersPerSecond(in: .slow, now: now) }
        if meters.trafficJam > 0 { total += meters.trafficJam / metersPerSecond(in: .trafficJam, now: now) }
        return total
    }

    /// Remaining distance and time to every waypoint, in order, from a match on the route: along the route with its
    /// traffic for waypoints on it (0 for those passed), then on to waypoints beyond the route's end as estimates.
    /// Off route, the distance to the next waypoint is a straight line times the detour factor (until a new route
    /// arrives) and every figure is an estimate. O(waypoints × log stretches).
    public func estimate(from match: RouteMatch, waypoints: RouteWaypoints, traffic: TrafficProfile = .none,
                         now: Double) -> [WaypointETA] {
        let all = waypoints.waypoints
        let reached = [WaypointETA](repeating: WaypointETA(remainingMeters: 0, remainingSeconds: 0,
                                                           arrivalTime: now, isEstimate: false),
                                    count: all.count)
        guard let next = waypoints.nextWaypointIndex(afterTravelling: match.travelledMeters) else { return reached }
        var result = Array(reached[..<next])
        if !match.isOffRoute {
            result += legs(from: match.travelledMeters, waypoints: waypoints, startingAt: next, traffic: traffic,
                           now: now, offsetMeters: 0, offsetSeconds: 0, forceEstimate: false)
        } else if let nextAlong = all[next].alongRouteMeters {
            let straight = Geodesy.distance(match.location, all[next].position) * model.detourFactor
            result += legs(from: nextAlong, waypoints: waypoints, startingAt: next, traffic: traffic, now: now,
                           offsetMeters: straight, offsetSeconds: straight / freeFlowMetersPerSecond(now: now),
                           forceEstimate: true)
        } else {
            result += estimateWithoutRoute(from: match.location, to: all[next...].map(\.position), now: now)
        }
        return result
    }

    /// Remaining distance and time to every waypoint when no route is known: great-circle distances from the
    /// vehicle through the waypoints in order, times the detour factor, at the free-flow speed. All estimates.
    public func estimateWithoutRoute(from location: GeoPoint, to waypoints: [GeoPoint], now: Double) -> [WaypointETA] {
        let speed = freeFlowMetersPerSecond(now: now)
        var previous = location
        var meters = 0.0
        return waypoints.map { waypoint in
            meters += Geodesy.distance(previous, waypoint) * model.detourFactor
            previous = waypoint
            return WaypointETA(remainingMeters: meters, remainingSeconds: meters / speed,
                               arrivalTime: now + meters / speed, isEstimate: true)
        }
    }

    /// ETAs to the waypoints from index `first` on, starting `alongMeters` along the route, plus an offset already
    /// covered to get there.
    private func legs(from alongMeters: Double, waypoints: RouteWaypoints, startingAt first: Int,
                      traffic: TrafficProfile, now: Double, offsetMeters: Double, offsetSeconds: Double,
                      forceEstimate: Bool) -> [WaypointETA] {
        let all = waypoints.waypoints
        var result: [WaypointETA] = []
        result.reserveCapacity(all.count - first)
        var beyond: (meters: Double, seconds: Double, previous: GeoPoint)? = nil
        for waypoint in all[first...] {
            var meters: Double
            var seconds: Double
            var isEstimate = forceEstimate
            if let along = waypoint.alongRouteMeters {
                let split = traffic.meters(from: alongMeters, to: along)
                meters = split.total
                seconds = self.seconds(for: split, now: now)
            } else {
                var leg = beyond ?? {
                    let toEnd = traffic.meters(from: alongMeters, to: waypoints.routeTotalMeters)
                    return (toEnd.total, self.seconds(for: toEnd, now: now), waypoints.routeEnd)
                }()
                let straight = Geodesy.distance(leg.previous, waypoint.position) * model.detourFactor
                leg.meters += straight
                leg.seconds += straight / freeFlowMetersPerSecond(now: now)
                leg.previous = waypoint.position
                beyond = leg
                meters = leg.meters
                seconds = leg.seconds
                isEstimate = true
            }
            meters += offsetMeters
            seconds += offsetSeconds
            result.append(WaypointETA(remainingMeters: meters, remainingSeconds: seconds,
                                      arrivalTime: now + seconds, isEstimate: isEstimate))
        }
        return result
    }
}
