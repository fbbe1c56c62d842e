import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import FleetStore
import MemoryStore
import Testing

/// The engine keeps every accepted location in the store's position history and reads it back
/// through `HistoryReading`.
@Suite struct HistoryTests {
    func update(_ f: Fixture, _ id: String, _ location: VehicleLocation, paths: [String] = ["lastLocation"], state: VehicleState? = nil) throws {
        var vehicle = Vehicle(lastLocation: location)
        vehicle.vehicleState = state
        _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName(id), vehicle: vehicle, updateMask: FieldMask(paths)))
    }

    @Test func everyAcceptedLocationIsKeptWithWhatTheDeviceSent() throws {
        let f = Fixture()
        try f.createVehicle("car-1", at: (52.52, 13.40))
        try f.createTrip("trip-1", vehicle: "car-1")
        f.clock.advance(seconds: 5)
        let deviceTime = Timestamp(seconds: 1_767_225_603, nanos: 250_000_000)
        try update(f, "car-1", VehicleLocation(location: Fixture.point(52.53, 13.41), horizontalAccuracy: 4, heading: 90, speed: 8.5, updateTime: deviceTime))
        f.clock.advance(seconds: 5)
        try update(f, "car-1", VehicleLocation(location: Fixture.point(52.54, 13.42), speedKmph: 36),
                   paths: ["lastLocation", "vehicleState"], state: .offline)
        // A write that changes no location keeps no point.
        _ = try f.engine.updateVehicleAttributes(UpdateVehicleAttributesRequest(name: f.vehicleName("car-1"), attributes: [VehicleAttribute(key: "k", value: "v")]))

        let page = try f.engine.history(HistoryRequest(name: f.vehicleName("car-1")))
        #expect(page.nextPageToken == nil)
        #expect(page.points.count == 3)
        let created = page.points[0], reported = page.points[1], last = page.points[2]
        #expect(created.time == Timestamp(seconds: 1_767_225_600) && created.tripIDs.isEmpty && created.vehicleState == .online)
        #expect(reported.time == deviceTime)
        #expect(reported.latitude == 52.53 && reported.longitude == 13.41)
        #expect(reported.accuracyMeters == 4 && reported.headingDegrees == 90 && reported.speedMetersPerSecond == 8.5)
        #expect(reported.tripIDs == ["trip-1"])
        #expect(last.speedMetersPerSecond == 10 && last.vehicleState == .offline)

        // One trip's points, a span, pages.
        #expect(try f.engine.history(HistoryRequest(name: f.vehicleName("car-1"), tripID: "trip-1")).points.count == 2)
        #expect(try f.engine.history(HistoryRequest(name: f.tripName("trip-1"))).points == [reported, last])
        #expect(try f.engine.history(HistoryRequest(name: f.vehicleName("car-1"), from: deviceTime, to: last.time)).points == [reported])
        let first = try f.engine.history(HistoryRequest(name: f.vehicleName("car-1"), pageSize: 2))
        #expect(first.points == [created, reported])
        let second = try f.engine.history(HistoryRequest(name: f.vehicleName("car-1"), pageSize: 2, pageToken: first.nextPageToken))
        #expect(second.points == [last] && second.nextPageToken == nil)
    }

    @Test func badRequestsNameTheirField() throws {
        let f = Fixture()
        try f.createVehicle("car-1")
        func field(_ request: HistoryRequest) -> String? {
            (try? #require(throws: FleetError.self) { try f.engine.history(request) })?.field
        }
        #expect(field(HistoryRequest(name: "providers/x")) == "name")
        #expect(field(HistoryRequest(name: f.vehicleName("car-1"), pageSize: 0)) == "pageSize")
        #expect(field(HistoryRequest(name: f.vehicleName("car-1"), pageToken: "nonsense")) == "pageToken")
        #expect(field(HistoryRequest(name: f.vehicleName("car-1"), from: Timestamp(seconds: 10), to: Timestamp(seconds: 5))) == "to")
        #expect(field(HistoryRequest(name: f.tripName("trip-1"), tripID: "trip-1")) == "tripId")
        let missing = try #require(throws: FleetError.self) { try f.engine.history(HistoryRequest(name: f.tripName("nope"))) }
        #expect(missing.code == .notFound)
    }

    @Test func aDeliveryVehiclesLocationsAreKeptApartFromARidesVehicleOfTheSameID() throws {
        let f = Fixture()
        try f.createVehicle("van-1", at: (52.52, 13.40))
        try f.createDeliveryVehicle("van-1", at: (48.10, 11.50))
        try f.createTask("t1")
        // Stops alone, and attributes alone, report no location: no point.
        try f.setStops("van-1", [Fixture.stop((48.11, 11.52), ["t1"])])
        f.clock.advance(seconds: 5)
        try f.moveDeliveryVehicle("van-1", to: 48.101, 11.501, speed: 7.5)
        f.clock.advance(seconds: 5)
        let deviceTime = Timestamp(seconds: 1_767_225_607)
        _ = try f.engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: f.deliveryVehicleName("van-1"), lastLocation: DeliveryVehicleLocation(
                location: Fixture.point(48.102, 11.502), horizontalAccuracy: 3, heading: 45, updateTime: deviceTime),
                attributes: [DeliveryVehicleAttribute(key: "k", value: "v")]),
            updateMask: FieldMask(["lastLocation", "attributes"])))
        _ = try f.engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: f.deliveryVehicleName("van-1"), attributes: [DeliveryVehicleAttribute(key: "k", value: "w")]),
            updateMask: FieldMask(["attributes"])))

        let van = try f.engine.history(HistoryRequest(name: f.deliveryVehicleName("van-1"))).points
        #expect(van.map(\.latitude) == [48.10, 48.101, 48.102])
        #expect(van.allSatisfy { $0.vehicleID == "van-1" && $0.tripIDs.isEmpty && $0.vehicleState == nil })
        #expect(van[0].time == Timestamp(seconds: 1_767_225_600))
        #expect(van[1].speedMetersPerSecond == 7.5)
        #expect(van[2].time == deviceTime && van[2].accuracyMeters == 3 && van[2].headingDegrees == 45)
        // The rides vehicle of the same ID has its own history.
        let car = try f.engine.history(HistoryRequest(name: f.vehicleName("van-1"))).points
        #expect(car.map(\.latitude) == [52.52])
        // A span and pages, as for rides vehicles.
        let first = try f.engine.history(HistoryRequest(name: f.deliveryVehicleName("van-1"), pageSize: 2))
        #expect(first.points == Array(van.prefix(2)) && first.nextPageToken != nil)
        let second = try f.engine.history(HistoryRequest(name: f.deliveryVehicleName("van-1"), pageSize: 2, pageToken: first.nextPageToken))
        #expect(second.points == [van[2]] && second.nextPageToken == nil)
        #expect(try f.engine.history(HistoryRequest(name: f.deliveryVehicleName("van-1"), from: deviceTime)).points == [van[2]])
        // A delivery vehicle serves no trips.
        let trip = try #require(throws: FleetError.self) {
            try f.engine.history(HistoryRequest(name: f.deliveryVehicleName("van-1"), tripID: "t1"))
        }
        #expect(trip.code == .invalidArgument && trip.field == "tripId")
        #expect(try f.engine.history(HistoryRequest(name: f.deliveryVehicleName("nobody"))).points.isEmpty)
    }

    @Test func anEngineThatKeepsNoHistoryWritesNoPoint() throws {
        var configuration = EngineConfiguration()
        configuration.keepsHistory = false
        let f = Fixture(configuration: configuration)
        try f.createVehicle("car-1")
        try update(f, "car-1", VehicleLocation(location: Fixture.point(52.53, 13.41)))
        #expect(try f.engine.history(HistoryRequest(name: f.vehicleName("car-1"))).points.isEmpty)
    }
}
