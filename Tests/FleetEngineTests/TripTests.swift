import FleetEngine
import FleetErrors
import FleetModel
import Testing

@Suite struct TripTests {
    @Test func createStartsNewAndIgnoresOtherFields() throws {
        let f = Fixture()
        var t = Trip(tripStatus: .complete, tripType: .exclusive, pickupPoint: Fixture.terminal(52.5, 13.4))
        t.remainingDistanceMeters = 5
        let created = try f.engine.createTrip(CreateTripRequest(parent: f.parent, tripId: "t1", trip: t))
        #expect(created.tripStatus == .new)
        #expect(created.name == f.tripName("t1"))
        #expect(created.remainingDistanceMeters == nil)
        expectFleetError(.alreadyExists) { try f.createTrip("t1") }
    }

    @Test func createRequiresTypeAndPickup() {
        let f = Fixture()
        expectFleetError(.invalidArgument, field: "trip.tripType") {
            _ = try f.engine.createTrip(CreateTripRequest(parent: f.parent, tripId: "t1", trip: Trip(pickupPoint: Fixture.terminal(1, 1))))
        }
        expectFleetError(.invalidArgument, field: "trip.pickupPoint") {
            _ = try f.engine.createTrip(CreateTripRequest(parent: f.parent, tripId: "t1", trip: Trip(tripType: .exclusive)))
        }
        expectFleetError(.invalidArgument, field: "trip.intermediateDestinations") {
            try f.createTrip("t2", type: .shared, intermediates: [(1, 1)])
        }
    }

    @Test func badTripNamesQuoteTheExpectedFormat() {
        let f = Fixture()
        for bad in ["trips/t1", "providers/p/trips", "providers/p/vehicles/t1", "providers/p/trips/a/b", "providers//trips/t"] {
            expectFleetError(.invalidArgument, field: "name", containing: "providers/{provider") {
                _ = try f.engine.getTrip(GetTripRequest(name: bad))
            }
        }
        expectFleetError(.notFound) { _ = try f.trip("never-created") }
    }

    @Test func theLifecycleRunsForwardOnly() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        try f.createTrip("t1", vehicle: "v1")
        expectFleetError(.failedPrecondition, containing: "NEW → ARRIVED_AT_PICKUP") { try f.setStatus("t1", .arrivedAtPickup) }
        try f.setStatus("t1", .enrouteToPickup)
        try f.setStatus("t1", .enrouteToPickup) // an idempotent retry
        expectFleetError(.failedPrecondition) { try f.setStatus("t1", .new) }
        try f.setStatus("t1", .arrivedAtPickup)
        let picked = try f.setStatus("t1", .enrouteToDropoff)
        #expect(picked.pickupTime == f.clock.now())
        f.clock.advance(seconds: 600)
        let done = try f.setStatus("t1", .complete)
        #expect(done.dropoffTime == f.clock.now())
        expectFleetError(.failedPrecondition, containing: "already COMPLETE") { try f.setStatus("t1", .canceled) }
        let v = try f.vehicle("v1")
        #expect(v.currentTrips.isEmpty)
        #expect(v.waypoints.isEmpty)
    }

    @Test func aTripNeedsAVehicleToLeaveNew() throws {
        let f = Fixture()
        try f.createTrip("t1")
        expectFleetError(.failedPrecondition, containing: "vehicleId") { try f.setStatus("t1", .enrouteToPickup) }
        try f.setStatus("t1", .canceled)
    }

    @Test func intermediateDestinationsAreVisitedInOrderWithTheVersionGuard() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        let created = try f.createTrip("t1", vehicle: "v1", intermediates: [(52.51, 13.42), (52.505, 13.43)])
        let version = try #require(created.intermediateDestinationsVersion)
        try f.setStatus("t1", .enrouteToPickup)
        try f.setStatus("t1", .arrivedAtPickup)
        expectFleetError(.invalidArgument, field: "trip.intermediateDestinationIndex") {
            try f.setStatus("t1", .enrouteToIntermediateDestination, index: 2)
        }
        var stale = Trip(tripStatus: .enrouteToIntermediateDestination, intermediateDestinationsVersion: version.adding(seconds: -5),
                         intermediateDestinationIndex: 0)
        expectFleetError(.failedPrecondition, field: "trip.intermediateDestinationsVersion") {
            _ = try f.engine.updateTrip(UpdateTripRequest(name: f.tripName("t1"), trip: stale,
                                                          updateMask: FieldMask(["tripStatus", "intermediateDestinationIndex"])))
        }
        stale.intermediateDestinationsVersion = version
        let enroute = try f.engine.updateTrip(UpdateTripRequest(name: f.tripName("t1"), trip: stale,
                                                               updateMask: FieldMask(["tripStatus", "intermediateDestinationIndex"])))
        #expect(enroute.tripStatus == .enrouteToIntermediateDestination)
        #expect(try f.vehicle("v1").waypoints.map(\.waypointType) == [.intermediateDestinationWaypointType, .intermediateDestinationWaypointType, .dropOffWaypointType])
        try f.setStatus("t1", .arrivedAtIntermediateDestination, index: 0)
        expectFleetError(.failedPrecondition) { try f.setStatus("t1", .enrouteToIntermediateDestination, index: 0) }
        try f.setStatus("t1", .enrouteToIntermediateDestination, index: 1)
        #expect(try f.vehicle("v1").waypoints.count == 2)
        try f.setStatus("t1", .enrouteToDropoff)
        #expect(try f.vehicle("v1").waypoints.map(\.waypointType) == [.dropOffWaypointType])
    }

    @Test func assignmentPutsTheTripAndItsWaypointsOnTheVehicle() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        try f.createTrip("t1")
        let assigned = try f.assign("t1", to: "v1")
        #expect(assigned.vehicleWaypoints.count == 2) // returned by UpdateTrip, never by GetTrip
        let v = try f.vehicle("v1")
        #expect(v.currentTrips == ["t1"])
        #expect(v.waypoints.map(\.waypointType) == [.pickupWaypointType, .dropOffWaypointType])
        #expect(v.waypoints.allSatisfy { $0.tripId == "t1" })
        let read = try f.trip("t1")
        #expect(read.vehicleWaypoints.isEmpty)
        #expect(read.remainingWaypoints.count == 2)
        #expect(read.lastLocation?.location == Fixture.point(52.52, 13.40))
        expectFleetError(.notFound, field: "trip.vehicleId") { try f.assign("t1", to: "ghost") }
    }

    @Test func exclusiveTripsNeedBackToBackToShareAVehicle() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        try f.createTrip("t1", vehicle: "v1")
        expectFleetError(.failedPrecondition, containing: "back-to-back") { try f.createTrip("t2", vehicle: "v1") }
        _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName("v1"), vehicle: Vehicle(backToBackEnabled: true),
                                                            updateMask: FieldMask(["backToBackEnabled"])))
        try f.createTrip("t2", pickup: (52.40, 13.30), dropoff: (52.41, 13.31), vehicle: "v1")
        let v = try f.vehicle("v1")
        #expect(v.currentTrips == ["t1", "t2"])
        #expect(v.waypoints.map(\.tripId) == ["t1", "t1", "t2", "t2"])
        // t2's remaining waypoints include t1's, which come first.
        #expect(try f.trip("t2").remainingWaypoints.count == 4)
        #expect(try f.trip("t1").remainingWaypoints.count == 2)
    }

    @Test func sharedTripsCountSeatsAndFollowVehicleWaypoints() throws {
        let f = Fixture()
        try f.createVehicle("v1", capacity: 3, types: [.shared])
        try f.createTrip("a", type: .shared, pickup: (1, 1), dropoff: (1, 3), vehicle: "v1", passengers: 2)
        expectFleetError(.failedPrecondition, containing: "seats") {
            try f.createTrip("big", type: .shared, pickup: (2, 2), dropoff: (2, 4), vehicle: "v1", passengers: 2)
        }
        expectFleetError(.failedPrecondition) { try f.createTrip("x", type: .exclusive, vehicle: "v1") }
        let a = try f.vehicle("v1").waypoints
        let bPickup = TripWaypoint(location: Fixture.terminal(1, 2), tripId: "b", waypointType: .pickupWaypointType)
        let bDrop = TripWaypoint(location: Fixture.terminal(1, 4), tripId: "b", waypointType: .dropOffWaypointType)
        // b's dropoff before its pickup: refused.
        expectFleetError(.invalidArgument, field: "trip.vehicleWaypoints[2]") {
            try f.createTrip("b", type: .shared, pickup: (1, 2), dropoff: (1, 4), vehicle: "v1", vehicleWaypoints: [a[0], bDrop, bPickup, a[1]])
        }
        try f.createTrip("b", type: .shared, pickup: (1, 2), dropoff: (1, 4), vehicle: "v1", vehicleWaypoints: [a[0], bPickup, a[1], bDrop])
        #expect(try f.vehicle("v1").waypoints.map { "\($0.tripId!):\($0.waypointType!.name.prefix(4))" } == ["a:PICK", "b:PICK", "a:DROP", "b:DROP"])
        // a is picked up: its pickup leaves, the interleaving of the rest stays.
        try f.setStatus("a", .enrouteToPickup)
        try f.setStatus("a", .arrivedAtPickup)
        try f.setStatus("a", .enrouteToDropoff)
        #expect(try f.vehicle("v1").waypoints.map { "\($0.tripId!):\($0.waypointType!.name.prefix(4))" } == ["b:PICK", "a:DROP", "b:DROP"])
    }

    @Test func reassigningMovesTheTripBetweenVehicles() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        try f.createVehicle("v2")
        try f.createTrip("t1", vehicle: "v1")
        try f.assign("t1", to: "v2")
        #expect(try f.vehicle("v1").currentTrips.isEmpty)
        #expect(try f.vehicle("v2").currentTrips == ["t1"])
    }

    @Test func serverOwnedTripFieldsCannotBeUpdated() throws {
        let f = Fixture()
        try f.createTrip("t1")
        for path in ["remainingDistanceMeters", "route", "pickupTime", "numberOfPassengers", "lastLocation"] {
            expectFleetError(.invalidArgument, field: "updateMask", containing: path) {
                _ = try f.engine.updateTrip(UpdateTripRequest(name: f.tripName("t1"), trip: Trip(), updateMask: FieldMask([path])))
            }
        }
        expectFleetError(.invalidArgument, containing: "update_mask cannot be empty") {
            _ = try f.engine.updateTrip(UpdateTripRequest(name: f.tripName("t1"), trip: Trip(tripStatus: .canceled)))
        }
    }

    @Test func deleteRefusesAnActiveAssignedTrip() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        try f.createTrip("t1", vehicle: "v1")
        expectFleetError(.failedPrecondition) { try f.engine.deleteTrip(DeleteTripRequest(name: f.tripName("t1"))) }
        try f.setStatus("t1", .canceled)
        try f.engine.deleteTrip(DeleteTripRequest(name: f.tripName("t1")))
        expectFleetError(.notFound) { _ = try f.trip("t1") }
    }

    @Test func searchTripsByVehicleAndStaleness() throws {
        let f = Fixture()
        try f.createVehicle("v1", types: [.shared])
        for id in ["a", "b", "c"] { try f.createTrip(id, type: .shared, vehicle: "v1") }
        try f.createTrip("loose")
        try f.setStatus("c", .canceled)
        let active = try f.engine.searchTrips(SearchTripsRequest(parent: f.parent, vehicleId: "v1", activeTripsOnly: true))
        #expect(active.trips.compactMap(\.name) == [f.tripName("a"), f.tripName("b")])
        let all = try f.engine.searchTrips(SearchTripsRequest(parent: f.parent, vehicleId: "v1"))
        #expect(all.trips.count == 3)
        let page = try f.engine.searchTrips(SearchTripsRequest(parent: f.parent, pageSize: 2))
        #expect(page.trips.count == 2)
        let rest = try f.engine.searchTrips(SearchTripsRequest(parent: f.parent, pageSize: 2, pageToken: page.nextPageToken))
        #expect(rest.trips.count == 2 && rest.nextPageToken == nil)
        f.clock.advance(seconds: 120)
        try f.setStatus("a", .enrouteToPickup)
        let stale = try f.engine.searchTrips(SearchTripsRequest(parent: f.parent, vehicleId: "v1", minimumStaleness: ProtoDuration(timeInterval: 60)))
        #expect(stale.trips.compactMap(\.name) == [f.tripName("b"), f.tripName("c")])
    }

    @Test func reportBillableTripChecksItsFields() throws {
        let f = Fixture()
        try f.engine.reportBillableTrip(ReportBillableTripRequest(name: "providers/p/billableTrips/b1", countryCode: "DE"))
        expectFleetError(.invalidArgument, field: "countryCode") {
            try f.engine.reportBillableTrip(ReportBillableTripRequest(name: "providers/p/billableTrips/b1", countryCode: "Germany"))
        }
        expectFleetError(.invalidArgument, field: "name") {
            try f.engine.reportBillableTrip(ReportBillableTripRequest(name: "providers/p/trips/b1", countryCode: "DE"))
        }
    }
}
