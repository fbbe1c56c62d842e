import FleetInterface

/// Who a token speaks for. Fleet Engine takes the role from the signing service account's IAM role;
/// a self-hosted server takes it from its configuration (`IssuerRoleMap`) or from the token's
/// `fleetrole` claim.
public enum Role: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Fleet Engine Super User (rides) and Delivery Super User (Deliveries): the provider's backend; may
    /// call every method on everything.
    case server
    /// Driver SDK User (rides): a driver's app; may read and update only its own vehicle (location,
    /// state, route, navigation), and read trips its token names. Delivery Untrusted Driver User
    /// (Deliveries): may read its own delivery vehicle and update its location, nothing else.
    case driver
    /// Delivery Trusted Driver User (Deliveries): a courier's app that the provider trusts; may also
    /// create its own delivery vehicle and change its stops, create tasks, and update the tasks its token
    /// names. On rides it may do what a driver may.
    case trustedDriver = "trusted-driver"
    /// Consumer SDK User (rides): a rider's app; may only read (GetTrip, WatchTrip) the trip its token
    /// names. Delivery Consumer User (Deliveries): may only read the shipment (GetTaskTrackingInfo) its
    /// token's tracking ID names.
    case consumer
    /// Fleet Engine Viewer / Delivery Fleet Reader: dashboards; may read (Get, List, Search, Watch)
    /// everything, write nothing.
    case fleetReader = "fleet-reader"

    /// The `fleetrole` claim value (`server`, `driver`, `trusted-driver`, `consumer`, `fleet-reader`).
    public var description: String { rawValue }

    /// The IAM roles Fleet Engine grants this role through (rides, then Deliveries).
    public var fleetEngineIAMRole: String {
        switch self {
        case .server: "Fleet Engine Super User / Fleet Engine Delivery Super User"
        case .driver: "Fleet Engine Driver SDK User / Fleet Engine Delivery Untrusted Driver User"
        case .trustedDriver: "Fleet Engine Delivery Trusted Driver User"
        case .consumer: "Fleet Engine Consumer SDK User / Fleet Engine Delivery Consumer User"
        case .fleetReader: "Fleet Engine Viewer / Fleet Engine Delivery Fleet Reader User"
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
    /// method by method in `Authorizer.matrix` (a server may act as any role, a trusted driver as a
    /// driver, a fleet reader as a consumer; nothing else). Every role may act as itself.
    public func mayAct(as other: Role) -> Bool {
        FleetMethod.allCases.allSatisfy { method in
            Authorizer.access(of: self, to: method).covers(Authorizer.access(of: other, to: method))
        }
    }
}
