import FleetErrors
import FleetGeo

/// A route question: drive through `waypoints` in order (the first is where the vehicle starts, the
/// last where it must arrive, those between are vias) with a vehicle of `category`.
///
/// The engine asks "vehicle position → its remaining trip waypoints" as one request, so that one plan
/// gives the distance and time to every waypoint (``RoutePlan/arrival(atWaypoint:)``).
public struct RouteRequest: Sendable, Hashable {
    /// Start, vias, destination: at least two points.
    public var waypoints: [GeoPoint]
    /// Which roads the vehicle may use and how fast it drives them.
    public var category: VehicleCategory

    /// A route through `waypoints` (start first, destination last).
    public init(waypoints: [GeoPoint], category: VehicleCategory = .auto) {
        self.waypoints = waypoints
        self.category = category
    }

    /// A route from `origin` to `destination` through `vias` in order.
    public init(from origin: GeoPoint, to destination: GeoPoint, via vias: [GeoPoint] = [], category: VehicleCategory = .auto) {
        self.init(waypoints: [origin] + vias + [destination], category: category)
    }

    /// The request field a waypoint came from, for errors: `from`, `via[0]`, …, `to`.
    public func field(ofWaypoint index: Int) -> String {
        if index == 0 { return "from" }
        if index == waypoints.count - 1 { return "to" }
        return "via[\(index - 1)]"
    }

    /// A waypoint as an error message names it: `the start (60.165, 24.93)`, `via[0] (…)`, `the destination (…)`.
    public func place(ofWaypoint index: Int) -> String {
        let role = index == 0 ? "the start" : index == waypoints.count - 1 ? "the destination" : field(ofWaypoint: index)
        return "\(role) \(waypoints[index])"
    }

    /// Checks what every router needs: two points or more, each a real latitude and longitude.
    /// Throws INVALID_ARGUMENT naming the field at fault.
    public func validate() throws(FleetError) {
        guard waypoints.count >= 2 else {
            throw FleetError(.missingField, detail: "a route needs a start and a destination (from and to)",
                             field: waypoints.isEmpty ? "from" : "to")
        }
        for (index, point) in waypoints.enumerated() {
            guard point.latitude.isFinite, (-90...90).contains(point.latitude) else {
                throw FleetError(.invalidField, detail: "\(field(ofWaypoint: index)).latitude must be between -90 and 90, got \(point.latitude)",
                                 field: field(ofWaypoint: index))
            }
            guard point.longitude.isFinite, (-180...180).contains(point.longitude) else {
                throw FleetError(.invalidField, detail: "\(field(ofWaypoint: index)).longitude must be between -180 and 180, got \(point.longitude)",
                                 field: field(ofWaypoint: index))
            }
        }
    }
}
