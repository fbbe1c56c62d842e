import FleetEngine
import FleetErrors
import FleetModel
import Testing

@Suite struct SearchTests {
    /// A search near Alexanderplatz for one exclusive rider by car.
    func request(_ f: Fixture, radius: Int32 = 2000, count: Int32 = 10, order: SearchVehiclesRequest.VehicleMatchOrder = .pickupPointStraightDistance,
                 type: TripType = .exclusive, capacity: Int32 = 1) -> SearchVehiclesRequest {
        SearchVehiclesRequest(parent: f.parent, pickupPoint: Fixture.terminal(52.5219, 13.4132), pickupRadiusMeters: radius,
                              count: count, minimumCapacity: capacity, tripTypes: [type],
                              vehicleTypes: [VehicleType(category: .auto)], orderBy: order)
    }

    func ids(_ response: SearchVehiclesResponse) -> [String] {
        response.matches.compactMap { $0.vehicle?.name?.split(separator: "/").last.map(String.init) }
    }

    @Test func findsOnlineFreshVehiclesInRadiusOrdered() throws {
        let f = Fixture()
        try f.createVehicle("near", at: (52.5225, 13.4140))      // ~80 m
        try f.createVehicle("mid", at: (52.5300, 13.4132))       // ~900 m
        try f.createVehicle("far", at: (52.5600, 13.4132))       // ~4.2 km
        try f.createVehicle("offline", at: (52.5220, 13.4133), state: .offline)
        try f.createVehicle("truck", at: (52.5221, 13.4133), category: .truck)
        try f.createVehicle("nowhere", at: nil)
        let result = try f.engine.searchVehicles(request(f))
        #expect(ids(result) == ["near", "mid"])
        let first = try #require(result.matches.first)
        #expect(first.vehicleMatchType == .exclusive)
        #expect(first.orderedBy == .pickupPointStraightDistance)
        #expect((first.vehiclePickupStraightLineDistanceMeters ?? 0) < 100)
        #expect((first.vehiclePickupDistanceMeters ?? 0) >= (first.vehiclePickupStraightLineDistanceMeters ?? 0))
        #expect(first.vehiclePickupEta != nil)
        #expect(ids(try f.engine.searchVehicles(request(f, radius: 5000))) == ["near", "mid", "far"])
        #expect(ids(try f.engine.searchVehicles(request(f, radius: 5000, count: 1))) == ["near"])
    }

    @Test func staleVehiclesAreLeftOut() throws {
        let f = Fixture()
        try f.createVehicle("old", at: (52.5225, 13.4140))
        f.clock.advance(seconds: 299)
        #expect(ids(try f.engine.searchVehicles(request(f))) == ["old"])
        f.clock.advance(seconds: 2)
        #expect(ids(try f.engine.searchVehicles(request(f))).isEmpty)
        try f.move("old", to: 52.5225, 13.4140)
        #expect(ids(try f.engine.searchVehicles(request(f))) == ["old"])
        var strict = request(f)
        strict.maximumStaleness = ProtoDuration(timeInterval: 10)
        f.clock.advance(seconds: 11)
        #expect(ids(try f.engine.searchVehicles(strict)).isEmpty)
    }

    @Test func capacityTripTypeAndAttributesFilter() throws {
        let f = Fixture()
        try f.createVehicle("small", at: (52.5225, 13.4140), capacity: 2,
                            attributes: [VehicleAttribute(key: "ev", vehicleAttributeValue: .boolValue(true))])
        try f.createVehicle("big", at: (52.5226, 13.4141), capacity: 6,
                            attributes: [VehicleAttribute(key: "ev", vehicleAttributeValue: .boolValue(false)), VehicleAttribute(key: "tier", vehicleAttributeValue: .stringValue("premium"))])
        try f.createVehicle("sharedOnly", at: (52.5227, 13.4142), types: [.shared])
        #expect(ids(try f.engine.searchVehicles(request(f, capacity: 4))) == ["big"])
        var ev = request(f)
        ev.requiredAttributes = [VehicleAttribute(key: "ev", vehicleAttributeValue: .boolValue(true))]
        #expect(ids(try f.engine.searchVehicles(ev)) == ["small"])
        var oneOf = request(f)
        oneOf.requiredOneOfAttributes = [VehicleAttributeList(attributes: [VehicleAttribute(key: "tier", vehicleAttributeValue: .stringValue("premium")),
                                                                           VehicleAttribute(key: "ev", vehicleAttributeValue: .boolValue(true))])]
        #expect(ids(try f.engine.searchVehicles(oneOf)) == ["small", "big"])
        var filter = request(f)
        filter.filter = "attributes.tier = \"premium\" AND attributes.ev = \"false\""
        #expect(ids(try f.engine.searchVehicles(filter)) == ["big"])
        filter.filter = "attributes.tier = premium OR attributes.ev = true"
        #expect(ids(try f.engine.searchVehicles(filter)) == ["small", "big"])
        filter.requiredAttributes = ev.requiredAttributes
        expectFleetError(.invalidArgument, field: "filter") { _ = try f.engine.searchVehicles(filter) }
        filter.requiredAttributes = []
        filter.filter = "tier = premium"
        expectFleetError(.invalidArgument, field: "filter") { _ = try f.engine.searchVehicles(filter) }
    }

    @Test func vehiclesOnTripsMatchOnlyAsAllowed() throws {
        let f = Fixture()
        try f.createVehicle("free", at: (52.5225, 13.4140))
        try f.createVehicle("busy", at: (52.5226, 13.4141), backToBack: true)
        try f.createTrip("t1", pickup: (52.5226, 13.4141), dropoff: (52.50, 13.45), vehicle: "busy")
        #expect(ids(try f.engine.searchVehicles(request(f))) == ["free"])
        var b2b = request(f)
        b2b.includeBackToBack = true
        #expect(ids(try f.engine.searchVehicles(b2b)) == ["free"]) // t1 is not yet ENROUTE_TO_DROPOFF
        try f.setStatus("t1", .enrouteToPickup)
        try f.setStatus("t1", .arrivedAtPickup)
        try f.setStatus("t1", .enrouteToDropoff)
        let matches = try f.engine.searchVehicles(b2b)
        #expect(ids(matches) == ["free", "busy"])
        let busy = try #require(matches.matches.last)
        #expect(busy.vehicleMatchType == .backToBack)
        // Its pickup distance goes through the current trip's dropoff first.
        #expect((busy.vehiclePickupDistanceMeters ?? 0) > 5000)
        var none = request(f)
        none.currentTripsPresent = .noTrips
        #expect(ids(try f.engine.searchVehicles(none)) == ["free"])
        var any = request(f)
        any.currentTripsPresent = .any
        #expect(ids(try f.engine.searchVehicles(any)) == ["free", "busy"])
    }

    @Test func orderByEtaAndDistancePutsTheQuickestFirst() throws {
        let f = Fixture()
        try f.createVehicle("car", at: (52.5300, 13.4132))
        try f.createVehicle("bike", at: (52.5240, 13.4132), category: .bicycle)
        var r = request(f, order: .pickupPointEta)
        r.vehicleTypes = [VehicleType(category: .auto), VehicleType(category: .bicycle)]
        let byEta = try f.engine.searchVehicles(r)
        #expect(ids(byEta).count == 2)
        let etas = byEta.matches.compactMap(\.vehiclePickupEta)
        #expect(etas == etas.sorted())
        r.orderBy = .pickupPointDistance
        #expect(ids(try f.engine.searchVehicles(r)) == ["bike", "car"])
    }

    @Test(arguments: [
        ("pickupRadiusMeters", "radius"), ("count", "count"), ("minimumCapacity", "capacity"), ("tripTypes", "types"),
        ("vehicleTypes", "vehicleTypes"), ("orderBy", "order"), ("dropoffPoint", "shared"), ("includeBackToBack", "b2b"),
        ("pickupPoint", "pickup"),
    ])
    func rangesAreCheckedAndNamed(field: String, breakage: String) throws {
        let f = Fixture()
        var r = request(f)
        switch breakage {
        case "radius": r.pickupRadiusMeters = 399
        case "count": r.count = 51
        case "capacity": r.minimumCapacity = 0
        case "types": r.tripTypes = [.exclusive, .shared]
        case "vehicleTypes": r.vehicleTypes = []
        case "order": r.orderBy = .unknownVehicleMatchOrder
        case "shared": r.tripTypes = [.shared]; r.currentTripsPresent = .any
        case "b2b": r.currentTripsPresent = .noTrips; r.includeBackToBack = true
        default: r.pickupPoint = nil
        }
        expectFleetError(.invalidArgument, field: field) { _ = try f.engine.searchVehicles(r) }
    }
}
