import FleetGeo
import FleetModel

/// A place the navigator drives to: a rides vehicle's trip waypoint, a delivery vehicle's stop, or the
/// end of `--route` when the engine gives neither.
public struct Destination: Sendable, Hashable {
    /// Where it is.
    public var point: GeoPoint
    /// The trip waypoint it is (rides), reported as `currentRouteSegmentEndPoint` with its trip and
    /// type; nil for a delivery stop (whose end point is a plain place) or the end of a route.
    public var waypoint: TripWaypoint?

    /// A destination at `point`.
    public init(point: GeoPoint, waypoint: TripWaypoint? = nil) {
        self.point = point
        self.waypoint = waypoint
    }

    /// A rides vehicle's waypoint (its place, trip and type: what it reports), or nil without a place.
    public init?(waypoint: TripWaypoint) {
        guard let point = waypoint.location?.point else { return nil }
        self.init(point: GeoPoint(latitude: point.latitude, longitude: point.longitude),
                  waypoint: TripWaypoint(location: waypoint.location, tripId: waypoint.tripId, waypointType: waypoint.waypointType))
    }

    /// A delivery vehicle's stop (its planned place), or nil without one.
    public init?(stop: VehicleJourneySegment) {
        guard let point = stop.plannedPoint else { return nil }
        self.init(point: point)
    }

    /// The place as Fleet Engine writes one.
    public var latLng: LatLng { LatLng(latitude: point.latitude, longitude: point.longitude) }

    /// The end point a rides vehicle reports: the waypoint, or a waypoint with the place alone.
    public var tripWaypoint: TripWaypoint { waypoint ?? TripWaypoint(location: TerminalLocation(point: latLng)) }
}
