import FleetErrors
import FleetGeo
import FleetLocation
import FleetModel
import FleetRouting

/// The driver's navigation, as the Driver SDK's navigator feeds the reporter: the route still to drive
/// to the next destination (a rides vehicle's next trip waypoint, a delivery vehicle's next stop), how
/// far and how long it is, and where it ends.
///
/// The route comes from `--route` (a file); without one, from a router (`--router`: the road route from
/// where the vehicle is to its next destination, as the Navigation SDK plans it), else it is the
/// straight line there (also when the router finds no route). Either way it ends at the destination
/// the engine has for the vehicle: the given route is cut where it passes closest to it, and the
/// destination itself is appended when the route does not reach it. With a route but no destinations,
/// the vehicle navigates to the route's end — so `VehicleReporter` asks for fields only once it has
/// installed the engine's destinations (`setDestinations`).
///
/// Each location is matched onto the leg (FleetGeo's `RouteProgress`); the reported segment starts at
/// the route point just behind the vehicle, so it changes only when the vehicle passes a route point.
/// A vehicle off the leg gets a new leg planned from where it is.
public struct Navigator: Sendable {
    /// The whole route given with `--route`, if any.
    public let route: [GeoPoint]?
    /// The engine's destinations for the vehicle, in order (as `setDestinations` last gave them).
    public private(set) var destinations: [Destination] = []
    /// How far a destination may lie from the route before it is appended to it, metres.
    public var destinationToleranceMeters = 50.0
    /// Plans legs on roads when there is no `route`.
    public let router: (any Router)?

    private let category: VehicleCategory
    private var estimator: ETAEstimator
    private var leg: Leg?

    private struct Leg: Sendable {
        var progress: RouteProgress
        var endPoint: Destination
        /// Why the leg is a straight line although there is a router (nil when it is on roads, or there is none).
        var roadError: FleetError?
    }

    /// A navigator following `route` (nil: `router`'s road routes to the destinations, or straight lines
    /// without a router) for a vehicle of `category`.
    public init(route: [GeoPoint]?, category: VehicleCategory = .unknown, router: (any Router)? = nil) {
        self.route = route.flatMap { $0.count >= 2 ? $0 : nil }
        self.router = router
        self.category = category
        self.estimator = ETAEstimator(category: category)
    }

    /// Installs the engine's destinations; a different first destination plans a new leg.
    public mutating func setDestinations(_ newDestinations: [Destination]) {
        if newDestinations.first != destinations.first { leg = nil }
        destinations = newDestinations
    }

    /// Whether there is anything to navigate to: destinations, or a route.
    public var isNavigating: Bool { !destinations.isEmpty || route != nil }

    /// The current leg, once planned: its points, and why it is a straight line when the router found no road route.
    public var plannedLeg: PlannedLeg? { leg.map { PlannedLeg(points: $0.progress.route.points, roadError: $0.roadError) } }

    /// The navigation fields at `sample`, or nil when there is nothing to navigate to.
    public mutating func fields(at sample: LocationSample, now: Double) -> NavigationFields? {
        guard isNavigating else { return nil }
        let here = sample.point
        let time = sample.time?.timeIntervalSince1970 ?? now
        if let speed = sample.speed {
            estimator.observe(metersPerSecond: speed, at: time)
        } else {
            estimator.observe(position: here, at: time)
        }
        if leg == nil { leg = planLeg(from: here) }
        guard var current = leg else { return nil }
        var match = current.progress.update(here, heading: sample.heading)
        if match.isOffRoute, let replanned = planLeg(from: here) {
            current = replanned
            match = current.progress.update(here, heading: sample.heading)
        }
        leg = current
        let points = current.progress.route.points
        let ahead = Array(points[min(match.segmentIndex, points.count - 1)...])
        let segment = Polyline.encode(ahead.count >= 2 ? ahead : [here] + ahead)
        let remaining = max(0, match.remainingMeters)
        let seconds = remaining / estimator.freeFlowMetersPerSecond(now: time)
        return NavigationFields(routeSegment: segment, endPoint: current.endPoint,
                                remainingDistanceMeters: Int32(roundingClamped: remaining),
                                remainingTimeSeconds: Int32(roundingClamped: seconds))
    }

    /// Plans the leg from `here` to the next destination (or the route's end).
    private func planLeg(from here: GeoPoint) -> Leg? {
        guard let endPoint = destinations.first ?? route.map({ Destination(point: $0[$0.count - 1]) }) else { return nil }
        let target = endPoint.point
        let road = roadPoints(from: here, to: target)
        let points = (try? road?.get())
            ?? Self.legPoints(route: route, from: here, to: target, toleranceMeters: destinationToleranceMeters)
        guard let legRoute = Route(points: points) else { return nil }
        let roadError: FleetError? = if case .failure(let error) = road { error } else { nil }
        return Leg(progress: RouteProgress(route: legRoute), endPoint: endPoint, roadError: roadError)
    }

    /// The router's road route from `here` to `target`, ending exactly at `target`, or why there is none (the
    /// leg then falls back on the straight line); nil when there is no router or a route is given.
    private func roadPoints(from here: GeoPoint, to target: GeoPoint) -> Result<[GeoPoint], FleetError>? {
        guard route == nil, let router else { return nil }
        let plan: RoutePlan
        do {
            plan = try router.route(RouteRequest(from: here, to: target, category: category))
        } catch {
            return .failure(error)
        }
        guard !plan.isEstimate else {
            return .failure(FleetError(.internalFault, detail: "the router answered an estimate, not a road route"))
        }
        var points = plan.points
        if points.first != here { points.insert(here, at: 0) }
        if points.last != target { points.append(target) }
        return .success(points)
    }

    /// The points from `here` to `target`: the part of `route` between the places nearest to each, ending
    /// exactly at `target` (which replaces the route's nearest point when within `toleranceMeters` of the
    /// route, and is appended after it otherwise), or the straight line when there is no route or the
    /// target lies behind the vehicle.
    public static func legPoints(route: [GeoPoint]?, from here: GeoPoint, to target: GeoPoint, toleranceMeters: Double) -> [GeoPoint] {
        guard let route, let whole = Route(points: route),
              let start = Geodesy.project(here, ontoPolyline: route),
              let end = Geodesy.project(target, ontoPolyline: route) else {
            return [here, target]
        }
        let startMeters = whole.meters(onSegment: start.segmentIndex, fraction: start.fraction)
        let endMeters = whole.meters(onSegment: end.segmentIndex, fraction: end.fraction)
        guard endMeters > startMeters else { return [here, target] }
        var points = [start.point]
        if end.segmentIndex >= start.segmentIndex + 1 {
            points += route[(start.segmentIndex + 1)...end.segmentIndex]
        }
        points.append(end.point)
        if end.distanceMeters > toleranceMeters {
            points.append(target)
        } else {
            points[points.count - 1] = target
        }
        return points
    }
}

/// A leg the navigator planned: what a simulated drive follows and the route the reporter sends.
public struct PlannedLeg: Sendable, Equatable {
    /// The leg's points, from where it was planned to the next waypoint or stop.
    public var points: [GeoPoint]
    /// Why the leg is a straight line although a router is set (it found no road route); nil otherwise.
    public var roadError: FleetError?
}
