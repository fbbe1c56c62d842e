import FleetEngine
import FleetGeo
import FleetLearning
import FleetModel
import FleetTestSupport
import Testing

/// Where the fleet learned nothing, a route the router planned takes the router's time before the live pace.
@Suite struct RouterFallbackTests {
    /// A street far from the trip, learned at 5 m/s, so that the provider has learned tables.
    func elsewhere() -> [PieceObservation] {
        let route = Route(points: [GeoPoint(latitude: 48.0, longitude: 2.0), GeoPoint(latitude: 48.0, longitude: 2.01)])!
        let fixes = stride(from: 0.0, through: route.totalMeters / 5, by: 5).map {
            Fix(time: 1_769_385_600 + $0, position: route.point(atMeters: $0 * 5))
        }
        return DriveLearner().observations(of: fixes)
    }

    /// Seconds to the dropoff of a trip from (52.50, 13.40) by the L router (10 m/s on every road), and its distance.
    func dropoff(_ configuration: EngineConfiguration, learned: Bool) throws -> (seconds: Double, meters: Double) {
        var configuration = configuration
        configuration.router = LRouter()
        let f = Fixture(configuration: configuration)
        if learned { try f.engine.learnedTimesStorage.add(elsewhere(), provider: f.provider) }
        try f.createVehicle("v1", at: (52.50, 13.40))
        try f.createTrip("t1", pickup: (52.51, 13.42), dropoff: (52.51, 13.46), vehicle: "v1")
        f.clock.advance(seconds: 5)
        try f.move("v1", to: 52.50, 13.40)
        let trip = try f.trip("t1")
        let seconds = try #require(trip.dropoffTime).timeIntervalSince1970 - f.clock.now().timeIntervalSince1970
        let meters = try #require(f.vehicle("v1").waypoints.map { Double($0.distanceMeters ?? 0) }.reduce(0, +) as Double?)
        return (seconds, meters)
    }

    @Test func unlearnedStretchesTakeTheRoutersTimeNotTheDefaultSpeed() throws {
        let routed = try dropoff(EngineConfiguration(), learned: true)
        #expect(routed.meters > 5000, "\(routed.meters) m")
        #expect(abs(routed.seconds - routed.meters / 10) < 5, "\(routed.seconds) s for \(routed.meters) m: the router's 10 m/s")
        // Learned ETAs off: the vehicle's own pace (its category's default, 40 km/h, against the standing it was
        // seen doing), not the router's time.
        var off = EngineConfiguration()
        off.learnedETAs = nil
        let live = try dropoff(off, learned: true)
        #expect(abs(live.seconds - live.meters / 10) > 20, "\(live.seconds) s for \(live.meters) m")
    }
}
