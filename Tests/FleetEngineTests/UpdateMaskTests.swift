import FleetEngine
import FleetErrors
import FleetModel
import Testing

/// The update mask's check, word for word, and UpdateTrip's three steps (masked fields, status,
/// vehicles) one failure and one combined success each.
@Suite struct UpdateMaskTests {
    private func updateVehicle(_ f: Fixture, _ paths: [String]) throws {
        _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName("v1"), vehicle: Vehicle(vehicleState: .offline),
                                                            updateMask: FieldMask(paths)))
    }

    private func updateTrip(_ f: Fixture, _ trip: Trip, _ paths: [String]) throws -> Trip {
        try f.engine.updateTrip(UpdateTripRequest(name: f.tripName("t1"), trip: trip, updateMask: FieldMask(paths)))
    }

    @Test(arguments: [
        ("currentTrips", "'currentTrips' is maintained by the server and cannot be updated"),
        ("waypoints_version", "'waypointsVersion' is maintained by the server and cannot be updated"),
        ("lastLocation.location", "'lastLocation.location': only whole top-level fields can be updated; use 'lastLocation'"),
        ("name.x", "'name.x' is not a field of Vehicle"),
        ("noSuchField", "'noSuchField' is not a field of Vehicle"),
        ("availableCapacity", "'availableCapacity' is not a field of Vehicle"),
    ])
    func vehicleMaskPathsAreRefusedWithTheirReason(path: String, message: String) throws {
        let f = Fixture()
        try f.createVehicle("v1")
        expectFleetError(.invalidArgument, field: "updateMask", containing: message) { try updateVehicle(f, ["vehicleState", path]) }
        #expect(try f.vehicle("v1").vehicleState == .online, "nothing written")
    }

    @Test func vehicleMaskPathsInProtoSpellingAndRepeatedAreOneField() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        try updateVehicle(f, ["vehicle_state", "vehicleState"])
        #expect(try f.vehicle("v1").vehicleState == .offline)
    }

    @Test(arguments: [
        ("view", "'view' is maintained by the server and cannot be updated"),
        ("intermediateDestinationsVersion", "'intermediateDestinationsVersion' is maintained by the server and cannot be updated"),
        ("number_of_passengers", "'numberOfPassengers' is maintained by the server and cannot be updated"),
        ("pickup_point.point", "'pickupPoint.point': only whole top-level fields can be updated; use 'pickupPoint'"),
        ("tripState", "'tripState' is not a field of Trip"),
    ])
    func tripMaskPathsAreRefusedWithTheirReason(path: String, message: String) throws {
        let f = Fixture()
        try f.createTrip("t1")
        expectFleetError(.invalidArgument, field: "updateMask", containing: message) {
            _ = try updateTrip(f, Trip(tripStatus: .canceled), ["tripStatus", path])
        }
        #expect(try f.trip("t1").tripStatus == .new, "nothing written")
    }

    @Test func aTripsTypeChangesOnlyWithoutAVehicle() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        try f.createTrip("t1")
        #expect(try updateTrip(f, Trip(tripType: .shared), ["tripType"]).tripType == .shared)
        try f.assign("t1", to: "v1")
        expectFleetError(.failedPrecondition, field: "trip.tripType", containing: "only change while the trip has no vehicle") {
            _ = try updateTrip(f, Trip(tripType: .exclusive), ["tripType"])
        }
    }

    @Test func anEndedTripKeepsItsVehicle() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        try f.createVehicle("v2")
        try f.createTrip("t1", vehicle: "v1")
        try f.setStatus("t1", .canceled)
        expectFleetError(.failedPrecondition, field: "trip.vehicleId", containing: "trip is CANCELED: its vehicle can no longer change") {
            _ = try updateTrip(f, Trip(vehicleId: "v2", tripStatus: .canceled), ["vehicleId", "tripStatus"])
        }
    }

    @Test func vehicleWaypointsNeedAnActiveTripOnAVehicle() throws {
        let f = Fixture()
        try f.createTrip("t1")
        expectFleetError(.failedPrecondition, field: "trip.vehicleWaypoints", containing: "needs an active trip with a vehicle") {
            _ = try updateTrip(f, Trip(), ["vehicleWaypoints"])
        }
    }

    /// One call that changes a masked field, moves the trip to another vehicle and advances its status:
    /// the old vehicle gives up the trip's waypoints, the new one holds them without the pickup.
    @Test func oneUpdateMovesTheTripBetweenVehiclesAndAdvancesItsStatus() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        try f.createVehicle("v2")
        try f.createTrip("t1", vehicle: "v1")
        try f.setStatus("t1", .enrouteToPickup)
        try f.setStatus("t1", .arrivedAtPickup)
        #expect(try f.vehicle("v1").waypoints.count == 2)
        var update = Trip(vehicleId: "v2", tripStatus: .enrouteToDropoff)
        var note = TripAttribute(key: "note")
        note.stringValue = "moved"
        update.attributes = [note]
        let trip = try updateTrip(f, update, ["vehicleId", "tripStatus", "attributes"])
        #expect(trip.vehicleId == "v2")
        #expect(trip.tripStatus == .enrouteToDropoff)
        #expect(trip.pickupTime != nil, "stamped when the rider left the pickup")
        #expect(trip.attributes.map(\.key) == ["note"])
        #expect(trip.vehicleWaypoints.map(\.waypointType) == [.dropOffWaypointType])
        let v1 = try f.vehicle("v1"), v2 = try f.vehicle("v2")
        #expect(v1.currentTrips.isEmpty && v1.waypoints.isEmpty)
        #expect(v2.currentTrips == ["t1"])
        #expect(v2.waypoints.map(\.waypointType) == [.dropOffWaypointType])
    }
}
