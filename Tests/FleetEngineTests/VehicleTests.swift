import FleetEngine
import FleetErrors
import FleetModel
import Testing

@Suite struct VehicleTests {
    @Test func createStoresTheVehicleAndIgnoresServerOwnedFields() throws {
        let f = Fixture()
        var v = Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 4,
                        vehicleType: VehicleType(category: .auto))
        v.name = "providers/other/vehicles/forged"
        v.currentTrips = ["t1"]
        v.remainingDistanceMeters = 99
        v.waypoints = [TripWaypoint(location: Fixture.terminal(1, 1), tripId: "t1", waypointType: .pickupWaypointType)]
        let created = try f.engine.createVehicle(CreateVehicleRequest(parent: f.parent, vehicleId: "v1", vehicle: v))
        #expect(created.name == f.vehicleName("v1"))
        #expect(created.currentTrips.isEmpty)
        #expect(created.remainingDistanceMeters == nil)
        #expect(created.waypoints.isEmpty)
        #expect(try f.vehicle("v1") == created)
    }

    @Test(arguments: [
        ("vehicleState", "vehicle.vehicleState"),
        ("supportedTripTypes", "vehicle.supportedTripTypes"),
        ("maximumCapacity", "vehicle.maximumCapacity"),
        ("vehicleType", "vehicle.vehicleType"),
    ])
    func createRequiresFields(missing: String, field: String) throws {
        let f = Fixture()
        var v = Vehicle(vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 4,
                        vehicleType: VehicleType(category: .auto))
        switch missing {
        case "vehicleState": v.vehicleState = nil
        case "supportedTripTypes": v.supportedTripTypes = []
        case "maximumCapacity": v.maximumCapacity = nil
        default: v.vehicleType = nil
        }
        expectFleetError(.invalidArgument, field: field) {
            _ = try f.engine.createVehicle(CreateVehicleRequest(parent: f.parent, vehicleId: "v1", vehicle: v))
        }
    }

    @Test func duplicateCreateIsAlreadyExists() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        expectFleetError(.alreadyExists) { try f.createVehicle("v1") }
    }

    @Test(arguments: ["", "a/b", "a:b", "a?b", "a,b", "a#b", String(repeating: "x", count: 65)])
    func badVehicleIDsAreInvalidArgument(id: String) {
        let f = Fixture()
        expectFleetError(.invalidArgument) { try f.createVehicle(id) }
    }

    @Test func badParentQuotesTheFormat() {
        let f = Fixture()
        expectFleetError(.invalidArgument, field: "parent", containing: "providers/") {
            _ = try f.engine.createVehicle(CreateVehicleRequest(parent: "projects/x", vehicleId: "v1", vehicle: Vehicle()))
        }
    }

    @Test func getUnknownVehicleIsNotFound() {
        let f = Fixture()
        expectFleetError(.notFound, containing: "vehicles/ghost") { _ = try f.vehicle("ghost") }
    }

    @Test func emptyUpdateMaskIsRefusedWithFleetEnginesWords() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        expectFleetError(.invalidArgument, field: "updateMask", containing: "update_mask cannot be empty") {
            _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName("v1"), vehicle: Vehicle(vehicleState: .offline),
                                                                updateMask: FieldMask([])))
        }
    }

    @Test(arguments: ["noSuchField", "currentTrips", "waypointsVersion", "name", "lastLocation.location"])
    func badMaskPathsAreNamed(path: String) throws {
        let f = Fixture()
        try f.createVehicle("v1")
        expectFleetError(.invalidArgument, field: "updateMask", containing: path) {
            _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName("v1"), vehicle: Vehicle(),
                                                                updateMask: FieldMask([path])))
        }
    }

    @Test func onlyMaskedFieldsChange() throws {
        let f = Fixture()
        try f.createVehicle("v1", capacity: 4)
        let updated = try f.engine.updateVehicle(UpdateVehicleRequest(
            name: f.vehicleName("v1"),
            vehicle: Vehicle(vehicleState: .offline, maximumCapacity: 9),
            updateMask: FieldMask(["vehicleState"])))
        #expect(updated.vehicleState == .offline)
        #expect(updated.maximumCapacity == 4)
    }

    @Test func locationUpdatesAreStampedWithServerTime() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        f.clock.advance(seconds: 30)
        let v = try f.move("v1", to: 52.6, 13.5)
        #expect(v.lastLocation?.location == Fixture.point(52.6, 13.5))
        #expect(v.lastLocation?.serverTime == f.clock.now())
        expectFleetError(.invalidArgument, field: "vehicle.lastLocation.location.latitude") { try f.move("v1", to: 91, 0) }
    }

    @Test func attributesReplaceOnUpdateAndMergeOnUpdateAttributes() throws {
        let f = Fixture()
        try f.createVehicle("v1", attributes: [VehicleAttribute(key: "a", vehicleAttributeValue: .stringValue("1")), VehicleAttribute(key: "b", vehicleAttributeValue: .stringValue("2"))])
        let merged = try f.engine.updateVehicleAttributes(UpdateVehicleAttributesRequest(
            name: f.vehicleName("v1"), attributes: [VehicleAttribute(key: "b", vehicleAttributeValue: .boolValue(true)), VehicleAttribute(key: "c", vehicleAttributeValue: .numberValue(3))]))
        #expect(merged.attributes.map(\.key) == ["a", "b", "c"])
        #expect(merged.attributes[0].value == "1" && merged.attributes[0].stringValue == "1")
        let replaced = try f.engine.updateVehicle(UpdateVehicleRequest(
            name: f.vehicleName("v1"), vehicle: Vehicle(attributes: [VehicleAttribute(key: "z", vehicleAttributeValue: .stringValue("9"))]),
            updateMask: FieldMask(["attributes"])))
        #expect(replaced.attributes.map(\.key) == ["z"])
        expectFleetError(.invalidArgument, containing: "twice") {
            _ = try f.engine.updateVehicleAttributes(UpdateVehicleAttributesRequest(
                name: f.vehicleName("v1"), attributes: [VehicleAttribute(key: "k", vehicleAttributeValue: .stringValue("1")), VehicleAttribute(key: "k", vehicleAttributeValue: .stringValue("2"))]))
        }
        expectFleetError(.invalidArgument, containing: ":") {
            _ = try f.engine.updateVehicleAttributes(UpdateVehicleAttributesRequest(
                name: f.vehicleName("v1"), attributes: [VehicleAttribute(key: "a:b", vehicleAttributeValue: .stringValue("1"))]))
        }
    }

    @Test func getVehicleOmitsUnchangedWaypointsAndRoute() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        try f.createTrip("t1", vehicle: "v1")
        let v = try f.vehicle("v1")
        let version = try #require(v.waypointsVersion)
        #expect(!v.waypoints.isEmpty)
        let again = try f.engine.getVehicle(GetVehicleRequest(name: f.vehicleName("v1"), waypointsVersion: version))
        #expect(again.waypoints.isEmpty)
        let older = try f.engine.getVehicle(GetVehicleRequest(name: f.vehicleName("v1"), waypointsVersion: version.adding(seconds: -1)))
        #expect(!older.waypoints.isEmpty)
    }

    @Test func waypointsMayBeReorderedButNotChanged() throws {
        let f = Fixture()
        try f.createVehicle("v1", types: [.shared])
        try f.createTrip("a", type: .shared, pickup: (52.53, 13.41), dropoff: (52.50, 13.45), vehicle: "v1")
        let v = try f.vehicle("v1")
        var fewer = v.waypoints
        fewer.removeLast()
        expectFleetError(.invalidArgument, field: "vehicle.waypoints") {
            _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName("v1"), vehicle: Vehicle(waypoints: fewer),
                                                                updateMask: FieldMask(["waypoints"])))
        }
        let reversed = Array(v.waypoints.reversed())
        expectFleetError(.invalidArgument, containing: "out of order") {
            _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName("v1"), vehicle: Vehicle(waypoints: reversed),
                                                                updateMask: FieldMask(["waypoints"])))
        }
    }

    @Test func deleteRefusesAVehicleWithActiveTrips() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        try f.createTrip("t1", vehicle: "v1")
        expectFleetError(.failedPrecondition) { try f.engine.deleteVehicle(DeleteVehicleRequest(name: f.vehicleName("v1"))) }
        try f.setStatus("t1", .canceled)
        try f.engine.deleteVehicle(DeleteVehicleRequest(name: f.vehicleName("v1")))
        expectFleetError(.notFound) { _ = try f.vehicle("v1") }
    }

    @Test func listVehiclesFiltersAndPagesThroughConcurrentInserts() throws {
        let f = Fixture()
        for i in 0..<25 {
            try f.createVehicle(String(format: "v%02d", i), category: i % 5 == 0 ? .truck : .auto,
                                state: i % 2 == 0 ? .online : .offline)
        }
        expectFleetError(.invalidArgument, field: "vehicleTypeCategories") {
            _ = try f.engine.listVehicles(ListVehiclesRequest(parent: f.parent))
        }
        var seen: [String] = []
        var token: String?
        var pages = 0
        repeat {
            let page = try f.engine.listVehicles(ListVehiclesRequest(parent: f.parent, pageSize: 7, pageToken: token,
                                                                     vehicleTypeCategories: [.auto]))
            #expect(page.totalSize == Int64(20 + (pages == 0 ? 0 : 1)))
            seen += page.vehicles.compactMap(\.name)
            token = page.nextPageToken
            if pages == 0 { try f.createVehicle("v00a") } // lands on a page already served: not repeated, never skips others
            pages += 1
        } while token != nil
        let expected = (0..<25).filter { $0 % 5 != 0 }.map { f.vehicleName(String(format: "v%02d", $0)) }
        #expect(seen == expected)
        let online = try f.engine.listVehicles(ListVehiclesRequest(parent: f.parent, vehicleTypeCategories: [.auto, .truck], vehicleState: .online))
        #expect(online.vehicles.count == 14)
        let filtered = try f.engine.listVehicles(ListVehiclesRequest(parent: f.parent, vehicleTypeCategories: [.auto, .truck, .taxi], filter: "attributes.none = x"))
        #expect(filtered.vehicles.isEmpty)
        expectFleetError(.invalidArgument, field: "pageToken") {
            _ = try f.engine.listVehicles(ListVehiclesRequest(parent: f.parent, pageToken: "garbage!", vehicleTypeCategories: [.auto]))
        }
    }

    @Test func concurrentUpdatesOfOneVehicleLoseNoWrite() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        let threads = 8, perThread = 12
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for i in 0..<perThread {
                do {
                    _ = try f.engine.updateVehicleAttributes(UpdateVehicleAttributesRequest(
                        name: f.vehicleName("v1"), attributes: [VehicleAttribute(key: "k\(t)-\(i)", vehicleAttributeValue: .boolValue(true))]))
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let keys = Set(try f.vehicle("v1").attributes.compactMap(\.key))
        #expect(keys.count == threads * perThread)
    }
}

import Dispatch
import Synchronization
