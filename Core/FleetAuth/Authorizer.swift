import FleetErrors
import FleetInterface
import FleetModel

/// Decides whether a verified token may make a call: the role × method matrix, the token's
/// vehicle/trip scope, the provider an issuer is bound to, and the vehicle fields a driver may update.
///
/// The matrix (`any` = every resource of the provider; `own vehicle`/`own trip` = only the one the
/// token's `authorization.vehicleid`/`tripid` names, `*` matching every one):
///
/// | Method                  | server | driver        | consumer | fleet-reader |
/// |-------------------------|--------|---------------|----------|--------------|
/// | CreateVehicle           | any    | denied        | denied   | denied       |
/// | GetVehicle              | any    | own vehicle   | denied   | any          |
/// | UpdateVehicle           | any    | own vehicle ¹ | denied   | denied       |
/// | UpdateVehicleAttributes | any    | denied        | denied   | denied       |
/// | ListVehicles            | any    | denied        | denied   | any          |
/// | SearchVehicles          | any    | denied        | denied   | any          |
/// | DeleteVehicle           | any    | denied        | denied   | denied       |
/// | CreateTrip              | any    | denied        | denied   | denied       |
/// | GetTrip                 | any    | own trip      | own trip | any          |
/// | UpdateTrip              | any    | denied        | denied   | denied       |
/// | SearchTrips             | any    | denied        | denied   | any          |
/// | DeleteTrip              | any    | denied        | denied   | denied       |
/// | ReportBillableTrip      | any    | denied        | denied   | denied       |
/// | WatchTrip               | any    | own trip      | own trip | any          |
///
/// ¹ Only the fields in `driverUpdatableVehicleFields` (location, state, route, navigation); see
/// `authorizeVehicleUpdate(token:paths:)`.
///
/// Beyond the matrix, a token whose `vehicleid`/`tripid` names one specific resource (not `*`) may
/// touch only that one, whatever its role, and may not call List/Search on that kind of resource; a
/// claim that is absent does not narrow a role with `any` access. Failures:
/// - role may not call the method → PERMISSION_DENIED `.insufficientRole`;
/// - scoped to another vehicle, trip or provider → PERMISSION_DENIED `.jwtForOtherResource`
///   ("JWT signed for another trip");
/// - `own trip`/`own vehicle` access without that ID in the token (a driver token reading a trip)
///   → UNAUTHENTICATED `.jwtWithoutTripID` ("JWT signed without a trip ID"), as the Consumer SDK
///   guide answers it: a token minted for the trip fixes it.
public enum Authorizer {
    /// The whole matrix as data, role by role, method by method (`Role.allCases` × `FleetMethod.allCases`),
    /// so documentation can be generated from it.
    public static let matrix: [(role: Role, method: FleetMethod, access: Access)] =
        Role.allCases.flatMap { role in FleetMethod.allCases.map { (role, $0, access(of: role, to: $0)) } }

    /// The matrix as a Markdown table: one row per method, one column per role, cells as in the
    /// type's documentation (`any`, `own vehicle`, `own trip`, `denied`).
    public static func matrixMarkdown() -> String {
        var lines = ["| Method | " + Role.allCases.map(\.rawValue).joined(separator: " | ") + " |",
                     "|---" + String(repeating: "|---", count: Role.allCases.count) + "|"]
        for method in FleetMethod.allCases {
            let cells = Role.allCases.map { access(of: $0, to: method).description }
            lines.append("| \(method) | " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

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
    /// (server), `driverUpdatableVehicleFields` for drivers, empty for roles that may not call it.
    public static func updatableVehicleFields(for role: Role) -> Set<Vehicle.FieldPath>? {
        switch access(of: role, to: .updateVehicle) {
        case .denied: return []
        default: return role == .driver ? driverUpdatableVehicleFields : nil
        }
    }

    /// Checks that `token` may call `method` on `provider`, on the vehicle and/or trip named (nil when
    /// the call names none, as List and Search do; CreateTrip passes the new trip's ID and its vehicle).
    ///
    /// - Throws: PERMISSION_DENIED (`.insufficientRole`, `.jwtForOtherResource`), UNAUTHENTICATED
    ///   (`.jwtWithoutTripID`),
    ///   with a message naming the role, method and IDs.
    public static func authorize(token: VerifiedToken, method: FleetMethod, provider: String, vehicleID: String?, tripID: String?) throws {
        let access = access(of: token.role, to: method)
        if access == .denied { throw roleDenied(token.role, method) }
        if let bound = token.provider, bound != provider {
            throw FleetError(.jwtForOtherResource, detail: "JWT signed for provider \(quote(bound)), the call is for provider \(quote(provider))")
        }
        let scope = token.scope
        switch access {
        case .ownVehicle:
            guard scope.vehicleID != nil else {
                throw FleetError(.jwtWithoutTripID, detail: "JWT signed without a vehicle ID (authorization.vehicleid); a \(token.role) token needs one to call \(method)")
            }
            guard vehicleID != nil else { throw roleDenied(token.role, method) }
        case .ownTrip:
            guard scope.tripID != nil else {
                throw FleetError(.jwtWithoutTripID, detail: "JWT signed without a trip ID (authorization.tripid); a \(token.role) token needs one to call \(method)")
            }
            guard tripID != nil else { throw roleDenied(token.role, method) }
        case .ownTask, .ownTracking:
            throw roleDenied(token.role, method)
        case .any, .denied:
            break
        }
        if let vehicleID, let claimed = scope.vehicleID, !scope.names(vehicleID: vehicleID) {
            throw FleetError(.jwtForOtherResource, detail: "JWT signed for another vehicle (\(quote(claimed))), the call is for vehicle \(quote(vehicleID))")
        }
        if let tripID, let claimed = scope.tripID, !scope.names(tripID: tripID) {
            throw FleetError(.jwtForOtherResource, detail: "JWT signed for another trip (\(quote(claimed))), the call is for trip \(quote(tripID))")
        }
        if method.readsCollection {
            let claimed = method.resource == .vehicle ? scope.vehicleID : scope.tripID
            if let claimed, claimed != AuthorizationScope.wildcard {
                throw FleetError(.jwtForOtherResource, detail: "JWT signed for the single \(method.resource.rawValue) \(quote(claimed)) may not call \(method), which reads every \(method.resource.rawValue)")
            }
        }
    }

    /// Checks the update mask of an UpdateVehicle call against the token's role: a driver may name
    /// only `driverUpdatableVehicleFields` (paths in JSON or proto spelling; `lastLocation.location`
    /// counts as `lastLocation`). Call it besides `authorize(token:method:…)`, which checks the vehicle.
    ///
    /// - Throws: PERMISSION_DENIED `.insufficientRole` naming the first field the role may not update.
    public static func authorizeVehicleUpdate(token: VerifiedToken, paths: [String]) throws {
        guard let allowed = updatableVehicleFields(for: token.role) else { return }
        if allowed.isEmpty { throw roleDenied(token.role, .updateVehicle) }
        for path in paths {
            // A name that is no field is not the driver's to write either; the engine would refuse it as
            // INVALID_ARGUMENT, but the role is checked first.
            if let field = Vehicle.FieldPath(firstSegmentOf: path), allowed.contains(field) { continue }
            let field = String(FieldMask.camelCase(path).prefix { $0 != "." })
            throw FleetError(.insufficientRole,
                             detail: "a \(token.role) token may not update the vehicle's \(quote(field)); it may update \(allowed.map(\.rawValue).sorted().joined(separator: ", "))",
                             field: "updateMask")
        }
    }

    /// `authorizeVehicleUpdate(token:paths:)` for a parsed update mask.
    public static func authorizeVehicleUpdate(token: VerifiedToken, mask: FieldMask) throws {
        try authorizeVehicleUpdate(token: token, paths: mask.paths)
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
