import FleetGeo
import Testing

@Suite("Traffic profile")
struct TrafficProfileTests {
    let grid = LocalGrid(origin: GeoPoint(latitude: 52.52, longitude: 13.40))

    /// 3 km east with a point every 100 m, so point index i sits at i × 100 m.
    func route() throws -> Route {
        try #require(Route(points: grid.densified([(0, 0), (3000, 0)], spacing: 100)))
    }

    @Test func splitsDistancesByTraffic() throws {
        let route = try route()
        let profile = TrafficProfile(route: route, intervals: [
            TrafficInterval(startPointIndex: 0, endPointIndex: 10, speed: .normal),
            TrafficInterval(startPointIndex: 10, endPointIndex: 15, speed: .slow),
            TrafficInterval(startPointIndex: 20, endPointIndex: 25, speed: .trafficJam),
        ])
        let whole = profile.meters(from: 0, to: 3000)
        #expect(abs(whole.slow - 500) < 0.5)
        #expect(abs(whole.trafficJam - 500) < 0.5)
        #expect(abs(whole.normal - 2000) < 1)
        let partial = profile.meters(from: 1200, to: 2100)
        #expect(abs(partial.slow - 300) < 0.5)
        #expect(abs(partial.trafficJam - 100) < 0.5)
        #expect(abs(partial.normal - 500) < 1)
        #expect(profile.meters(from: 2000, to: 1000).total == 0)
        #expect(profile.speed(atMeters: 50) == .normal)
        #expect(profile.speed(atMeters: 1250) == .slow)
        #expect(profile.speed(atMeters: 2499) == .trafficJam)
        #expect(profile.speed(atMeters: 2600) == .normal)
    }

    @Test func clampsIndicesAndDropsEmptyOrReversedIntervals() throws {
        let route = try route()
        let profile = TrafficProfile(route: route, intervals: [
            TrafficInterval(startPointIndex: 28, endPointIndex: 400, speed: .slow),
            TrafficInterval(startPointIndex: 5, endPointIndex: 5, speed: .trafficJam),
            TrafficInterval(startPointIndex: 9, endPointIndex: 3, speed: .trafficJam),
        ])
        let whole = profile.meters(from: 0, to: route.totalMeters)
        #expect(abs(whole.slow - 200) < 0.5)
        #expect(whole.trafficJam == 0)
    }

    @Test func overlapsGoToTheIntervalStartingFirst() throws {
        let route = try route()
        let profile = TrafficProfile(route: route, intervals: [
            TrafficInterval(startPointIndex: 12, endPointIndex: 20, speed: .trafficJam),
            TrafficInterval(startPointIndex: 10, endPointIndex: 15, speed: .slow),
        ])
        let whole = profile.meters(from: 0, to: route.totalMeters)
        #expect(abs(whole.slow - 500) < 0.5)
        #expect(abs(whole.trafficJam - 500) < 0.5)
        #expect(TrafficProfile.none.isEmpty)
        #expect(TrafficProfile.none.meters(from: 0, to: 10).normal == 10)
    }

    @Test func rawValuesAreFleetEngineNames() {
        #expect(TrafficSpeed(rawValue: "TRAFFIC_JAM") == .trafficJam)
        #expect(TrafficSpeed.unspecified.rawValue == "SPEED_UNSPECIFIED")
        #expect(VehicleCategory(rawValue: "TWO_WHEELER") == .twoWheeler)
    }
}
