import FleetEngine
import FleetGeo
import FleetModel
import Testing

/// Route progress and ETA as the engine derives them on each vehicle update.
@Suite struct ProgressTests {
    /// A straight road east along 52.5°N from 13.40 to 13.46 (~4 km), pickup at a third, dropoff at the end.
    let road = (0...60).map { GeoPoint(latitude: 52.5, longitude: 13.40 + Double($0) * 0.001) }
    var pickup: (Double, Double) { (52.5, 13.42) }
    var dropoff: (Double, Double) { (52.5, 13.46) }

    func setRoute(_ f: Fixture, _ points: [GeoPoint], vehicle: String = "v1") throws {
        _ = try f.engine.updateVehicle(UpdateVehicleRequest(
            name: f.vehicleName(vehicle), vehicle: Vehicle(currentRouteSegment: Polyline.encode(points)),
            updateMask: ["currentRouteSegment"]))
    }

    @Test func remainingDistanceAndETAsFollowTheVehicleAlongItsRoute() throws {
        let f = Fixture()
        try f.createVehicle("v1", at: (52.5, 13.40))
        try f.createTrip("t1", pickup: pickup, dropoff: dropoff, vehicle: "v1")
        try f.setStatus("t1", .enrouteToPickup)
        try setRoute(f, Array(road))
        var previous: (distance: Int32, eta: Timestamp)?
        var routeVersion: Timestamp?
        for step in 0...20 {
            f.clock.advance(seconds: 10)
            let v = try f.move("v1", to: 52.5, 13.40 + Double(step) * 0.001)
            let trip = try f.trip("t1")
            let distance = try #require(trip.remainingDistanceMeters)
            let eta = try #require(trip.etaToFirstWaypoint)
            #expect(distance == v.remainingDistanceMeters)
            #expect(trip.remainingWaypoints.first?.distanceMeters == distance, "the first waypoint's leg starts at the vehicle")
            #expect(trip.lastLocation?.location == LatLng(latitude: 52.5, longitude: 13.40 + Double(step) * 0.001))
            #expect(trip.lastLocationSnappable == true)
            if let routeVersion { #expect(trip.currentRouteSegmentVersion == routeVersion, "the route did not change") }
            routeVersion = trip.currentRouteSegmentVersion
            #expect(trip.route.count == road.count)
            // Pickup is 0.02° of longitude east of the start: ~1354 m at 52.5°N.
            let expected = 1354.0 - Double(step) * 67.7
            #expect(abs(Double(distance) - expected) < 15, "step \(step): \(distance) m, expected about \(Int(expected))")
            if let previous {
                #expect(distance < previous.distance)
                #expect(eta.timeIntervalSince1970 - f.clock.now().timeIntervalSince1970 < previous.eta.timeIntervalSince1970 - f.clock.now().timeIntervalSince1970 + 10)
            }
            previous = (distance, eta)
        }
        let arrived = try f.trip("t1")
        #expect(arrived.remainingDistanceMeters == 0, "at the pickup the remaining distance reaches 0")
        #expect(arrived.tripStatus == .enrouteToPickup, "arriving does not change the status by itself")
        // Per-waypoint: the dropoff's leg runs from the pickup to the end of the road (~2.7 km).
        let dropLeg = try #require(arrived.remainingWaypoints.last?.distanceMeters)
        #expect(abs(Double(dropLeg) - 2708) < 30)
        #expect(arrived.dropoffTime! > arrived.pickupTime!)
    }

    @Test func withoutARouteTheEstimateIsAStraightLineWithADetour() throws {
        let f = Fixture()
        try f.createVehicle("v1", at: (52.5, 13.40))
        try f.createTrip("t1", pickup: pickup, dropoff: dropoff, vehicle: "v1")
        let trip = try f.trip("t1")
        let distance = Double(try #require(trip.remainingDistanceMeters))
        #expect(abs(distance - 1354 * 1.3) < 20)
        #expect(trip.lastLocationSnappable == false)
    }

    @Test func offRouteRecomputesFromTheVehicleToItsNextWaypoint() throws {
        let f = Fixture()
        try f.createVehicle("v1", at: (52.5, 13.40))
        try f.createTrip("t1", pickup: pickup, dropoff: dropoff, vehicle: "v1")
        try setRoute(f, road)
        f.clock.advance(seconds: 10)
        try f.move("v1", to: 52.51, 13.41) // ~1.1 km north of the road
        let trip = try f.trip("t1")
        #expect(trip.lastLocationSnappable == false)
        let straight = Geodesy.distance(GeoPoint(latitude: 52.51, longitude: 13.41), GeoPoint(latitude: 52.5, longitude: 13.42))
        #expect(abs(Double(trip.remainingDistanceMeters!) - straight * 1.3) < 20)
    }

    @Test func trafficOnTheRouteSlowsTheETAAndReachesTheRider() throws {
        let f = Fixture()
        try f.createVehicle("v1", at: (52.5, 13.40))
        try f.createTrip("t1", pickup: pickup, dropoff: dropoff, vehicle: "v1")
        try setRoute(f, road)
        let free = try f.trip("t1").etaToFirstWaypoint!
        let jam = TrafficPolylineData(trafficRendering: VisualTrafficReportPolylineRendering(roadStretch: [
            .init(style: .trafficJam, offsetMeters: 200, lengthMeters: 800)]))
        _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName("v1"), vehicle: Vehicle(currentRouteSegmentTraffic: jam),
                                                            updateMask: ["currentRouteSegmentTraffic"]))
        let trip = try f.trip("t1")
        #expect(trip.etaToFirstWaypoint! > free.adding(seconds: 100), "800 m of jam at 8 km/h adds minutes")
        let traffic = try #require(trip.currentRouteSegmentTraffic)
        #expect(traffic.speedReadingInterval.contains { $0.speed == .trafficJam })
        #expect(traffic.speedReadingInterval.first?.startPolylinePointIndex == 0)
        #expect(traffic.speedReadingInterval.last?.endPolylinePointIndex == Int32(road.count - 1))
        // Asking again with the traffic version leaves the unchanged traffic out.
        let again = try f.engine.getTrip(GetTripRequest(name: f.tripName("t1"), currentRouteSegmentVersion: trip.currentRouteSegmentVersion,
                                                        currentRouteSegmentTrafficVersion: trip.currentRouteSegmentTrafficVersion))
        #expect(again.currentRouteSegmentTraffic == nil)
        #expect(again.route.isEmpty)
        #expect(again.remainingDistanceMeters == trip.remainingDistanceMeters)
    }

    /// 120 points zig-zagging between (0,0) and (0,179): about 2.4 million km, more metres than an int32 holds.
    /// Such a route once stopped the server (a trapping conversion of the remaining distance).
    static let aroundTheWorldAndBack = Polyline.encode((0..<120).map { GeoPoint(latitude: 0, longitude: $0 % 2 == 0 ? 0 : 179) })

    @Test func aRouteLongerThanTheEarthIsRefusedOnAVehicleWithATrip() throws {
        let f = Fixture()
        try f.createVehicle("v1", at: (0, 0.001))
        try f.createTrip("t1", pickup: (0, 1), dropoff: (0, 2), vehicle: "v1")
        expectFleetError(.invalidArgument, field: "vehicle.currentRouteSegment", containing: "circumference") {
            _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName("v1"), vehicle: Vehicle(currentRouteSegment: Self.aroundTheWorldAndBack),
                                                                updateMask: ["currentRouteSegment"]))
        }
        #expect(try f.trip("t1").remainingDistanceMeters != nil, "the trip still reads")
    }

    @Test func aRouteLongerThanTheEarthIsRefusedBeforeATripIsAssigned() throws {
        let f = Fixture()
        try f.createVehicle("v1", at: (0, 0.001))
        expectFleetError(.invalidArgument, field: "vehicle.currentRouteSegment") {
            _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName("v1"), vehicle: Vehicle(currentRouteSegment: Self.aroundTheWorldAndBack),
                                                                updateMask: ["currentRouteSegment"]))
        }
        try f.createTrip("t1", pickup: (0, 1), dropoff: (0, 2), vehicle: "v1")
        #expect(try f.trip("t1").vehicleId == "v1")
    }

    @Test func theLongestAcceptedRouteStillFitsEveryDistanceField() throws {
        // Just under the Earth's circumference, with the pickup at its far end: every distance stays in range.
        let f = Fixture()
        try f.createVehicle("v1", at: (0, 0))
        try f.createTrip("t1", pickup: (0, -179), dropoff: (0, 0), vehicle: "v1")
        let route = Polyline.encode([GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 179),
                                     GeoPoint(latitude: 0, longitude: -179)])
        _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName("v1"), vehicle: Vehicle(currentRouteSegment: route),
                                                            updateMask: ["currentRouteSegment"]))
        let trip = try f.trip("t1")
        #expect((try #require(trip.remainingDistanceMeters)) > 19_000_000)
    }

    @Test func aBadPolylineIsRefusedNamingTheField() throws {
        let f = Fixture()
        try f.createVehicle("v1")
        expectFleetError(.invalidArgument, field: "vehicle.currentRouteSegment") {
            _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName("v1"), vehicle: Vehicle(currentRouteSegment: "_p~iF~ps|U_u"),
                                                                updateMask: ["currentRouteSegment"]))
        }
    }
}
