import FleetGeo
import Foundation
import Testing

@Suite("Observed speed")
struct ObservedSpeedTests {
    @Test func averagesWithTheTimeConstant() throws {
        var speed = ObservedSpeed()
        #expect(speed.timeConstantSeconds == 300)
        speed.record(metersPerSecond: 10, at: 0)
        #expect(speed.metersPerSecond == nil)   // the first reported speed only starts the clock
        speed.record(metersPerSecond: 10, at: 300)
        #expect(speed.metersPerSecond == 10)
        // Another sample covering one time constant weighs w = 1 − 1/e; bias-corrected, the average is
        // (w(1 − w)·10 + w·20) / (w(1 − w) + w) = (10(1 − w) + 20) / (2 − w) = 17.31 m/s.
        speed.record(metersPerSecond: 20, at: 600)
        let w = 1 - exp(-1.0)
        #expect(abs(try #require(speed.metersPerSecond) - (10 * (1 - w) + 20) / (2 - w)) < 1e-9)
        #expect(speed.observedSeconds == 600)
    }

    @Test func firstSamplesAreAPlainMeanNotStuckOnTheFirst() throws {
        // Pulling away: 8 m/s, then 16 m/s, each over 10 s. A plain EWMA started at the first sample would still say
        // about 8.3 m/s; the bias-corrected average is the time-weighted mean, about 12.
        var speed = ObservedSpeed()
        speed.record(metersPerSecond: 0, at: 0)
        speed.record(metersPerSecond: 8, at: 10)
        speed.record(metersPerSecond: 16, at: 20)
        let w = 1 - exp(-10.0 / 300)
        #expect(abs(try #require(speed.metersPerSecond) - (8 * (1 - w) + 16) / (2 - w)) < 1e-9)
        #expect(abs(try #require(speed.metersPerSecond) - 12) < 0.2)
    }

    @Test func derivesSpeedFromPositions() throws {
        let grid = LocalGrid(origin: GeoPoint(latitude: 40.7, longitude: -74.0))
        var speed = ObservedSpeed()
        speed.record(position: grid.point(east: 0, north: 0), at: 100)
        #expect(speed.metersPerSecond == nil)
        speed.record(position: grid.point(east: 0, north: 150), at: 110)
        #expect(abs(try #require(speed.metersPerSecond) - 15) < 0.01)
        // Out of order and same-time positions are ignored.
        speed.record(position: grid.point(east: 0, north: 5000), at: 105)
        speed.record(position: grid.point(east: 0, north: 5000), at: 110)
        #expect(abs(try #require(speed.metersPerSecond) - 15) < 0.01)
        // A 5 km jump in 10 s is a GPS glitch.
        speed.record(position: grid.point(east: 0, north: 5150), at: 120)
        #expect(abs(try #require(speed.metersPerSecond) - 15) < 0.01)
    }

    @Test func samplesInCongestionAreNotAveraged() throws {
        var speed = ObservedSpeed()
        speed.record(metersPerSecond: 14, at: 0)
        speed.record(metersPerSecond: 14, at: 30)
        speed.record(metersPerSecond: 1, at: 60, traffic: .trafficJam)
        speed.record(metersPerSecond: 3, at: 120, traffic: .slow)
        #expect(speed.metersPerSecond == 14)
        #expect(speed.lastSampleTime == 120)
    }
}
