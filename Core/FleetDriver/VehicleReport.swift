import FleetModel

/// The fields the reporter keeps on the server: the vehicle's state, its last location and, while
/// navigating, its route. The reporter holds two: what it wants the server to have, and what the server
/// acknowledged; an update carries exactly the difference.
public struct VehicleReport: Sendable, Hashable {
    /// `vehicleState`; nil for "no opinion".
    public var state: VehicleState?
    /// `lastLocation`; nil for "no opinion".
    public var location: VehicleLocation?
    /// The route fields; nil when not navigating (a route on the server is then cleared).
    public var navigation: NavigationFields?

    /// A report; every field defaults to "no opinion".
    public init(state: VehicleState? = nil, location: VehicleLocation? = nil, navigation: NavigationFields? = nil) {
        self.state = state
        self.location = location
        self.navigation = navigation
    }

    /// What the server holds after acknowledging `self` sent over `acknowledged`: each field of `self`
    /// that has an opinion, else the acknowledged one; the navigation as `self` has it.
    public func acknowledged(over acknowledged: VehicleReport) -> VehicleReport {
        VehicleReport(state: state ?? acknowledged.state, location: location ?? acknowledged.location, navigation: navigation)
    }
}
