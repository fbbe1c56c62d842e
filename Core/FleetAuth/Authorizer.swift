import FleetErrors
import FleetInterface
import FleetModel

/// Decides whether a verified token may make a call: the role × method matrix, the token's scope
/// (the `authorization` claim), the provider an issuer is bound to, and the fields a driver may update.
///
/// The matrix, as the method table declares it (`any` = every resource of the provider; `own …` =
/// only the one the token's claim names, `*` matching every one: `own vehicle` is
/// `authorization.vehicleid` on rides and `deliveryvehicleid` on Deliveries, `own trip` `tripid`,
/// `own task` `taskid`, `own shipment` `trackingid`). For Deliveries `driver` is Fleet Engine's Delivery
/// Untrusted Driver and `trusted-driver` its Delivery Trusted Driver:
///
/// | Method                  | server | driver        | trusted-driver | consumer     | fleet-reader |
/// |-------------------------|--------|---------------|----------------|--------------|--------------|
/// | CreateVehicle           | any    | denied        | denied         | denied       | denied       |
/// | GetVehicle              | any    | own vehicle   | own vehicle    | denied       | any          |
/// | UpdateVehicle           | any    | own vehicle ¹ | own vehicle ¹  | denied       | denied       |
/// | UpdateVehicleAttributes | any    | denied        | denied         | denied       | denied       |
/// | ListVehicles            | any    | denied        | denied         | denied       | any          |
/// | SearchVehicles          | any    | denied        | denied         | denied       | any          |
/// | DeleteVehicle           | any    | denied        | denied         | denied       | denied       |
/// | CreateTrip              | any    | denied        | denied         | denied       | denied       |
/// | GetTrip                 | any    | own trip      | own trip       | own trip     | any          |
/// | UpdateTrip              | any    | denied        | denied         | denied       | denied       |
/// | SearchTrips             | any    | denied        | denied         | denied       | any          |
/// | DeleteTrip              | any    | denied        | denied         | denied       | denied       |
/// | ReportBillableTrip      | any    | denied        | denied         | denied       | denied       |
/// | WatchTrip               | any    | own trip      | own trip       | own trip     | any          |
/// | CreateDeliveryVehicle   | any    | denied        | own vehicle    | denied       | denied       |
/// | GetDeliveryVehicle      | any    | own vehicle   | own vehicle    | denied       | any          |
/// | DeleteDeliveryVehicle   | any    | denied        | denied         | denied       | denied       |
/// | UpdateDeliveryVehicle   | any    | own vehicle ² | own vehicle    | denied       | denied       |
/// | BatchCreateTasks        | any    | denied        | any            | denied       | denied       |
/// | CreateTask              | any    | denied        | any            | denied       | denied       |
/// | GetTask                 | any    | denied        | denied         | denied       | any          |
/// | DeleteTask              | any    | denied        | denied         | denied       | denied       |
/// | UpdateTask              | any    | denied        | own task       | denied       | denied       |
/// | ListTasks               | any    | denied        | denied         | denied       | any          |
/// | GetTaskTrackingInfo     | any    | denied        | denied         | own shipment | any          |
/// | ListDeliveryVehicles    | any    | denied        | denied         | denied       | any          |
///
/// ¹ Only the fields in `driverUpdatableVehicleFields` (location, state, route, navigation); see
/// `authorizeVehicleUpdate(token:paths:)`.
/// ² Only the fields in `driverUpdatableDeliveryVehicleFields` (location, route segment, navigation:
/// Google's "update the delivery vehicle location"); see `authorizeDeliveryVehicleUpdate(token:paths:)`.
///
/// Beyond the matrix, a token whose claim names one specific resource of a kind (not `*`) may touch
/// only that one of that kind, whatever its role, and may not call a method that works on many of
/// that kind (List, Search, BatchCreateTasks); a claim that is absent does not narrow a role with
/// `any` access. Failures:
/// - role may not call the method → PERMISSION_DENIED `.insufficientRole`;
/// - scoped to another resource or provider → PERMISSION_DENIED `.jwtForOtherResource`
///   ("JWT signed for another trip");
/// - an `own …` cell without that claim in the token (a driver token reading a trip, a consumer token
///   without `trackingid` reading a shipment) → UNAUTHENTICATED `.jwtWithoutTripID` ("JWT signed
///   without a trip ID"), as the Consumer SDK guide answers it: a token minted for the resource fixes it.
public enum Authorizer {
    /// The whole matrix as data, role by role, method by method (`Role.allCases` × `FleetMethod.allCases`),
    /// so documentation can be generated from it.
    public static let matrix: [(role: Role, method: FleetMethod, access: Access)] =
        Role.allCases.flatMap { role in FleetMethod.allCases.map { (role, $0, access(of: role, to: $0)) } }

    /// The matrix as Markdown: a table with one row per method and one column per role (cells as in
    /// the type's documentation, marked ¹ or ² where the role may update only some fields), then the
    /// footnotes listing those fields. docs/http-api.md holds it.
    public static func matrixMarkdown() -> String {
        var lines = ["| Method | " + Role.allCases.map(\.rawValue).joined(separator: " | ") + " |",
                     "|---" + String(repeating: "|---", count: Role.allCases.count) + "|"]
        for method in FleetMethod.allCases {
            let cells = Role.allCases.map { role in
                let mark = fieldLimits.firstIndex { $0.method == method && $0.roles.contains(role) }.map { " " + footnoteMarks[$0] } ?? ""
                return access(of: role, to: method).description + mark
            }
            lines.append("| \(method) | " + cells.joined(separator: " | ") + " |")
        }
        for (index, limit) in fieldLimits.enumerated() {
            lines.append("")
            lines.append("\(footnoteMarks[index]) \(limit.method) by \(limit.roles.map(\.rawValue).joined(separator: " and ")) tokens: only "
                         + limit.fields.sorted().map { "`\($0)`" }.joined(separator: ", ") + " in the update mask.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The Update methods on which some roles may name only some fields: the footnotes of the matrix.
    private static let fieldLimits: [(method: FleetMethod, roles: [Role], fields: [String])] = [
        (.updateVehicle, Role.allCases.filter { updatableVehicleFields(for: $0)?.isEmpty == false },
         driverUpdatableVehicleFields.map(\.rawValue)),
        (.updateDeliveryVehicle, Role.allCases.filter { updatableDeliveryVehicleFields(for: $0)?.isEmpty == false },
         driverUpdatableDeliveryVehicleFields.map(\.rawValue)),
    ]
    private static let footnoteMarks = ["¹", "²"]

    /// The matrix cell for `role` and `method`, as the method table declares it (`FleetMethod.access(for:)`).
    public static func access(of role: Role, to method: FleetMethod) -> Access {
        method.access(for: role)
    }

    /// The Vehicle fields a driver token may name in UpdateVehicle's update mask: its location, state,
    /// route and navigation status, as the Driver SDK reports them.
    public static let driverUpdatableVehicleFields: Set<Vehicle.FieldPath> = [
        .lastLocation, .pastLocations, .vehicleState,
        .route, .currentRouteSegment, .currentRouteSegmentEndPoint, .currentRouteSegmentTraffic,
        .remainingDistanceMeters, .remainingTimeSeconds, .etaToFirstWaypoint, .navigationStatus,
    ]

    /// The fields `role` may update with UpdateVehicle: nil for no limit beyond the API's own rules
    /// (server), `driverUpdatableVehicleFields` for drivers (trusted or not: on rides a trusted driver
    /// may do what a driver may), empty for roles that may not call it.
    public static func updatableVehicleFields(for role: Role) -> Set<Vehicle.FieldPath>? {
        switch access(of: role, to: .updateVehicle) {
        case .denied: return []
        default: return role == .driver || role == .trustedDriver ? driverUpdatableVehicleFields : nil
        }
    }

    /// The DeliveryVehicle fields an untrusted delivery driver (`driver`) may name in
    /// UpdateDeliveryVehicle's update mask: what its app reports with each location (Fleet Engine's
    /// Delivery Untrusted Driver "can only update the delivery vehicle location", IAM permission
    /// `deliveryvehicles.updateLocation`): the location and unsent past locations, navigation status, and
    /// the current route segment with its end point and remaining distance and duration. Never the stops
    /// (`remainingVehicleJourneySegments`, which assign and close tasks), `attributes` or `type`.
    public static let driverUpdatableDeliveryVehicleFields: Set<DeliveryVehicle.FieldPath> = [
        .lastLocation, .pastLocations, .navigationStatus,
        .currentRouteSegment, .currentRouteSegmentEndPoint, .remainingDistanceMeters, .remainingDuration,
    ]

    /// The fields `role` may update with UpdateDeliveryVehicle: nil for no limit beyond the API's own
    /// rules (server, trusted driver), `driverUpdatableDeliveryVehicleFields` for the untrusted driver,
    /// empty for roles that may not call it.
    public static func updatableDeliveryVehicleFields(for role: Role) -> Set<DeliveryVehicle.FieldPath>? {
        switch access(of: role, to: .updateDeliveryVehicle) {
        case .denied: return []
        default: return role == .driver ? driverUpdatableDeliveryVehicleFields : nil
        }
    }

    /// Checks that `token` may call `method` on the resources the call names (`FleetCall.resources`:
    /// its provider and the vehicle, trip, delivery vehicle, task or tracking ID; none for List and
    /// Search; a create names the new resource's ID).
    ///
    /// - Throws: PERMISSION_DENIED (`.insufficientRole`, `.jwtForOtherResource`), UNAUTHENTICATED
    ///   (`.jwtWithoutTripID`), with a message naming the role, method and IDs.
    public static func authorize(token: VerifiedToken, method: FleetMethod, resources: CallResources) throws {
        let access = access(of: token.role, to: method)
        if access == .denied { throw roleDenied(token.role, method) }
        let provider = resources.provider ?? ""
        if let bound = token.provider, bound != provider {
            throw FleetError(.jwtForOtherResource, detail: "JWT signed for provider \(quote(bound)), the call is for provider \(quote(provider))")
        }
        let scope = token.scope
        if let own = access.scopedKind(for: method) {
            guard scope[own] != nil else {
                throw FleetError(.jwtWithoutTripID, detail: "JWT signed without a \(own.idNoun) (authorization.\(AuthorizationScope.claimName(of: own))); a \(token.role) token needs one to call \(method)")
            }
            guard resources[own] != nil else {
                throw FleetError(.insufficientRole, detail: "a \(token.role) token may call \(method) only on the \(own.noun) its token names (authorization.\(AuthorizationScope.claimName(of: own))), and the call names none")
            }
        }
        for kind in FleetMethod.Resource.allCases {
            if let id = resources[kind], let claimed = scope[kind], !scope.names(id, of: kind) {
                throw FleetError(.jwtForOtherResource, detail: "JWT signed for another \(kind.noun) (\(quote(claimed))), the call is for \(kind.noun) \(quote(id))")
            }
        }
        if method.readsCollection, let claimed = scope[method.resource], claimed != AuthorizationScope.wildcard {
            throw FleetError(.jwtForOtherResource, detail: "JWT signed for the single \(method.resource.noun) \(quote(claimed)) may not call \(method), which works on more than one \(method.resource.noun)")
        }
    }

    /// Checks the update mask of an UpdateVehicle call against the token's role: a driver may name
    /// only `driverUpdatableVehicleFields` (paths in JSON or proto spelling; `lastLocation.location`
    /// counts as `lastLocation`). Call it besides `authorize(token:method:resources:)`, which checks the vehicle.
    ///
    /// - Throws: PERMISSION_DENIED `.insufficientRole` naming the first field the role may not update.
    public static func authorizeVehicleUpdate(token: VerifiedToken, paths: [String]) throws {
        try authorizeUpdate(token: token, method: .updateVehicle, allowed: updatableVehicleFields(for: token.role), paths: paths)
    }

    /// `authorizeVehicleUpdate(token:paths:)` for a parsed update mask.
    public static func authorizeVehicleUpdate(token: VerifiedToken, mask: FieldMask) throws {
        try authorizeVehicleUpdate(token: token, paths: mask.paths)
    }

    /// Checks the update mask of an UpdateDeliveryVehicle call against the token's role: an untrusted
    /// delivery driver (`driver`) may name only `driverUpdatableDeliveryVehicleFields`, never the stops
    /// (`remainingVehicleJourneySegments`), attributes or type. Call it besides
    /// `authorize(token:method:resources:)`, which checks the delivery vehicle.
    ///
    /// - Throws: PERMISSION_DENIED `.insufficientRole` naming the first field the role may not update.
    public static func authorizeDeliveryVehicleUpdate(token: VerifiedToken, paths: [String]) throws {
        try authorizeUpdate(token: token, method: .updateDeliveryVehicle, allowed: updatableDeliveryVehicleFields(for: token.role), paths: paths)
    }

    /// A role's field limit on an Update method (nil: none beyond the API's own rules; empty: may not
    /// call it), checked against the mask's paths.
    private static func authorizeUpdate<Field: ProtoFieldPath>(token: VerifiedToken, method: FleetMethod, allowed: Set<Field>?,
                                                              paths: [String]) throws {
        guard let allowed else { return }
        if allowed.isEmpty { throw roleDenied(token.role, method) }
        for path in paths {
            // A name that is no field is not the driver's to write either; the engine would refuse it as
            // INVALID_ARGUMENT, but the role is checked first.
            if let field = Field(firstSegmentOf: path), allowed.contains(field) { continue }
            let field = String(FieldMask.camelCase(path).prefix { $0 != "." })
            throw FleetError(.insufficientRole,
                             detail: "a \(token.role) token may not update the \(method.resource.noun)'s \(quote(field)); it may update \(allowed.map(\.rawValue).sorted().joined(separator: ", "))",
                             field: "updateMask")
        }
    }

    /// The methods `role` may call at all, in `FleetMethod` order.
    public static func methods(allowedFor role: Role) -> [FleetMethod] {
        FleetMethod.allCases.filter { access(of: role, to: $0) != .denied }
    }

    private static func roleDenied(_ role: Role, _ method: FleetMethod) -> FleetError {
        let allowed = methods(allowedFor: role).map(\.rawValue).joined(separator: ", ")
        return FleetError(.insufficientRole, detail: "a \(role) token may not call \(method) (\(role) tokens may call: \(allowed.isEmpty ? "nothing" : allowed))")
    }

    private static func quote(_ text: String) -> String { JSON.string(text).serialized() }
}

extension Access {
    /// The kind of resource whose claim an `own …` cell checks on `method` (`ownVehicle` on a
    /// delivery method is the delivery vehicle, `deliveryvehicleid`); nil for `any` and `denied`.
    func scopedKind(for method: FleetMethod) -> FleetMethod.Resource? {
        switch self {
        case .ownVehicle: method.resource == .deliveryVehicle ? .deliveryVehicle : .vehicle
        case .ownTrip: .trip
        case .ownTask: .task
        case .ownTracking: .taskTrackingInfo
        case .any, .denied: nil
        }
    }
}

extension FleetMethod.Resource {
    /// How messages name one: `vehicle`, `trip`, `delivery vehicle`, `task`, `tracking ID`.
    var noun: String {
        switch self {
        case .vehicle: "vehicle"
        case .trip: "trip"
        case .deliveryVehicle: "delivery vehicle"
        case .task: "task"
        case .taskTrackingInfo: "tracking ID"
        }
    }

    /// How messages name its ID: `vehicle ID` … `tracking ID`.
    var idNoun: String { self == .taskTrackingInfo ? noun : noun + " ID" }
}
