import FleetErrors
import FleetGeo

extension Router {
    /// The route through the request's waypoints, on roads wherever a road joins them: one call to the
    /// router when it routes the whole request (the usual case); when it answers that no road serves a
    /// point or joins two (`POINT_OFF_MAP`, `ROUTE_NOT_FOUND`), each leg is asked on its own, and a leg it
    /// cannot route becomes a great-circle estimate (``RoutePlan/greatCircle(_:model:)``) from where the
    /// plan so far ends (the road the leg before reached, which may be some metres from its waypoint) to
    /// the leg's waypoint, named in the plan's ``RoutePlan/estimatedLegs`` with the router's cause and
    /// message. The other legs keep the router's geometry, distances and times; where a road leg starts
    /// away from where the plan so far ended (after an estimate, at the road nearest its waypoint), the
    /// gap is a straight stretch at the category's default speed.
    ///
    /// A plan none of whose legs is on roads has `isEstimate` true, and still names every leg and why.
    ///
    /// - Throws: what `route` throws for the request itself (a bad point) or for anything but a missing
    ///   road (an unusable map, a router fault).
    public func routeLegs(_ request: RouteRequest, model: SpeedModel = .standard) throws(FleetError) -> RoutePlan {
        do {
            return try route(request)
        } catch where !Self.meansNoRoad(error) {
            throw error
        } catch {
            // The leg-by-leg plan below.
        }
        var builder = LegwisePlan(category: request.category, model: model)
        for leg in request.waypoints.indices.dropLast() {
            let pair = RouteRequest(waypoints: [request.waypoints[leg], request.waypoints[leg + 1]], category: request.category)
            do {
                builder.append(try route(pair))
            } catch where Self.meansNoRoad(error) {
                // The straight line starts where the plan so far ends: the road the leg before reached.
                let straight = RouteRequest(waypoints: [builder.points.last ?? pair.waypoints[0], pair.waypoints[1]], category: request.category)
                builder.append(RoutePlan.greatCircle(straight, model: model),
                               estimated: EstimatedLeg(leg: leg, cause: error.cause ?? "", reason: error.message))
            }
        }
        return builder.plan
    }

    /// Whether an error of `route` says that no road serves a point or joins two, rather than that the
    /// request or the router is at fault.
    static func meansNoRoad(_ error: FleetError) -> Bool {
        error.cause == ErrorCause.routeNotFound.id || error.cause == ErrorCause.pointOffMap.id
    }
}

/// A plan put together leg by leg: each leg's points follow the last, with a straight stretch between
/// where one leg ended and the next began when they differ.
private struct LegwisePlan {
    let speed: Double
    var points: [GeoPoint] = []
    var meters: [Double] = []
    var seconds: [Double] = []
    var waypointIndices: [Int] = []
    var estimated: [EstimatedLeg] = []
    var legs = 0

    init(category: VehicleCategory, model: SpeedModel) {
        speed = model.defaultMetersPerSecond(for: category)
    }

    mutating func append(_ leg: RoutePlan, estimated reason: EstimatedLeg? = nil) {
        var first = leg.waypointIndices[0]
        let end = leg.waypointIndices[leg.waypointIndices.count - 1]
        var offset = (meters: 0.0, seconds: 0.0)
        if let last = points.last {
            let gap = Geodesy.distance(last, leg.points[first])
            // A leg that starts where the plan ended continues from its last point; one that starts elsewhere
            // is reached by a straight stretch.
            let joined = (meters: meters[meters.count - 1] + (gap > 0.5 ? gap : 0),
                          seconds: seconds[seconds.count - 1] + (gap > 0.5 ? gap / speed : 0))
            offset = (joined.meters - leg.cumulativeMeters[first], joined.seconds - leg.cumulativeSeconds[first])
            if gap <= 0.5 { first += 1 }
        } else {
            waypointIndices.append(0)
        }
        for index in leg.points.indices where index >= first && index <= end {
            points.append(leg.points[index])
            meters.append(offset.meters + leg.cumulativeMeters[index])
            seconds.append(offset.seconds + leg.cumulativeSeconds[index])
        }
        waypointIndices.append(points.count - 1)
        if let reason { estimated.append(reason) }
        legs += 1
    }

    var plan: RoutePlan {
        let all = !estimated.isEmpty && estimated.count == legs
        return RoutePlan(points: points, cumulativeMeters: meters, cumulativeSeconds: seconds, waypointIndices: waypointIndices,
                         isEstimate: all, estimatedLegs: estimated)
    }
}
