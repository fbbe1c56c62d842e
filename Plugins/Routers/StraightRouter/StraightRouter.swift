import FleetErrors
import FleetSchemes
import FleetGeo
import FleetRouting

/// Routes as the crow flies: each leg is the great-circle distance times the detour factor, driven at
/// the category's default speed (both from ``SpeedModel``). Needs no map, answers anywhere on Earth,
/// and always marks its plans as estimates.
///
/// The router to use when no map is configured, and the baseline road routes are judged against.
public struct StraightRouter: Router {
    /// The numbers of the estimate.
    public let model: SpeedModel

    /// A router with the documented speed model.
    public init(model: SpeedModel = .standard) {
        self.model = model
    }

    public var url: String { "straight" }

    /// The waypoints themselves as the route's points, with estimated cumulative distance and time.
    public func route(_ request: RouteRequest) throws(FleetError) -> RoutePlan {
        try request.validate()
        return RoutePlan.greatCircle(request, model: model)
    }

    /// `straight`: registered by the wiring.
    public static let scheme = RouterRegistry.Scheme(
        name: "straight", summary: "great-circle estimates times a detour factor at the category's default speed; no map needed",
        needsPath: false) { _ throws(FleetError) in StraightRouter() }
}
