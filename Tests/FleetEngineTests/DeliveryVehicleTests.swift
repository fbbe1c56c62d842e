import FleetEngine
import FleetErrors
import FleetGeo
import FleetModel
import Testing

/// CreateDeliveryVehicle, GetDeliveryVehicle, UpdateDeliveryVehicle, DeleteDeliveryVehicle and
/// ListDeliveryVehicles, as Google's field documentation describes them.
@Suite struct DeliveryVehicleTests {
    @Test func createTakesTypeLocationAndAttributesAndStampsTheServerTime() throws {
        let f = Fixture()
        var input = DeliveryVehicle(name: "providers/other/deliveryVehicles/forged",
                                    lastLocation: DeliveryVehicleLocation(location: Fixture.point(48.1, 11.5), isGpsSensorEnabled: true),
                                    attributes: [DeliveryVehicleAttribute(key: "depot", value: "north")], type: .bicycle)
        input.lastLocation?.serverTime = Timestamp(seconds: 1)
        let created = try f.engine.createDeliveryVehicle(CreateDeliveryVehicleRequest(parent: f.parent, deliveryVehicleId: "dv1", deliveryVehicle: input))
        #expect(created.name == f.deliveryVehicleName("dv1"), "the name in the body is ignored")
        #expect(created.type == .bicycle)
        #expect(created.lastLocation?.serverTime == f.clock.now(), "serverTime is the server's")
        #expect(created.lastLocation?.isGpsSensorEnabled == nil, "input only")
        #expect(created.attributes.first?.stringValue == "north", "both spellings in responses")
        #expect(try f.deliveryVehicle("dv1") == created)
    }

    @Test func anUnsetTypeIsAuto() throws {
        let f = Fixture()
        #expect(try f.createDeliveryVehicle("dv1").type == .auto)
        let empty = try f.engine.createDeliveryVehicle(CreateDeliveryVehicleRequest(parent: f.parent, deliveryVehicleId: "dv2"))
        #expect(empty.type == .auto, "a request without a vehicle creates one")
    }

    @Test(arguments: ["pastLocations", "navigationStatus", "currentRouteSegment", "currentRouteSegmentEndPoint",
                      "remainingDistanceMeters", "remainingDuration", "remainingVehicleJourneySegments"])
    func createRefusesEveryOtherField(field: String) {
        let f = Fixture()
        var v = DeliveryVehicle()
        switch field {
        case "pastLocations": v.pastLocations = [DeliveryVehicleLocation(location: Fixture.point(1, 1))]
        case "navigationStatus": v.navigationStatus = .enrouteToDestination
        case "currentRouteSegment": v.currentRouteSegment = ProtoBytes(Array("_p~iF~ps|U_ulLnnqC".utf8))
        case "currentRouteSegmentEndPoint": v.currentRouteSegmentEndPoint = Fixture.point(1, 1)
        case "remainingDistanceMeters": v.remainingDistanceMeters = 5
        case "remainingDuration": v.remainingDuration = ProtoDuration(seconds: 5)
        default: v.remainingVehicleJourneySegments = [Fixture.stop((48.11, 11.52), ["t1"])]
        }
        expectFleetError(.invalidArgument, field: "deliveryVehicle.\(field)", containing: "UpdateDeliveryVehicle") {
            _ = try f.engine.createDeliveryVehicle(CreateDeliveryVehicleRequest(parent: f.parent, deliveryVehicleId: "dv1", deliveryVehicle: v))
        }
    }

    @Test(arguments: ["", "a/b", "a:b", "a?b", "a,b", "a#b", String(repeating: "x", count: 65)])
    func badIDsAreRefusedNamingTheField(id: String) {
        let f = Fixture()
        expectFleetError(.invalidArgument, field: "deliveryVehicleId") { try f.createDeliveryVehicle(id) }
    }

    @Test func duplicateCreateIsAlreadyExistsAndUnknownNamesAreNotFound() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        expectFleetError(.alreadyExists, field: "deliveryVehicleId") { try f.createDeliveryVehicle("dv1") }
        expectFleetError(.notFound, containing: "deliveryVehicles/ghost") { _ = try f.deliveryVehicle("ghost") }
        expectFleetError(.invalidArgument, field: "name") {
            _ = try f.engine.getDeliveryVehicle(GetDeliveryVehicleRequest(name: "providers/p/vehicles/dv1"))
        }
    }

    @Test func createRefusesALocationFleetEngineKeepsForItself() {
        let f = Fixture()
        let v = DeliveryVehicle(lastLocation: DeliveryVehicleLocation(location: Fixture.point(1, 1), locationSensor: .fleetEngineLocation))
        expectFleetError(.invalidArgument, field: "deliveryVehicle.lastLocation.locationSensor") {
            _ = try f.engine.createDeliveryVehicle(CreateDeliveryVehicleRequest(parent: f.parent, deliveryVehicleId: "dv1", deliveryVehicle: v))
        }
        let bad = DeliveryVehicle(lastLocation: DeliveryVehicleLocation(location: Fixture.point(91, 1)))
        expectFleetError(.invalidArgument, field: "deliveryVehicle.lastLocation.location.latitude") {
            _ = try f.engine.createDeliveryVehicle(CreateDeliveryVehicleRequest(parent: f.parent, deliveryVehicleId: "dv1", deliveryVehicle: bad))
        }
    }

    @Test func updateChangesOnlyTheMaskedFields() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1", attributes: [DeliveryVehicleAttribute(key: "depot", value: "north")])
        f.clock.advance(seconds: 30)
        let update = DeliveryVehicle(name: f.deliveryVehicleName("dv1"),
                                     lastLocation: DeliveryVehicleLocation(location: Fixture.point(48.2, 11.6)),
                                     navigationStatus: .noGuidance,
                                     attributes: [DeliveryVehicleAttribute(key: "shift", value: "night")], type: .pedestrian)
        let updated = try f.engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(deliveryVehicle: update, updateMask: FieldMask(["attributes"])))
        #expect(updated.attributes.map(\.key) == ["shift"], "attributes are replaced as a whole")
        #expect(updated.type == .auto)
        #expect(updated.navigationStatus == nil)
        #expect(updated.lastLocation?.location?.latitude == 48.10)
        let moved = try f.engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(deliveryVehicle: update, updateMask: FieldMask(["last_location", "type"])))
        #expect(moved.lastLocation?.location?.latitude == 48.2)
        #expect(moved.lastLocation?.serverTime == f.clock.now())
        #expect(moved.type == .pedestrian)
        #expect(moved.attributes.map(\.key) == ["shift"])
        #expect(try f.deliveryVehicle("dv1") == moved)
    }

    @Test func updateNeedsAMaskAndRefusesTheName() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        let update = DeliveryVehicle(name: f.deliveryVehicleName("dv1"), type: .bicycle)
        expectFleetError(.invalidArgument, field: "updateMask") {
            _ = try f.engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(deliveryVehicle: update, updateMask: FieldMask([])))
        }
        expectFleetError(.invalidArgument, field: "updateMask", containing: "'name'") {
            _ = try f.engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(deliveryVehicle: update, updateMask: FieldMask(["name"])))
        }
        expectFleetError(.invalidArgument, field: "updateMask", containing: "noSuchField") {
            _ = try f.engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(deliveryVehicle: update, updateMask: FieldMask(["noSuchField"])))
        }
        expectFleetError(.notFound) {
            _ = try f.engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
                deliveryVehicle: DeliveryVehicle(name: f.deliveryVehicleName("ghost"), type: .bicycle), updateMask: FieldMask(["type"])))
        }
        expectFleetError(.invalidArgument, field: "deliveryVehicle.lastLocation") {
            _ = try f.engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(deliveryVehicle: update, updateMask: FieldMask(["lastLocation"])))
        }
    }

    @Test func theDriversRouteFiguresCountOnlyWithARoute() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        try f.createTask("t1")
        try f.setStops("dv1", [Fixture.stop((48.11, 11.52), ["t1"])])
        let name = f.deliveryVehicleName("dv1")
        // No route: the engine's own estimate stands ("Fleet Engine ignores this field ... if the
        // current_route_segment field is empty").
        let ignored = try f.engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: name, remainingDistanceMeters: 7), updateMask: FieldMask(["remainingDistanceMeters"])))
        #expect(ignored.remainingDistanceMeters != 7)
        let route = ProtoBytes(Array(Polyline.encode([GeoPoint(latitude: 48.10, longitude: 11.50), GeoPoint(latitude: 48.11, longitude: 11.52)]).utf8))
        let taken = try f.engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: name, currentRouteSegment: route, remainingDistanceMeters: 7, remainingDuration: ProtoDuration(seconds: 70)),
            updateMask: FieldMask(["currentRouteSegment", "remainingDistanceMeters", "remainingDuration"])))
        #expect(taken.remainingDistanceMeters == 7)
        #expect(taken.remainingDuration == ProtoDuration(seconds: 70))
        #expect(taken.currentRouteSegment == route)
    }

    @Test func deleteIsRefusedWhileOpenTasksAreOnTheVehicle() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        try f.createTask("t1")
        try f.setStops("dv1", [Fixture.stop((48.11, 11.52), ["t1"])])
        expectFleetError(.failedPrecondition, field: "name", containing: "t1") {
            try f.engine.deleteDeliveryVehicle(DeleteDeliveryVehicleRequest(name: f.deliveryVehicleName("dv1")))
        }
        try f.setStops("dv1", [])
        try f.engine.deleteDeliveryVehicle(DeleteDeliveryVehicleRequest(name: f.deliveryVehicleName("dv1")))
        expectFleetError(.notFound) { _ = try f.deliveryVehicle("dv1") }
        #expect(try f.task("t1").deliveryVehicleId == "dv1", "a closed task keeps the vehicle that had it")
        expectFleetError(.notFound) {
            try f.engine.deleteDeliveryVehicle(DeleteDeliveryVehicleRequest(name: f.deliveryVehicleName("dv1")))
        }
    }

    @Test func listPagesByIDAndCountsEveryMatch() throws {
        let f = Fixture()
        for i in 1...5 { try f.createDeliveryVehicle("dv\(i)") }
        try f.createTask("t1")
        try f.setStops("dv2", [Fixture.stop((48.11, 11.52), ["t1"])])
        var request = ListDeliveryVehiclesRequest(parent: f.parent, pageSize: 2)
        var seen: [String] = []
        var pages = 0
        while true {
            let page = try f.engine.listDeliveryVehicles(request)
            #expect(page.totalSize == 5)
            #expect(page.deliveryVehicles.allSatisfy { $0.remainingVehicleJourneySegments.isEmpty },
                    "stops are not populated in ListDeliveryVehicles")
            seen += page.deliveryVehicles.compactMap(\.name)
            pages += 1
            guard let token = page.nextPageToken else { break }
            request.pageToken = token
        }
        #expect(seen == (1...5).map { f.deliveryVehicleName("dv\($0)") })
        #expect(pages == 3)
        expectFleetError(.invalidArgument, field: "pageToken") {
            _ = try f.engine.listDeliveryVehicles(ListDeliveryVehiclesRequest(parent: f.parent, pageToken: "garbage!"))
        }
    }

    @Test func listFiltersOnAttributesAndTheViewport() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("north", at: (48.20, 11.50), attributes: [DeliveryVehicleAttribute(key: "depot", value: "north"),
                                                                               DeliveryVehicleAttribute(key: "cold", deliveryVehicleAttributeValue: .boolValue(true))])
        try f.createDeliveryVehicle("south", at: (48.00, 11.50), attributes: [DeliveryVehicleAttribute(key: "depot", value: "south")])
        try f.createDeliveryVehicle("nowhere", at: nil, attributes: [DeliveryVehicleAttribute(key: "depot", value: "north")])
        func ids(_ filter: String?, _ viewport: Viewport? = nil) throws -> [String] {
            try f.engine.listDeliveryVehicles(ListDeliveryVehiclesRequest(parent: f.parent, filter: filter, viewport: viewport))
                .deliveryVehicles.compactMap { $0.name?.split(separator: "/").last.map(String.init) }
        }
        #expect(try ids("attributes.depot = \"north\"") == ["north", "nowhere"])
        #expect(try ids("attributes.depot = \"north\" AND attributes.cold = \"true\"") == ["north"], "booleans compare as strings")
        #expect(try ids("attributes.depot = \"north\" OR attributes.depot = \"south\"") == ["north", "nowhere", "south"])
        #expect(try ids("") == ["north", "nowhere", "south"])
        let around = Viewport(low: Fixture.point(48.1, 11.4), high: Fixture.point(48.3, 11.6))
        #expect(try ids(nil, around) == ["north"], "only vehicles whose last location is inside")
        expectFleetError(.invalidArgument, field: "filter") { _ = try ids("state = OPEN") }
        let fiftyOne = (0...50).map { "attributes.k\($0) = \"v\"" }.joined(separator: " AND ")
        expectFleetError(.invalidArgument, field: "filter", containing: "50") { _ = try ids(fiftyOne) }
    }
}
