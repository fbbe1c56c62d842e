import FleetErrors
import FleetGeo
import FleetRouting
import Synchronization

/// A router for tests: drives every leg as an L (north or south first, then east or west) at 10 m/s, so its routes
/// are measurably longer than a straight line; counts its calls; can be told to fail (NOT_FOUND without a cause), or
/// that no road leads to a point (ROUTE_NOT_FOUND for the legs ending there, naming the field, as Routino says it).
public final class LRouter: Router {
    public let calls = Mutex(0)
    public let failing = Mutex(false)
    public let noRoadTo = Mutex<GeoPoint?>(nil)
    public var url: String { "test-l" }

    public init() {}

    public func route(_ request: RouteRequest) throws(FleetError) -> RoutePlan {
        calls.withLock { $0 += 1 }
        if failing.withLock({ $0 }) { throw FleetError(code: .notFound, message: "no route between the points") }
        let unreachable = noRoadTo.withLock { $0 }
        var points = [request.waypoints[0]]
        var indices = [0]
        for (index, next) in request.waypoints.enumerated().dropFirst() {
            if next == unreachable {
                throw FleetError(.routeNotFound, detail: "no motorcar route to \(request.field(ofWaypoint: index)) \(next) on test-l",
                                 field: request.field(ofWaypoint: index))
            }
            let previous = points[points.count - 1]
            points.append(GeoPoint(latitude: next.latitude, longitude: previous.longitude))
            points.append(next)
            indices.append(points.count - 1)
        }
        var meters = [0.0]
        for i in points.indices.dropFirst() { meters.append(meters[i - 1] + Geodesy.distance(points[i - 1], points[i])) }
        return RoutePlan(points: points, cumulativeMeters: meters, cumulativeSeconds: meters.map { $0 / 10 },
                         waypointIndices: indices, isEstimate: false)
    }

    /// How many routes were asked.
    public var count: Int { calls.withLock { $0 } }
}
