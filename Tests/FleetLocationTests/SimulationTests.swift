import FleetErrors
import FleetGeo
import FleetLocation
import FleetModel
import Testing

@Suite("Simulated drives: speed profile, turns and stops")
struct SimulationTests {
    static let start = GeoPoint(latitude: 52.37, longitude: 4.89)
    /// 1 km east, then a right-angle turn and 1 km north.
    static let corner = [start, offset(start, bearing: 90, meters: 1000), offset(offset(start, bearing: 90, meters: 1000), bearing: 0, meters: 1000)]
    static let style = DrivingStyle(cruiseMetersPerSecond: 15, acceleration: 1.5, deceleration: 2)

    @Test("The drive starts and ends at rest, reaches cruise speed on a straight, and covers the whole route")
    func profileShape() throws {
        let route = try #require(Route(points: Self.corner))
        let profile = SpeedProfile(route: route, style: Self.style)
        #expect(profile.position(atSeconds: 0).metersPerSecond == 0)
        let end = profile.position(atSeconds: profile.totalSeconds)
        #expect(end.arrived)
        #expect(abs(end.meters - route.totalMeters) < 1e-6)
        let speeds = stride(from: 0.0, through: profile.totalSeconds, by: 0.5).map { profile.position(atSeconds: $0) }
        #expect(speeds.map(\.metersPerSecond).max()! > 14.9)
        #expect(speeds.allSatisfy { $0.metersPerSecond <= 15 + 1e-9 })
        #expect(zip(speeds, speeds.dropFirst()).allSatisfy { $0.meters <= $1.meters + 1e-9 }, "never drives backwards")
        #expect(profile.totalSeconds > route.totalMeters / 15, "acceleration and braking take time")
    }

    @Test("The vehicle slows for a right-angle turn to the style's turn speed")
    func slowsForTurn() throws {
        let route = try #require(Route(points: Self.corner))
        let profile = SpeedProfile(route: route, style: Self.style)
        let turnSpeed = Self.style.turnSpeed(degrees: 90)
        #expect(turnSpeed < 15 * 0.5)
        // Find when the vehicle passes the corner (1000 m) and read its speed there.
        var low = 0.0
        var high = profile.totalSeconds
        for _ in 0..<60 {
            let middle = (low + high) / 2
            if profile.position(atSeconds: middle).meters < 1000 { low = middle } else { high = middle }
        }
        #expect(profile.position(atSeconds: high).metersPerSecond <= turnSpeed + 0.05)
        #expect(Self.style.turnSpeed(degrees: 10) == 15, "gentle bends are taken at cruise")
    }

    @Test("A stop holds the vehicle still for its wait")
    func stopsAndWaits() throws {
        let route = try #require(Route(points: Self.corner))
        let withStop = SpeedProfile(route: route, style: Self.style, stops: [SimulatedStop(meters: 500, seconds: 30)])
        let without = SpeedProfile(route: route, style: Self.style)
        #expect(withStop.totalSeconds > without.totalSeconds + 30)
        var arrival = 0.0
        while withStop.position(atSeconds: arrival).meters < 500 - 1e-6 { arrival += 0.25 }
        let held = withStop.position(atSeconds: arrival + 15)
        #expect(abs(held.meters - 500) < 0.5)
        #expect(held.metersPerSecond < 0.01)
    }

    @Test("Stops parse from metres, kilometres, seconds and minutes", arguments: [
        ("800", [SimulatedStop(meters: 800, seconds: 30)]),
        ("800m:10s,1.5km:2m", [SimulatedStop(meters: 800, seconds: 10), SimulatedStop(meters: 1500, seconds: 120)]),
        (" 100 : 5 ", [SimulatedStop(meters: 100, seconds: 5)]),
    ])
    func parsesStops(text: String, stops: [SimulatedStop]) throws {
        #expect(try SimulatedStop.parseList(text) == stops)
    }

    @Test("Bad stops are refused naming --stops", arguments: ["far", "800:soon", "-5", "1km:-1s"])
    func refusesStops(text: String) {
        let error = #expect(throws: FleetError.self) { try SimulatedStop.parseList(text) }
        #expect(error?.message.contains("--stops") == true)
    }

    @Test("Samples follow the route with its heading, speed and simulated time")
    func samples() throws {
        let route = try #require(Route(points: Self.corner))
        let simulator = DriveSimulator(route: route, style: Self.style)
        let start = Timestamp(seconds: 1_700_000_000)
        let first = simulator.sample(atSeconds: 10, start: start)
        #expect(first.time == Timestamp(seconds: 1_700_000_010))
        #expect(abs((first.heading ?? 0) - 90) < 1)
        let last = simulator.sample(atSeconds: simulator.totalSeconds, start: start)
        #expect(Geodesy.distance(last.point, Self.corner[2]) < 0.01)
        #expect(abs((last.heading ?? 0) - 0) < 1 || abs((last.heading ?? 0) - 360) < 1)
        #expect(DrivingStyle.standard(for: .pedestrian).cruiseMetersPerSecond < DrivingStyle.standard(for: .auto).cruiseMetersPerSecond)
        #expect(abs(DrivingStyle.standard(for: .auto).cruising(atKilometersPerHour: 72).cruiseMetersPerSecond - 20) < 1e-9)
    }
}
