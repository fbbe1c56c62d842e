@testable import FleetEngine
import FleetGeo
import FleetLearning
import FleetModel
import Testing

/// Traffic on a rider's route from what the fleet just drove against what it learned.
@Suite struct RouteTrafficTests {
    /// A straight road east along 52.5°N from 13.40 to 13.46 (~4 km), a point every 0.001° (~68 m).
    let road = (0...60).map { GeoPoint(latitude: 52.5, longitude: 13.40 + Double($0) * 0.001) }

    /// The road learned at 10 m/s at every hour of the week.
    func learned() -> [PieceObservation] {
        LearnedRoads.everyHour(along: road, metersPerSecond: 10)
    }

    /// An engine that learned the road; vehicle `other` drove 2,000–2,600 m along it at `otherSpeed` m/s (a fix every
    /// 10 s) just before v1, on trip t1 (pickup 13.42, dropoff at the road's end), reports at 13.401.
    func fixture(otherSpeed: Double, configuration: EngineConfiguration = EngineConfiguration(),
                 reported: TrafficPolylineData? = nil) throws -> Fixture {
        let f = Fixture(configuration: configuration)
        try f.engine.learnedTimesStorage.add(learned(), provider: f.provider)
        let route = Route(points: road)!
        try f.createVehicle("other", at: (52.5, 13.40))
        for meters in stride(from: 2000.0, through: 2600, by: otherSpeed * 10) {
            let point = route.point(atMeters: meters)
            try f.move("other", to: point.latitude, point.longitude)
            f.clock.advance(seconds: 10)
        }
        try f.createVehicle("v1", at: (52.5, 13.40))
        try f.createTrip("t1", pickup: (52.5, 13.42), dropoff: (52.5, 13.46), vehicle: "v1")
        var vehicle = Vehicle(currentRouteSegment: Polyline.encode(road))
        var paths = ["currentRouteSegment"]
        if let reported {
            vehicle.currentRouteSegmentTraffic = reported
            paths.append("currentRouteSegmentTraffic")
        }
        _ = try f.engine.updateVehicle(UpdateVehicleRequest(name: f.vehicleName("v1"), vehicle: vehicle, updateMask: FieldMask(paths)))
        f.clock.advance(seconds: 10)
        try f.move("v1", to: 52.5, 13.401)
        return f
    }

    func dropoffSeconds(_ f: Fixture) throws -> Double {
        let trip = try f.trip("t1")
        return try #require(trip.dropoffTime).timeIntervalSince1970 - f.clock.now().timeIntervalSince1970
    }

    @Test func aStretchJustDrivenAtAFifthOfTheLearnedSpeedIsAJamOnTheRidersRouteAndInItsETA() throws {
        let jammed = try fixture(otherSpeed: 2)
        let trip = try jammed.trip("t1")
        let traffic = try #require(trip.currentRouteSegmentTraffic, "no traffic on the trip")
        let jam = traffic.speedReadingInterval.filter { $0.speed == .trafficJam }
        #expect(jam.count == 1, "\(traffic.speedReadingInterval)")
        // 2,000–2,600 m is between points 29 and 39 (68 m apart), give or take a piece (50 m) at each end.
        let first = Int(jam.first?.startPolylinePointIndex ?? -1), last = Int(jam.first?.endPolylinePointIndex ?? -1)
        #expect((27...31).contains(first) && (37...40).contains(last), "\(jam)")
        #expect(traffic.speedReadingInterval.filter { $0.speed == .slow }.isEmpty)
        #expect(traffic.speedReadingInterval.first?.speed == .normal && traffic.encodedPathToWaypoint == Polyline.encode(road))
        #expect(trip.currentRouteSegmentTrafficVersion != nil)

        // Driven at 9 m/s: no traffic, and the dropoff is sooner by the jam's 600 m at 0.5 s/m instead of 0.1.
        let flowing = try fixture(otherSpeed: 9)
        #expect(try flowing.trip("t1").currentRouteSegmentTraffic == nil)
        let delay = try dropoffSeconds(jammed) - dropoffSeconds(flowing)
        #expect(delay > 180 && delay < 300, "\(delay) s")
    }

    @Test func theDriversOwnReportWinsAndLearnedETAsOffShowNoLiveTraffic() throws {
        let report = TrafficPolylineData(trafficRendering: VisualTrafficReportPolylineRendering(roadStretch: [
            .init(style: .slowerTraffic, offsetMeters: 100, lengthMeters: 200),
        ]))
        let reported = try fixture(otherSpeed: 2, reported: report)
        let speeds = try #require(reported.trip("t1").currentRouteSegmentTraffic).speedReadingInterval.map(\.speed)
        #expect(speeds == [.normal, .slow, .normal], "\(speeds)")

        var off = EngineConfiguration()
        off.learnedETAs = nil
        #expect(try fixture(otherSpeed: 2, configuration: off).trip("t1").currentRouteSegmentTraffic == nil)
    }

    @Test func theTrafficFollowsTheVehicleAndIsGoneOnceItPassedTheJamOrTheLiveSpeedsAge() throws {
        let f = try fixture(otherSpeed: 2)
        let firstVersion = try #require(try f.trip("t1").currentRouteSegmentTrafficVersion)
        // Eleven minutes later the other vehicle's passes are forgotten.
        f.clock.advance(seconds: 660)
        try f.move("v1", to: 52.5, 13.402)
        let trip = try f.trip("t1")
        #expect(trip.currentRouteSegmentTraffic == nil, "\(String(describing: trip.currentRouteSegmentTraffic))")
        // A consumer that asks with the version it has gets nothing new while nothing changed.
        let again = try f.engine.getTrip(GetTripRequest(name: f.tripName("t1"), currentRouteSegmentTrafficVersion: firstVersion))
        #expect(again.currentRouteSegmentTraffic == nil)
    }

    @Test func aJamThatFormsLaterAheadIsSeenOnTheNextRefreshBesideTheOneKept() throws {
        let f = try fixture(otherSpeed: 2)
        let before = try #require(f.trip("t1").currentRouteSegmentTraffic).speedReadingInterval.filter { $0.speed == .trafficJam }
        #expect(before.count == 1)
        // A third vehicle crawls 3,200–3,600 m at 2 m/s; v1 reports on, past the 30 s between refreshes.
        let route = Route(points: road)!
        try f.createVehicle("third", at: (52.5, 13.40))
        for meters in stride(from: 3200.0, through: 3600, by: 20) {
            let point = route.point(atMeters: meters)
            try f.move("third", to: point.latitude, point.longitude)
            f.clock.advance(seconds: 10)
        }
        try f.move("v1", to: 52.5, 13.4015)
        let jams = try #require(f.trip("t1").currentRouteSegmentTraffic).speedReadingInterval.filter { $0.speed == .trafficJam }
        #expect(jams.count == 2, "\(jams)")
        #expect(jams.first?.startPolylinePointIndex == before.first?.startPolylinePointIndex)
    }
}
