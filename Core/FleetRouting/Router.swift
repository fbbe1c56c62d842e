import FleetErrors

/// Plans routes between points for a vehicle category: the seam between the engine (and the
/// executables) and a routing engine. Implementations live in Plugins/Routers and are chosen by URL
/// through ``RouterRegistry``.
///
/// Routers are called from many threads at once; an implementation whose engine is not thread-safe
/// serialises inside itself.
public protocol Router: Sendable {
    /// The URL the router was opened with (`straight`, `routino:/var/lib/fleet/map`), for logs and output.
    var url: String { get }

    /// The route through the request's waypoints.
    ///
    /// Throws INVALID_ARGUMENT for a bad point (`POINT_OFF_MAP` when no road is near it, naming the
    /// field), NOT_FOUND (`ROUTE_NOT_FOUND`) when no road joins two consecutive waypoints.
    func route(_ request: RouteRequest) throws(FleetError) -> RoutePlan
}
