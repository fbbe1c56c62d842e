import FleetGeo
import FleetModel
import FleetRouting
import Synchronization

extension SearchQuery {
    /// The most road routes one SearchVehicles plans: about 12 ms of Routino on the machines measured
    /// (0.75 ms a route), whatever the number of vehicles in the radius.
    static let maximumRoutesPerSearch = 16

    /// The candidates with road distances for those that can make the answer: ranked by a lower bound
    /// first (the great circle, which no road beats), they are routed in that order until `count` of them
    /// are known to beat every candidate not routed yet, or the routes per search run out. So the first
    /// `count` are ranked on roads exactly, unless the cap was reached; a candidate the router cannot
    /// route (off the map) keeps its estimate.
    ///
    /// With `timing` (the engine's learned times, ``Engine/learnedLegTiming(provider:now:)``), each routed
    /// candidate's legs are timed as its trip's ETAs would be; an order by ETA then routes up to the cap in the order
    /// of the bound, without stopping early, since a learned road may be faster than the bound's default speed.
    func onRoads(_ candidates: [Candidate], router: any Router, cache: SearchRouteCache, now: Timestamp,
                 timing: ((Candidate, SearchRouteCache.Plan) -> [Double])? = nil) -> [Candidate] {
        var result = candidates
        let detour = SpeedModel.standard.detourFactor
        func bound(_ c: Candidate) -> Double {
            sortKey(pickupMeters: c.pickupMeters / detour, dropoffMeters: c.dropoffMeters.map { $0 / detour },
                    straight: c.straightMeters, speed: c.speed)
        }
        let boundHolds = timing == nil || orderBy == .pickupPointDistance
        let order = result.indices.map { (bound: bound(result[$0]), index: $0) }.sorted { $0.bound < $1.bound }
        var best: [Double] = []  // the road keys found so far, ascending
        var routes = 0
        for (lowerBound, index) in order {
            if boundHolds && best.count >= count && best[count - 1] <= lowerBound { break }
            if routes >= Self.maximumRoutesPerSearch { break }
            routes += 1
            var candidate = result[index]
            guard let plan = cache.plan(of: candidate, dropoff: dropoff, router: router, now: now) else { continue }
            candidate.legMeters = plan.legs
            candidate.legSeconds = timing?(candidate, plan)
            candidate.onRoads = true
            candidate.sortKey = sortKey(candidate)
            result[index] = candidate
            best.insert(candidate.sortKey, at: best.firstIndex { $0 > candidate.sortKey } ?? best.count)
        }
        return result
    }
}

/// Road routes of the legs searches asked about lately, so that a dispatcher searching again around
/// the same pickup, or vehicles standing at a rank, cost no routing. Entries live a minute (a vehicle that
/// moves asks anew, since its position is part of the key).
final class SearchRouteCache: Sendable {
    /// One candidate's drive on roads: the road distance of each leg of its path and, with a dropoff, of pickup
    /// to dropoff; the route's points from the vehicle on, and where along it each point after the first is reached.
    struct Plan: Sendable {
        let legs: [Double]
        let route: Route
        let targets: [Double]
        /// The router's times along `route`.
        let routerTimes: RouterTimes
    }

    private struct Key: Hashable {
        let points: [Int64]
        let category: String
    }
    private struct Entry {
        let plan: Plan?
        let at: Double
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let capacity = 20_000
    private let lifetimeSeconds = 60.0

    /// The candidate's drive on roads; nil when the router finds no route.
    func plan(of c: SearchQuery.Candidate, dropoff: LatLng?, router: any Router, now: Timestamp) -> Plan? {
        let points = (c.path + (dropoff.map { [$0] } ?? [])).map(GeoPoint.init)
        let key = Key(points: points.flatMap { [Int64(($0.latitude * 1e5).rounded()), Int64(($0.longitude * 1e5).rounded())] },
                      category: c.category.name)
        let t = now.timeIntervalSince1970
        if let entry = entries.withLock({ $0[key] }), t - entry.at < lifetimeSeconds { return entry.plan }
        var plan: Plan?
        if let routed = try? router.route(RouteRequest(waypoints: points, category: VehicleCategory(c.category))), !routed.isEstimate {
            // From the vehicle to where the road route starts, as the vehicle's own planned route (`planRouteIfDue`).
            let lead = Geodesy.distance(points[0], routed.points[0])
            var legs = (1..<points.count).map { routed.arrival(atWaypoint: $0).meters - routed.arrival(atWaypoint: $0 - 1).meters }
            legs[0] += lead
            let routePoints = lead > 1 ? [points[0]] + routed.points : routed.points
            if let route = Route(points: routePoints) {
                let offset = lead > 1 ? lead : 0
                plan = Plan(legs: legs, route: route, targets: (1..<points.count).map { offset + routed.arrival(atWaypoint: $0).meters },
                            routerTimes: RouterTimes(cumulativeSeconds: lead > 1 ? [0] + routed.cumulativeSeconds : routed.cumulativeSeconds,
                                                     firstTimedPoint: lead > 1 ? 1 : 0))
            }
        }
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(plan: plan, at: t)
        }
        return plan
    }
}
