import FleetInterface

/// Who a token speaks for. Fleet Engine takes the role from the signing service account's IAM role;
/// a self-hosted server takes it from its configuration (`IssuerRoleMap`) or from the token's
/// `fleetrole` claim.
public enum Role: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Fleet Engine Super User: the provider's backend; may call every method on everything.
    case server
    /// Driver SDK User: a driver's app; may read and update only its own vehicle (location, state,
    /// route, navigation), and read trips its token names.
    case driver
    /// Delivery Trusted Driver User: a courier's app that the provider trusts (Deliveries); may also create
    /// and update tasks, and create its own delivery vehicle. On rides it may do what a driver may.
    case trustedDriver = "trusted-driver"
    /// Consumer SDK User: a rider's app; may only read (GetTrip, WatchTrip) the trip its token names.
    case consumer
    /// Fleet Engine Viewer: dashboards; may read (Get, List, Search, Watch) everything, write nothing.
    case fleetReader = "fleet-reader"

    /// The `fleetrole` claim value (`server`, `driver`, `consumer`, `fleet-reader`).
    public var description: String { rawValue }

    /// The IAM role Fleet Engine grants this role through.
    public var fleetEngineIAMRole: String {
        switch self {
        case .server: "Fleet Engine Super User"
        case .driver: "Driver SDK User"
        case .trustedDriver: "Fleet Engine Delivery Trusted Driver User"
        case .consumer: "Consumer SDK User"
        case .fleetReader: "Fleet Engine Viewer"
        }
    }

    /// Reads a role name: the claim value, ignoring case and `-`/`_`/spaces (`fleet-reader`,
    /// `fleet_reader`, `fleetReader`, `FLEETREADER` are all the fleet reader). Nil for anything else.
    public init?(name: String) {
        let folded = String(name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
        guard let role = Role.allCases.first(where: { $0.rawValue.filter { $0 != "-" } == folded }) else { return nil }
        self = role
    }

    /// Whether a token of this role may act as `other`: `other` can do nothing this role cannot,
    /// method by method in `Authorizer.matrix` (a server may mint any role, a fleet reader a
    /// consumer, a driver a consumer; nothing else). Every role may act as itself.
    public func mayAct(as other: Role) -> Bool {
        FleetMethod.allCases.allSatisfy { method in
            Authorizer.access(of: self, to: method).covers(Authorizer.access(of: other, to: method))
        }
    }
}
