import FleetErrors
import FleetRouting
import Foundation
import RoutinoRouter
import StraightRouter

extension Wiring {
    /// The routers this build knows: `straight`, `routino:DIR`.
    public static let routers = RouterRegistry([StraightRouter.scheme, RoutinoRouter.scheme])

    /// The router `--router` names, else `FLEET_ROUTER`, else great-circle estimates (`straight`).
    public static func openRouter(_ flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws(FleetError) -> any Router {
        try routers.openRouter(RouterRegistry.chosenURL(flag: flag, environment: environment))
    }

    /// The router an engine plans vehicles' routes with: the one `--router` (else `FLEET_ROUTER`) names, or
    /// nil when that is `straight`, whose great-circle estimates the engine makes by itself already.
    public static func planningRouter(_ flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws(FleetError) -> (any Router)? {
        let router = try openRouter(flag, environment: environment)
        return router is StraightRouter ? nil : router
    }
}
