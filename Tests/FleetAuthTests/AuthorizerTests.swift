import FleetAuth
import FleetInterface
import FleetErrors
import FleetModel
import Foundation
import Testing

/// The permission matrix, written out by hand here (not read from `Authorizer`) so the test can fail:
/// columns server, driver, trusted-driver, consumer, fleet-reader. A = any, V = own vehicle (the
/// delivery vehicle on Deliveries), T = own trip, K = own task, S = own shipment, - = denied. The
/// Deliveries rows follow Google's IAM roles: the untrusted driver has deliveryvehicles.get and
/// .updateLocation; the trusted driver deliveryvehicles.create/.get/.update and tasks.create/.update;
/// the delivery consumer tasktrackinginfo.get; neither driver has tasks.get.
private let expectedMatrix: [FleetMethod: String] = [
    .createVehicle: "A----",
    .getVehicle: "AVV-A",
    .updateVehicle: "AVV--",
    .updateVehicleAttributes: "A----",
    .listVehicles: "A---A",
    .searchVehicles: "A---A",
    .deleteVehicle: "A----",
    .createTrip: "A----",
    .getTrip: "ATTTA",
    .updateTrip: "A----",
    .searchTrips: "A---A",
    .deleteTrip: "A----",
    .reportBillableTrip: "A----",
    .watchTrip: "ATTTA",
    .createDeliveryVehicle: "A-V--",
    .getDeliveryVehicle: "AVV-A",
    .deleteDeliveryVehicle: "A----",
    .updateDeliveryVehicle: "AVV--",
    .batchCreateTasks: "A-A--",
    .createTask: "A-A--",
    .getTask: "A---A",
    .deleteTask: "A----",
    .updateTask: "A-K--",
    .listTasks: "A---A",
    .getTaskTrackingInfo: "A--SA",
    .listDeliveryVehicles: "A---A",
    .watchTask: "A---A",
    .watchTaskTrackingInfo: "A--SA",
]

private let roleColumns: [Role] = [.server, .driver, .trustedDriver, .consumer, .fleetReader]

private func expectedAccess(_ role: Role, _ method: FleetMethod) -> Access {
    let row = Array(expectedMatrix[method]!)
    switch row[roleColumns.firstIndex(of: role)!] {
    case "A": return .any
    case "V": return .ownVehicle
    case "T": return .ownTrip
    case "K": return .ownTask
    case "S": return .ownTracking
    default: return .denied
    }
}

private let allCells: [(Role, FleetMethod)] = Role.allCases.flatMap { role in FleetMethod.allCases.map { (role, $0) } }
private let ownCells = allCells.filter { ![.any, .denied].contains(expectedAccess($0.0, $0.1)) }

/// The claim and the words messages use for each kind of resource, by hand.
private let kinds: [FleetMethod.Resource: (claim: String, noun: String, idNoun: String)] = [
    .vehicle: ("vehicleid", "vehicle", "vehicle ID"),
    .trip: ("tripid", "trip", "trip ID"),
    .deliveryVehicle: ("deliveryvehicleid", "delivery vehicle", "delivery vehicle ID"),
    .task: ("taskid", "task", "task ID"),
    .taskTrackingInfo: ("trackingid", "tracking ID", "tracking ID"),
]

/// The ID of a resource of `kind`: `v1`, `t1`, `d1`, `k1`, `s1` (`v2`… for `number` 2).
private func id(_ kind: FleetMethod.Resource, _ number: Int = 1) -> String {
    let letter = switch kind {
    case .vehicle: "v"
    case .trip: "t"
    case .deliveryVehicle: "d"
    case .task: "k"
    case .taskTrackingInfo: "s"
    }
    return "\(letter)\(number)"
}

/// A scope naming resource 1 of every kind.
private let ownEverything = AuthorizationScope(vehicleID: "v1", tripID: "t1", deliveryVehicleID: "d1", taskID: "k1", trackingID: "s1")

@Suite struct AuthorizerTests {
    private let provider = "acme"

    private func token(_ role: Role, _ scope: AuthorizationScope, provider: String? = nil) -> VerifiedToken {
        VerifiedToken(claims: fleetClaims(role: role, scope: scope), role: role, provider: provider)
    }

    /// What a call of `method` names: resource `number` of its kind, nothing for List/Search/BatchCreate.
    private func resources(for method: FleetMethod, _ number: Int = 1) -> CallResources {
        var resources = CallResources(provider: provider)
        if !method.readsCollection { resources[method.resource] = id(method.resource, number) }
        return resources
    }

    private func authorize(_ token: VerifiedToken, _ method: FleetMethod, _ resources: CallResources) throws {
        try Authorizer.authorize(token: token, method: method, resources: resources)
    }

    @Test func theMatrixCoversEveryRoleAndMethodOnce() {
        #expect(FleetMethod.allCases.count == 28)
        #expect(Set(expectedMatrix.keys) == Set(FleetMethod.allCases))
        #expect(Authorizer.matrix.count == Role.allCases.count * FleetMethod.allCases.count)
        #expect(Set(Authorizer.matrix.map { "\($0.role)/\($0.method)" }).count == Authorizer.matrix.count)
        for cell in Authorizer.matrix { #expect(cell.access == expectedAccess(cell.role, cell.method), "\(cell.role) \(cell.method)") }
    }

    @Test func theMatrixRendersAsMarkdownForDocs() {
        let lines = Authorizer.matrixMarkdown().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.filter { $0.hasPrefix("|") }.count == 2 + FleetMethod.allCases.count)
        #expect(lines[0] == "| Method | server | driver | trusted-driver | consumer | fleet-reader |")
        #expect(lines[1] == "|---|---|---|---|---|---|")
        #expect(lines.contains("| GetTrip | any | own trip | own trip | own trip | any |"))
        #expect(lines.contains("| UpdateVehicle | any | own vehicle ¹ | own vehicle ¹ | denied | denied |"))
        #expect(lines.contains("| UpdateDeliveryVehicle | any | own vehicle ² | own vehicle | denied | denied |"))
        #expect(lines.contains("| UpdateTask | any | denied | own task | denied | denied |"))
        #expect(lines.contains("| GetTaskTrackingInfo | any | denied | denied | own shipment | any |"))
        let deliveryNote = lines.first { $0.hasPrefix("² UpdateDeliveryVehicle by driver tokens: only ") } ?? ""
        #expect(deliveryNote.contains("`lastLocation`") && deliveryNote.contains("`remainingDuration`"), "\(lines)")
        #expect(!deliveryNote.contains("remainingVehicleJourneySegments"))
        #expect(lines.contains { $0.hasPrefix("¹ UpdateVehicle by driver and trusted-driver tokens: only ") })
    }

    /// The API documentation shows the generated matrix, so it cannot drift from the method table.
    @Test func theHTTPAPIDocumentationHoldsTheGeneratedMatrix() throws {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("docs/http-api.md").path) {
            folder = folder.deletingLastPathComponent()
        }
        let document = try String(contentsOf: folder.appendingPathComponent("docs/http-api.md"), encoding: .utf8)
        #expect(document.contains(Authorizer.matrixMarkdown()),
                "docs/http-api.md must hold Authorizer.matrixMarkdown():\n\(Authorizer.matrixMarkdown())")
    }

    @Test(arguments: allCells)
    func everyRoleAndMethodIsAllowedOrDeniedPerTheMatrix(role: Role, method: FleetMethod) throws {
        let scoped = token(role, ownEverything)
        let expected = expectedAccess(role, method)
        #expect(Authorizer.access(of: role, to: method) == expected)
        if expected == .denied {
            expectFleetError(.insufficientRole, containing: "a \(role) token may not call \(method.rawValue)") {
                try authorize(scoped, method, resources(for: method))
            }
            expectFleetError(.insufficientRole) { try authorize(token(role, .everything), method, resources(for: method)) }
        } else {
            try authorize(token(role, .everything), method, resources(for: method))
            if !method.readsCollection { try authorize(scoped, method, resources(for: method)) }
        }
    }

    @Test(arguments: allCells.filter { expectedAccess($0.0, $0.1) != .denied && !$0.1.readsCollection })
    func aTokenScopedToAnotherResourceIsDenied(role: Role, method: FleetMethod) throws {
        let words = kinds[method.resource]!
        let mine = id(method.resource), other = id(method.resource, 2)
        expectFleetError(.jwtForOtherResource, containing: "JWT signed for another \(words.noun) (\"\(mine)\"), the call is for \(words.noun) \"\(other)\"") {
            try authorize(token(role, ownEverything), method, resources(for: method, 2))
        }
    }

    /// An `own …` cell needs its claim: without it the token is UNAUTHENTICATED (401), as the Consumer
    /// SDK guide answers a JWT signed without a trip ID, whatever other claims it carries.
    @Test(arguments: ownCells)
    func anOwnCellWithoutItsClaimIsUnauthenticated(role: Role, method: FleetMethod) throws {
        let kind: FleetMethod.Resource = switch expectedAccess(role, method) {
        case .ownVehicle: method.resource == .deliveryVehicle ? .deliveryVehicle : .vehicle
        case .ownTrip: .trip
        case .ownTask: .task
        default: .taskTrackingInfo
        }
        var scope = ownEverything
        scope[kind] = nil
        let words = kinds[kind]!
        let error = expectFleetError(.jwtWithoutTripID, containing: "JWT signed without a \(words.idNoun) (authorization.\(words.claim)); a \(role) token needs one to call \(method)") {
            try authorize(token(role, scope), method, resources(for: method))
        }
        #expect(error?.code.httpStatus == 401)
    }

    /// An `own …` cell on a call that names no such resource (a name that did not parse) is the role's to
    /// be refused, not a pass.
    @Test(arguments: ownCells)
    func anOwnCellOnACallNamingNothingIsDenied(role: Role, method: FleetMethod) throws {
        expectFleetError(.insufficientRole, containing: "a \(role) token may call \(method) only on the") {
            try authorize(token(role, .everything), method, CallResources(provider: provider))
        }
    }

    /// A token naming one resource of a kind may not call what works on many of that kind, whatever
    /// its role; a wildcard or an absent claim may.
    @Test(arguments: allCells.filter { expectedAccess($0.0, $0.1) == .any && $0.1.readsCollection })
    func aSingleResourceTokenMayNotCallACollectionMethod(role: Role, method: FleetMethod) throws {
        let words = kinds[method.resource]!
        var single = AuthorizationScope.everything
        single[method.resource] = id(method.resource)
        expectFleetError(.jwtForOtherResource, containing: "JWT signed for the single \(words.noun) \"\(id(method.resource))\" may not call \(method)") {
            try authorize(token(role, single), method, CallResources(provider: provider))
        }
        var absent = single
        absent[method.resource] = nil
        try authorize(token(role, absent), method, CallResources(provider: provider))
    }

    @Test func aConsumerReadsOnlyItsTrip() throws {
        let consumer = token(.consumer, AuthorizationScope(tripID: "trip-A"))
        try authorize(consumer, .getTrip, CallResources(provider: provider, tripID: "trip-A"))
        try authorize(consumer, .watchTrip, CallResources(provider: provider, tripID: "trip-A"))
        let error = expectFleetError(.jwtForOtherResource, containing: "JWT signed for another trip") {
            try authorize(consumer, .getTrip, CallResources(provider: provider, tripID: "trip-B"))
        }
        #expect(error?.code == .permissionDenied)
        expectFleetError(.insufficientRole, containing: "a consumer token may not call UpdateTrip (consumer tokens may call: GetTrip, WatchTrip, GetTaskTrackingInfo, WatchTaskTrackingInfo)") {
            try authorize(consumer, .updateTrip, CallResources(provider: provider, tripID: "trip-A"))
        }
    }

    /// As the Consumer SDK guide says: a JWT signed without a trip ID is 401 UNAUTHENTICATED.
    @Test func aConsumerTokenWithoutATripIDIsUnauthenticated() {
        let consumer = token(.consumer, AuthorizationScope(vehicleID: "v1"))
        let error = expectFleetError(.jwtWithoutTripID, containing: "JWT signed without a trip ID") {
            try authorize(consumer, .getTrip, CallResources(provider: provider, tripID: "t1"))
        }
        #expect(error?.code == .unauthenticated)
        #expect(error?.code.httpStatus == 401)
        let noClaim = VerifiedToken(claims: fleetClaims(role: .consumer, scope: nil), role: .consumer)
        expectFleetError(.jwtWithoutTripID) { try authorize(noClaim, .watchTrip, CallResources(provider: provider, tripID: "t1")) }
    }

    @Test func aDriverTouchesOnlyItsVehicle() throws {
        let driver = token(.driver, AuthorizationScope(vehicleID: "v1"))
        try authorize(driver, .updateVehicle, CallResources(provider: provider, vehicleID: "v1"))
        try authorize(driver, .getVehicle, CallResources(provider: provider, vehicleID: "v1"))
        expectFleetError(.jwtForOtherResource, containing: "JWT signed for another vehicle") {
            try authorize(driver, .updateVehicle, CallResources(provider: provider, vehicleID: "v2"))
        }
        let readsItsTrip = expectFleetError(.jwtWithoutTripID, containing: "JWT signed without a trip ID") {
            try authorize(driver, .getTrip, CallResources(provider: provider, tripID: "t1"))
        }
        #expect(readsItsTrip?.code == .unauthenticated)
        expectFleetError(.jwtWithoutTripID, containing: "without a vehicle ID") {
            try authorize(token(.driver, AuthorizationScope(tripID: "t1")), .updateVehicle, CallResources(provider: provider, vehicleID: "v1"))
        }
        expectFleetError(.insufficientRole) { try authorize(driver, .updateVehicleAttributes, CallResources(provider: provider, vehicleID: "v1")) }
    }

    /// The rides claim and the Deliveries claim are different claims: neither stands in for the other.
    @Test func aVehicleClaimIsNotADeliveryVehicleClaim() throws {
        let ridesDriver = token(.driver, AuthorizationScope(vehicleID: "v1"))
        expectFleetError(.jwtWithoutTripID, containing: "JWT signed without a delivery vehicle ID (authorization.deliveryvehicleid)") {
            try authorize(ridesDriver, .getDeliveryVehicle, CallResources(provider: provider, deliveryVehicleID: "v1"))
        }
        let deliveryDriver = token(.driver, AuthorizationScope(deliveryVehicleID: "d1"))
        try authorize(deliveryDriver, .getDeliveryVehicle, CallResources(provider: provider, deliveryVehicleID: "d1"))
        expectFleetError(.jwtWithoutTripID, containing: "JWT signed without a vehicle ID (authorization.vehicleid)") {
            try authorize(deliveryDriver, .getVehicle, CallResources(provider: provider, vehicleID: "d1"))
        }
    }

    /// Fleet Engine's Delivery Untrusted Driver: reads its own delivery vehicle and updates it, nothing else.
    @Test func anUntrustedDeliveryDriverReadsAndUpdatesOnlyItsDeliveryVehicle() throws {
        let driver = token(.driver, AuthorizationScope(deliveryVehicleID: "d1"))
        try authorize(driver, .getDeliveryVehicle, CallResources(provider: provider, deliveryVehicleID: "d1"))
        try authorize(driver, .updateDeliveryVehicle, CallResources(provider: provider, deliveryVehicleID: "d1"))
        expectFleetError(.jwtForOtherResource, containing: "JWT signed for another delivery vehicle (\"d1\"), the call is for delivery vehicle \"d2\"") {
            try authorize(driver, .getDeliveryVehicle, CallResources(provider: provider, deliveryVehicleID: "d2"))
        }
        for method: FleetMethod in [.createDeliveryVehicle, .deleteDeliveryVehicle, .createTask, .getTask, .updateTask, .listTasks,
                                    .listDeliveryVehicles, .getTaskTrackingInfo, .batchCreateTasks] {
            expectFleetError(.insufficientRole, containing: "a driver token may not call \(method)") {
                try authorize(driver, method, CallResources(provider: provider, deliveryVehicleID: "d1", taskID: "k1", trackingID: "s1"))
            }
        }
    }

    /// Fleet Engine's Delivery Trusted Driver: creates its own delivery vehicle, creates tasks (one, or
    /// many when its token names no single task), and updates the tasks its `taskid` names.
    @Test func aTrustedDriverCreatesItsVehicleAndTasksAndUpdatesItsTasks() throws {
        let trusted = token(.trustedDriver, AuthorizationScope(deliveryVehicleID: "d1", taskID: "k1"))
        try authorize(trusted, .createDeliveryVehicle, CallResources(provider: provider, deliveryVehicleID: "d1"))
        expectFleetError(.jwtForOtherResource, containing: "another delivery vehicle") {
            try authorize(trusted, .createDeliveryVehicle, CallResources(provider: provider, deliveryVehicleID: "d2"))
        }
        try authorize(trusted, .updateTask, CallResources(provider: provider, taskID: "k1"))
        try authorize(trusted, .createTask, CallResources(provider: provider, taskID: "k1"))
        expectFleetError(.jwtForOtherResource, containing: "JWT signed for another task (\"k1\"), the call is for task \"k2\"") {
            try authorize(trusted, .updateTask, CallResources(provider: provider, taskID: "k2"))
        }
        expectFleetError(.jwtForOtherResource, containing: "may not call BatchCreateTasks") {
            try authorize(trusted, .batchCreateTasks, CallResources(provider: provider))
        }
        let allTasks = token(.trustedDriver, AuthorizationScope(deliveryVehicleID: "d1", taskID: "*"))
        try authorize(allTasks, .batchCreateTasks, CallResources(provider: provider))
        try authorize(allTasks, .updateTask, CallResources(provider: provider, taskID: "k9"))
        let vehicleOnly = token(.trustedDriver, AuthorizationScope(deliveryVehicleID: "d1"))
        try authorize(vehicleOnly, .createTask, CallResources(provider: provider, taskID: "k9"))
        expectFleetError(.jwtWithoutTripID, containing: "JWT signed without a task ID (authorization.taskid)") {
            try authorize(vehicleOnly, .updateTask, CallResources(provider: provider, taskID: "k9"))
        }
        for method: FleetMethod in [.getTask, .deleteTask, .listTasks, .deleteDeliveryVehicle, .listDeliveryVehicles, .getTaskTrackingInfo] {
            expectFleetError(.insufficientRole) { try authorize(allTasks, method, CallResources(provider: provider, taskID: "k1", trackingID: "s1")) }
        }
    }

    /// Fleet Engine's Delivery Consumer: follows the shipment its `trackingid` names.
    @Test func aDeliveryConsumerFollowsOnlyItsShipment() throws {
        let consumer = token(.consumer, AuthorizationScope(trackingID: "s1"))
        try authorize(consumer, .getTaskTrackingInfo, CallResources(provider: provider, trackingID: "s1"))
        let other = expectFleetError(.jwtForOtherResource, containing: "JWT signed for another tracking ID (\"s1\"), the call is for tracking ID \"s2\"") {
            try authorize(consumer, .getTaskTrackingInfo, CallResources(provider: provider, trackingID: "s2"))
        }
        #expect(other?.code.httpStatus == 403)
        expectFleetError(.insufficientRole) { try authorize(consumer, .getTask, CallResources(provider: provider, taskID: "k1")) }
        expectFleetError(.jwtWithoutTripID, containing: "JWT signed without a trip ID") {
            try authorize(consumer, .getTrip, CallResources(provider: provider, tripID: "t1"))
        }
        let ridesConsumer = token(.consumer, AuthorizationScope(tripID: "t1"))
        let error = expectFleetError(.jwtWithoutTripID, containing: "JWT signed without a tracking ID (authorization.trackingid)") {
            try authorize(ridesConsumer, .getTaskTrackingInfo, CallResources(provider: provider, trackingID: "s1"))
        }
        #expect(error?.code.httpStatus == 401)
        try authorize(token(.consumer, AuthorizationScope(trackingID: "*")), .getTaskTrackingInfo, CallResources(provider: provider, trackingID: "s7"))
    }

    @Test func wildcardsMatchAnyID() throws {
        try authorize(token(.driver, AuthorizationScope(vehicleID: "*")), .updateVehicle, CallResources(provider: provider, vehicleID: "any-vehicle"))
        try authorize(token(.consumer, AuthorizationScope(tripID: "*")), .getTrip, CallResources(provider: provider, tripID: "any-trip"))
        try authorize(token(.driver, AuthorizationScope(deliveryVehicleID: "*")), .updateDeliveryVehicle,
                      CallResources(provider: provider, deliveryVehicleID: "any-van"))
        try authorize(token(.server, .everything), .updateTrip, CallResources(provider: provider, vehicleID: "v9", tripID: "t9"))
    }

    @Test func aServerTokenScopedToOneResourceCannotListOrTouchOthers() throws {
        let scoped = token(.server, AuthorizationScope(vehicleID: "v1"))
        try authorize(scoped, .deleteVehicle, CallResources(provider: provider, vehicleID: "v1"))
        // No tripid claim: trips are not narrowed for a role with `any` access.
        try authorize(scoped, .searchTrips, CallResources(provider: provider))
        try authorize(scoped, .createTrip, CallResources(provider: provider, vehicleID: "v1", tripID: "new"))
        expectFleetError(.jwtForOtherResource, containing: "JWT signed for the single vehicle \"v1\" may not call ListVehicles") {
            try authorize(scoped, .listVehicles, CallResources(provider: provider))
        }
        expectFleetError(.jwtForOtherResource) {
            try authorize(scoped, .createTrip, CallResources(provider: provider, vehicleID: "v2", tripID: "new"))
        }
        let oneVan = token(.server, AuthorizationScope(deliveryVehicleID: "d1"))
        try authorize(oneVan, .deleteDeliveryVehicle, CallResources(provider: provider, deliveryVehicleID: "d1"))
        try authorize(oneVan, .listTasks, CallResources(provider: provider))
        expectFleetError(.jwtForOtherResource, containing: "JWT signed for the single delivery vehicle \"d1\" may not call ListDeliveryVehicles") {
            try authorize(oneVan, .listDeliveryVehicles, CallResources(provider: provider))
        }
    }

    @Test func aFleetReaderNeverWrites() throws {
        let reader = token(.fleetReader, .everything)
        for method in FleetMethod.allCases where !method.isReadOnly {
            expectFleetError(.insufficientRole, containing: "a fleet-reader token may not call \(method.rawValue)") {
                try authorize(reader, method, ownEverything.callResources(provider: provider))
            }
        }
    }

    @Test func aProviderBoundTokenStaysInItsProvider() throws {
        let bound = token(.server, .everything, provider: "acme")
        try authorize(bound, .getTrip, CallResources(provider: "acme", tripID: "t1"))
        expectFleetError(.jwtForOtherResource, containing: "JWT signed for provider \"acme\", the call is for provider \"other\"") {
            try authorize(bound, .getTrip, CallResources(provider: "other", tripID: "t1"))
        }
        expectFleetError(.jwtForOtherResource, containing: "the call is for provider \"other\"") {
            try authorize(token(.consumer, AuthorizationScope(trackingID: "s1"), provider: "acme"), .getTaskTrackingInfo,
                          CallResources(provider: "other", trackingID: "s1"))
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
        // On rides a trusted driver may do what a driver may, no more.
        let trusted = token(.trustedDriver, AuthorizationScope(vehicleID: "v1"))
        try Authorizer.authorizeVehicleUpdate(token: trusted, paths: ["lastLocation"])
        expectFleetError(.insufficientRole, containing: "a trusted-driver token may not update the vehicle's \"attributes\"") {
            try Authorizer.authorizeVehicleUpdate(token: trusted, paths: ["attributes"])
        }
        try Authorizer.authorizeVehicleUpdate(token: token(.server, .everything), paths: ["attributes", "maximumCapacity"])
        expectFleetError(.insufficientRole) {
            try Authorizer.authorizeVehicleUpdate(token: token(.consumer, AuthorizationScope(tripID: "t1")), paths: ["lastLocation"])
        }
        expectFleetError(.insufficientRole) {
            try Authorizer.authorizeVehicleUpdate(token: token(.fleetReader, .everything), paths: ["vehicleState"])
        }
    }

    /// Google: the Delivery Untrusted Driver "can only update the delivery vehicle location": never the
    /// stops (which assign and close tasks), attributes or type. The trusted driver and the server may.
    @Test func anUntrustedDeliveryDriverUpdatesOnlyLocationAndRoute() throws {
        let driver = token(.driver, AuthorizationScope(deliveryVehicleID: "d1"))
        try Authorizer.authorizeDeliveryVehicleUpdate(token: driver, paths: [
            "lastLocation", "last_location.location", "pastLocations", "navigation_status", "currentRouteSegment",
            "currentRouteSegmentEndPoint", "remainingDistanceMeters", "remaining_duration",
        ])
        for (path, field) in [("remainingVehicleJourneySegments", "remainingVehicleJourneySegments"),
                              ("remaining_vehicle_journey_segments.stop", "remainingVehicleJourneySegments"),
                              ("attributes", "attributes"), ("type", "type"), ("name", "name"), ("noSuchField", "noSuchField")] {
            let error = expectFleetError(.insufficientRole, containing: "a driver token may not update the delivery vehicle's \"\(field)\"; it may update currentRouteSegment,") {
                try Authorizer.authorizeDeliveryVehicleUpdate(token: driver, paths: ["lastLocation", path])
            }
            #expect(error?.field == "updateMask")
        }
        #expect(Authorizer.driverUpdatableDeliveryVehicleFields == [
            .lastLocation, .pastLocations, .navigationStatus, .currentRouteSegment, .currentRouteSegmentEndPoint,
            .remainingDistanceMeters, .remainingDuration,
        ])
        let everything = DeliveryVehicle.FieldPath.allCases.map(\.rawValue)
        try Authorizer.authorizeDeliveryVehicleUpdate(token: token(.trustedDriver, AuthorizationScope(deliveryVehicleID: "d1")), paths: everything)
        try Authorizer.authorizeDeliveryVehicleUpdate(token: token(.server, .everything), paths: everything)
        for role: Role in [.consumer, .fleetReader] {
            expectFleetError(.insufficientRole, containing: "a \(role) token may not call UpdateDeliveryVehicle") {
                try Authorizer.authorizeDeliveryVehicleUpdate(token: token(role, .everything), paths: ["lastLocation"])
            }
        }
    }
}

private extension AuthorizationScope {
    /// A call naming every resource this scope names.
    func callResources(provider: String) -> CallResources {
        CallResources(provider: provider, vehicleID: vehicleID, tripID: tripID, deliveryVehicleID: deliveryVehicleID,
                      taskID: taskID, trackingID: trackingID)
    }
}
