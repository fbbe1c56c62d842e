import FleetAuth
import FleetErrors
import FleetModel
import Testing

/// The permission matrix, written out by hand here (not read from `Authorizer`) so the test can fail:
/// columns server, driver, consumer, fleet-reader. A = any, V = own vehicle, T = own trip, - = denied.
private let expectedMatrix: [FleetMethod: String] = [
    .createVehicle: "A---",
    .getVehicle: "AV-A",
    .updateVehicle: "AV--",
    .updateVehicleAttributes: "A---",
    .listVehicles: "A--A",
    .searchVehicles: "A--A",
    .deleteVehicle: "A---",
    .createTrip: "A---",
    .getTrip: "ATTA",
    .updateTrip: "A---",
    .searchTrips: "A--A",
    .deleteTrip: "A---",
    .reportBillableTrip: "A---",
    .watchTrip: "ATTA",
]

private let roleColumns: [Role] = [.server, .driver, .consumer, .fleetReader]

private func expectedAccess(_ role: Role, _ method: FleetMethod) -> Access {
    let row = Array(expectedMatrix[method]!)
    switch row[roleColumns.firstIndex(of: role)!] {
    case "A": return .any
    case "V": return .ownVehicle
    case "T": return .ownTrip
    default: return .denied
    }
}

private let allCells: [(Role, FleetMethod)] = Role.allCases.flatMap { role in FleetMethod.allCases.map { (role, $0) } }

@Suite struct AuthorizerTests {
    private let provider = "acme"

    private func token(_ role: Role, _ scope: AuthorizationScope, provider: String? = nil) -> VerifiedToken {
        VerifiedToken(claims: fleetClaims(role: role, scope: scope), role: role, provider: provider)
    }

    /// The IDs a call of `method` names: one vehicle or one trip, none for List/Search.
    private func ids(for method: FleetMethod, vehicle: String = "v1", trip: String = "t1") -> (vehicle: String?, trip: String?) {
        if method.readsCollection { return (nil, nil) }
        return method.resource == .vehicle ? (vehicle, nil) : (nil, trip)
    }

    @Test func theMatrixCoversEveryRoleAndMethodOnce() {
        #expect(FleetMethod.allCases.count == 14)
        #expect(Authorizer.matrix.count == Role.allCases.count * FleetMethod.allCases.count)
        #expect(Set(Authorizer.matrix.map { "\($0.role)/\($0.method)" }).count == Authorizer.matrix.count)
        for cell in Authorizer.matrix { #expect(cell.access == expectedAccess(cell.role, cell.method), "\(cell.role) \(cell.method)") }
    }

    @Test func theMatrixRendersAsMarkdownForDocs() {
        let lines = Authorizer.matrixMarkdown().split(separator: "\n").map(String.init)
        #expect(lines.count == 2 + FleetMethod.allCases.count)
        #expect(lines[0] == "| Method | server | driver | consumer | fleet-reader |")
        #expect(lines[1] == "|---|---|---|---|---|")
        #expect(lines.contains("| GetTrip | any | own trip | own trip | any |"))
        #expect(lines.contains("| UpdateVehicle | any | own vehicle | denied | denied |"))
    }

    @Test(arguments: allCells)
    func everyRoleAndMethodIsAllowedOrDeniedPerTheMatrix(role: Role, method: FleetMethod) throws {
        let scoped = token(role, AuthorizationScope(vehicleID: "v1", tripID: "t1"))
        let (vehicle, trip) = ids(for: method)
        let expected = expectedAccess(role, method)
        #expect(Authorizer.access(of: role, to: method) == expected)
        if expected == .denied {
            expectFleetError(.insufficientRole, containing: "a \(role) token may not call \(method.rawValue)") {
                try Authorizer.authorize(token: scoped, method: method, provider: provider, vehicleID: vehicle, tripID: trip)
            }
        } else {
            let wide = token(role, .everything)
            try Authorizer.authorize(token: wide, method: method, provider: provider, vehicleID: vehicle, tripID: trip)
            if !method.readsCollection {
                try Authorizer.authorize(token: scoped, method: method, provider: provider, vehicleID: vehicle, tripID: trip)
            }
        }
    }

    @Test(arguments: allCells.filter { expectedAccess($0.0, $0.1) != .denied && !$0.1.readsCollection })
    func aTokenScopedToAnotherResourceIsDenied(role: Role, method: FleetMethod) throws {
        let scoped = token(role, AuthorizationScope(vehicleID: "v1", tripID: "t1"))
        let (vehicle, trip) = ids(for: method, vehicle: "v2", trip: "t2")
        let word = method.resource == .vehicle ? "vehicle" : "trip"
        expectFleetError(.jwtForOtherResource, containing: "JWT signed for another \(word) (\"\(word == "vehicle" ? "v1" : "t1")\"), the call is for \(word) \"\(word == "vehicle" ? "v2" : "t2")\"") {
            try Authorizer.authorize(token: scoped, method: method, provider: provider, vehicleID: vehicle, tripID: trip)
        }
    }

    @Test func aConsumerReadsOnlyItsTrip() throws {
        let consumer = token(.consumer, AuthorizationScope(tripID: "trip-A"))
        try Authorizer.authorize(token: consumer, method: .getTrip, provider: provider, vehicleID: nil, tripID: "trip-A")
        try Authorizer.authorize(token: consumer, method: .watchTrip, provider: provider, vehicleID: nil, tripID: "trip-A")
        let error = expectFleetError(.jwtForOtherResource, containing: "JWT signed for another trip") {
            try Authorizer.authorize(token: consumer, method: .getTrip, provider: provider, vehicleID: nil, tripID: "trip-B")
        }
        #expect(error?.code == .permissionDenied)
        expectFleetError(.insufficientRole, containing: "a consumer token may not call UpdateTrip (consumer tokens may call: GetTrip, WatchTrip)") {
            try Authorizer.authorize(token: consumer, method: .updateTrip, provider: provider, vehicleID: nil, tripID: "trip-A")
        }
    }

    /// As the Consumer SDK guide says: a JWT signed without a trip ID is 401 UNAUTHENTICATED.
    @Test func aConsumerTokenWithoutATripIDIsUnauthenticated() {
        let consumer = token(.consumer, AuthorizationScope(vehicleID: "v1"))
        let error = expectFleetError(.jwtWithoutTripID, containing: "JWT signed without a trip ID") {
            try Authorizer.authorize(token: consumer, method: .getTrip, provider: provider, vehicleID: nil, tripID: "t1")
        }
        #expect(error?.code == .unauthenticated)
        #expect(error?.code.httpStatus == 401)
        let noClaim = VerifiedToken(claims: fleetClaims(role: .consumer, scope: nil), role: .consumer)
        expectFleetError(.jwtWithoutTripID) {
            try Authorizer.authorize(token: noClaim, method: .watchTrip, provider: provider, vehicleID: nil, tripID: "t1")
        }
    }

    @Test func aDriverTouchesOnlyItsVehicle() throws {
        let driver = token(.driver, AuthorizationScope(vehicleID: "v1"))
        try Authorizer.authorize(token: driver, method: .updateVehicle, provider: provider, vehicleID: "v1", tripID: nil)
        try Authorizer.authorize(token: driver, method: .getVehicle, provider: provider, vehicleID: "v1", tripID: nil)
        expectFleetError(.jwtForOtherResource, containing: "JWT signed for another vehicle") {
            try Authorizer.authorize(token: driver, method: .updateVehicle, provider: provider, vehicleID: "v2", tripID: nil)
        }
        let readsItsTrip = expectFleetError(.jwtWithoutTripID, containing: "JWT signed without a trip ID") {
            try Authorizer.authorize(token: driver, method: .getTrip, provider: provider, vehicleID: nil, tripID: "t1")
        }
        #expect(readsItsTrip?.code == .unauthenticated)
        expectFleetError(.jwtWithoutTripID, containing: "without a vehicle ID") {
            try Authorizer.authorize(token: token(.driver, AuthorizationScope(tripID: "t1")), method: .updateVehicle,
                                     provider: provider, vehicleID: "v1", tripID: nil)
        }
        expectFleetError(.insufficientRole) {
            try Authorizer.authorize(token: driver, method: .updateVehicleAttributes, provider: provider, vehicleID: "v1", tripID: nil)
        }
    }

    @Test func wildcardsMatchAnyID() throws {
        try Authorizer.authorize(token: token(.driver, AuthorizationScope(vehicleID: "*")), method: .updateVehicle,
                                 provider: provider, vehicleID: "any-vehicle", tripID: nil)
        try Authorizer.authorize(token: token(.consumer, AuthorizationScope(tripID: "*")), method: .getTrip,
                                 provider: provider, vehicleID: nil, tripID: "any-trip")
        try Authorizer.authorize(token: token(.server, .everything), method: .updateTrip, provider: provider, vehicleID: "v9", tripID: "t9")
    }

    @Test func aServerTokenScopedToOneResourceCannotListOrTouchOthers() throws {
        let scoped = token(.server, AuthorizationScope(vehicleID: "v1"))
        try Authorizer.authorize(token: scoped, method: .deleteVehicle, provider: provider, vehicleID: "v1", tripID: nil)
        // No tripid claim: trips are not narrowed for a role with `any` access.
        try Authorizer.authorize(token: scoped, method: .searchTrips, provider: provider, vehicleID: nil, tripID: nil)
        try Authorizer.authorize(token: scoped, method: .createTrip, provider: provider, vehicleID: "v1", tripID: "new")
        expectFleetError(.jwtForOtherResource, containing: "JWT signed for the single vehicle \"v1\" may not call ListVehicles") {
            try Authorizer.authorize(token: scoped, method: .listVehicles, provider: provider, vehicleID: nil, tripID: nil)
        }
        expectFleetError(.jwtForOtherResource) {
            try Authorizer.authorize(token: scoped, method: .createTrip, provider: provider, vehicleID: "v2", tripID: "new")
        }
    }

    @Test func aFleetReaderNeverWrites() throws {
        let reader = token(.fleetReader, .everything)
        for method in FleetMethod.allCases where !method.isReadOnly {
            expectFleetError(.insufficientRole, containing: "a fleet-reader token may not call \(method.rawValue)") {
                try Authorizer.authorize(token: reader, method: method, provider: provider, vehicleID: "v1", tripID: "t1")
            }
        }
    }

    @Test func aProviderBoundTokenStaysInItsProvider() throws {
        let bound = token(.server, .everything, provider: "acme")
        try Authorizer.authorize(token: bound, method: .getTrip, provider: "acme", vehicleID: nil, tripID: "t1")
        expectFleetError(.jwtForOtherResource, containing: "JWT signed for provider \"acme\", the call is for provider \"other\"") {
            try Authorizer.authorize(token: bound, method: .getTrip, provider: "other", vehicleID: nil, tripID: "t1")
        }
    }

    @Test func aDriverUpdatesOnlyLocationStateRouteAndNavigation() throws {
        let driver = token(.driver, AuthorizationScope(vehicleID: "v1"))
        try Authorizer.authorizeVehicleUpdate(token: driver, paths: ["lastLocation", "vehicle_state", "lastLocation.location",
                                                                     "currentRouteSegment", "remaining_distance_meters", "navigationStatus", "route"])
        try Authorizer.authorizeVehicleUpdate(token: driver, mask: FieldMask(["etaToFirstWaypoint", "current_route_segment_end_point"]))
        for field in ["attributes", "maximumCapacity", "supportedTripTypes", "vehicleType", "licensePlate", "backToBackEnabled", "waypoints"] {
            let error = expectFleetError(.insufficientRole, containing: "a driver token may not update the vehicle's \"\(field)\"") {
                try Authorizer.authorizeVehicleUpdate(token: driver, paths: ["lastLocation", field])
            }
            #expect(error?.field == "updateMask")
        }
        #expect(Authorizer.driverUpdatableVehicleFields.isSuperset(of: [.lastLocation, .vehicleState, .route, .navigationStatus]))
        try Authorizer.authorizeVehicleUpdate(token: token(.server, .everything), paths: ["attributes", "maximumCapacity"])
        expectFleetError(.insufficientRole) {
            try Authorizer.authorizeVehicleUpdate(token: token(.consumer, AuthorizationScope(tripID: "t1")), paths: ["lastLocation"])
        }
        expectFleetError(.insufficientRole) {
            try Authorizer.authorizeVehicleUpdate(token: token(.fleetReader, .everything), paths: ["vehicleState"])
        }
    }
}
