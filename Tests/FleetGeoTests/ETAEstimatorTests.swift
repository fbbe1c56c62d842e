import Foundation
import FleetGeo
import Testing

@Suite("ETA estimator")
struct ETAEstimatorTests {
    let grid = LocalGrid(origin: GeoPoint(latitude: 48.85, longitude: 2.35))
    /// AUTO's documented default: 40 km/h.
    let autoSpeed = 40 / 3.6

    /// 3 km east, a point every 100 m; waypoints at 1 km and at the end.
    func setting() throws -> (Route, RouteWaypoints) {
        let route = try #require(Route(points: grid.densified([(0, 0), (3000, 0)], spacing: 100)))
        let waypoints = RouteWaypoints(route: route, positions: [grid.point(east: 1000, north: 0),
                                                                 grid.point(east: 3000, north: 0)])
        return (route, waypoints)
    }

    func match(_ route: Route, atEast east: Double, north: Double = 0) -> RouteMatch {
        var progress = RouteProgress(route: route)
        return progress.update(grid.point(east: east, north: north))
    }

    @Test func defaultSpeedWithoutObservationsOrTraffic() throws {
        let (route, waypoints) = try setting()
        let etas = ETAEstimator(category: .auto).estimate(from: match(route, atEast: 0), waypoints: waypoints,
                                                          now: 1000)
        #expect(etas.count == 2)
        #expect(abs(etas[0].remainingMeters - 1000) < 0.5)
        #expect(abs(etas[0].remainingSeconds - 1000 / autoSpeed) < 0.1)   // 90 s
        #expect(abs(etas[1].remainingSeconds - 3000 / autoSpeed) < 0.1)   // 270 s
        #expect(abs(etas[1].arrivalTime - (1000 + 3000 / autoSpeed)) < 0.1)
        #expect(etas.allSatisfy { !$0.isEstimate })
    }

    @Test func trafficSlowsTheStretchesItCovers() throws {
        let (route, waypoints) = try setting()
        let traffic = TrafficProfile(route: route, intervals: [
            TrafficInterval(startPointIndex: 10, endPointIndex: 15, speed: .slow),
            TrafficInterval(startPointIndex: 20, endPointIndex: 25, speed: .trafficJam),
        ])
        let etas = ETAEstimator(category: .auto).estimate(from: match(route, atEast: 0), waypoints: waypoints,
                                                          traffic: traffic, now: 0)
        // 2,000 m at 11.11 m/s + 500 m at half that + 500 m at 8 km/h: 180 + 90 + 225 = 495 s.
        #expect(abs(etas[0].remainingSeconds - 90) < 0.1)
        #expect(abs(etas[1].remainingSeconds - 495) < 0.2)
    }

    @Test func trafficJamNeverSpeedsUpASlowerVehicle() {
        let walker = ETAEstimator(category: .pedestrian)
        #expect(walker.metersPerSecond(in: .trafficJam, now: 0) == 4.5 / 3.6)
        #expect(ETAEstimator(category: .auto).metersPerSecond(in: .trafficJam, now: 0) == 8 / 3.6)
    }

    @Test func observedSpeedTakesOverFromTheDefaultWithTime() throws {
        let (route, waypoints) = try setting()
        var estimator = ETAEstimator(category: .auto)
        #expect(estimator.freeFlowMetersPerSecond(now: 0) == autoSpeed)
        // 150 m every 10 s (15 m/s) for 30 minutes: trust 1 − e^(−1800/180), all but complete.
        for step in 0...180 {
            estimator.observe(position: grid.point(east: Double(step) * 150, north: 0), at: Double(step) * 10)
        }
        let trust = 1 - exp(-1800.0 / 180)
        let expected = trust * 15 + (1 - trust) * autoSpeed
        #expect(abs(estimator.freeFlowMetersPerSecond(now: 1800) - expected) < 0.01)
        let etas = estimator.estimate(from: match(route, atEast: 900), waypoints: waypoints, now: 1800)
        #expect(abs(etas[0].remainingSeconds - 100 / expected) < 0.05)
        #expect(abs(etas[1].remainingSeconds - 2100 / expected) < 0.2)
    }

    @Test func firstObservationsBarelyMoveTheDefault() {
        // One minute watched: the observed 15 m/s weighs 1 − e^(−60/180) = 28 %.
        var estimator = ETAEstimator(category: .auto)
        for step in 0...6 {
            estimator.observe(position: grid.point(east: Double(step) * 150, north: 0), at: Double(step) * 10)
        }
        let trust = 1 - exp(-60.0 / 180)
        #expect(abs(estimator.freeFlowMetersPerSecond(now: 60) - (trust * 15 + (1 - trust) * autoSpeed)) < 0.01)
    }

    /// 20 minutes at 12 m/s, then `stoppedSeconds` standing, reported every 10 s.
    func estimatorThatStopped(for stoppedSeconds: Double) -> ETAEstimator {
        var estimator = ETAEstimator(category: .auto)
        for second in stride(from: 0.0, through: 1200, by: 10) {
            estimator.observe(metersPerSecond: 12, at: second)
        }
        for second in stride(from: 1210.0, through: 1200 + stoppedSeconds, by: 10) {
            estimator.observe(metersPerSecond: 0, at: second)
        }
        return estimator
    }

    @Test func stoppedVehicleFallsBackToTheDefaultInsteadOfInfinity() throws {
        let (route, waypoints) = try setting()
        // An hour standing: the average is ~0 and the free-flow speed is back at the default.
        let parked = estimatorThatStopped(for: 3600)
        #expect(try #require(parked.observedSpeed.metersPerSecond) < 0.01)
        let speed = parked.freeFlowMetersPerSecond(now: 4800)
        #expect(speed > 0.99 * autoSpeed && speed <= autoSpeed)
        let etas = parked.estimate(from: match(route, atEast: 500), waypoints: waypoints, now: 4800)
        #expect(abs(etas[1].remainingSeconds - 2500 / autoSpeed) < 3)
        // Ten minutes standing (average 12 e^−2 = 1.6 m/s): never below the floor, a quarter of the default.
        let waiting = estimatorThatStopped(for: 600)
        #expect(waiting.freeFlowMetersPerSecond(now: 1800) >= 0.25 * autoSpeed)
        #expect(waiting.estimate(from: match(route, atEast: 500), waypoints: waypoints, now: 1800)[1]
            .remainingSeconds <= 2500 / (0.25 * autoSpeed))
    }

    @Test func briefStopAtALightBarelyMovesTheSpeed() {
        // 40 s at a red light after 20 minutes at 12 m/s. With d = e^(−10/300) per 10 s sample, the bias-corrected
        // average is 12 (1 − d¹²⁰) d⁴ / (1 − d¹²⁴) = 10.48 m/s, above the floor, so it is kept,
        // trusted 1 − e^(−1240/180).
        let estimator = estimatorThatStopped(for: 40)
        let d = exp(-10.0 / 300)
        let average = 12 * (1 - pow(d, 120)) * pow(d, 4) / (1 - pow(d, 124))
        let trust = 1 - exp(-1240.0 / 180)
        let expected = trust * average + (1 - trust) * autoSpeed
        #expect(abs(average - 10.48) < 0.01)
        #expect(abs(estimator.freeFlowMetersPerSecond(now: 1240) - expected) < 1e-6)
    }

    @Test func staleObservationsAreIgnored() {
        let estimator = estimatorThatStopped(for: 0)
        #expect(estimator.freeFlowMetersPerSecond(now: 1200 + 599) > 11.9)
        #expect(estimator.freeFlowMetersPerSecond(now: 1200 + 601) == autoSpeed)
        #expect(ETAEstimator(category: .taxi).freeFlowMetersPerSecond(now: 0) == 30 / 3.6)
    }

    @Test func withoutARouteGreatCircleTimesTheDetourFactor() {
        let estimator = ETAEstimator(category: .auto)
        let etas = estimator.estimateWithoutRoute(from: grid.point(east: 0, north: 0),
                                                  to: [grid.point(east: 0, north: 1000),
                                                       grid.point(east: 1000, north: 1000)], now: 50)
        #expect(abs(etas[0].remainingMeters - 1300) < 0.5)
        #expect(abs(etas[0].remainingSeconds - 1300 / autoSpeed) < 0.1)    // 117 s
        #expect(abs(etas[1].remainingMeters - 2600) < 1)
        #expect(etas.allSatisfy { $0.isEstimate })
    }

    @Test func offRouteGoesStraightToTheNextWaypointThenAlongTheRoute() throws {
        let (route, waypoints) = try setting()
        var progress = RouteProgress(route: route)
        _ = progress.update(grid.point(east: 500, north: 0))
        let off = progress.update(grid.point(east: 500, north: 300))
        #expect(off.isOffRoute)
        let etas = ETAEstimator(category: .auto).estimate(from: off, waypoints: waypoints, now: 0)
        // √(500² + 300²) = 583.1 m × 1.3 = 758.0 m to the next waypoint, then 2,000 m along the route.
        #expect(abs(etas[0].remainingMeters - 758.0) < 0.5)
        #expect(abs(etas[1].remainingMeters - 2758.0) < 1)
        #expect(abs(etas[1].remainingSeconds - 2758.0 / autoSpeed) < 0.2)
        #expect(etas.allSatisfy { $0.isEstimate })
    }

    @Test func passedWaypointsAreZeroAndBeyondRouteOnesAreEstimates() throws {
        let route = try #require(Route(points: grid.densified([(0, 0), (2000, 0)], spacing: 100)))
        let waypoints = RouteWaypoints(route: route, positions: [grid.point(east: 1000, north: 0),
                                                                 grid.point(east: 2000, north: 0),
                                                                 grid.point(east: 2000, north: 1000)])
        let etas = ETAEstimator(category: .auto).estimate(from: match(route, atEast: 1500), waypoints: waypoints,
                                                          now: 10)
        #expect(etas[0] == WaypointETA(remainingMeters: 0, remainingSeconds: 0, arrivalTime: 10, isEstimate: false))
        #expect(abs(etas[1].remainingMeters - 500) < 0.5)
        #expect(!etas[1].isEstimate)
        #expect(abs(etas[2].remainingMeters - 1800) < 1)
        #expect(abs(etas[2].remainingSeconds - 1800 / autoSpeed) < 0.2)
        #expect(etas[2].isEstimate)
    }
}
