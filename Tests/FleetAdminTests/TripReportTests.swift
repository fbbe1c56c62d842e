import FleetGeo
import FleetInterface
import FleetModel
import FleetOperator
import Testing

/// `TripReport`'s sums over a trip's points, as `fleet-admin trips report` prints them.
struct TripReportTests {
    /// A point `meters` east of (60, 25) at `seconds`.
    private static func point(_ seconds: Int64, east meters: Double, speed: Double? = nil) -> PositionRecord {
        PositionRecord(vehicleID: "car-1", time: Timestamp(seconds: 1_800_000_000 + seconds, nanos: 0), latitude: 60,
                       longitude: 25 + meters / (111_320 * 0.5), speedMetersPerSecond: speed, tripIDs: ["trip-1"])
    }

    @Test func distanceDurationStandingAndTopSpeedAddUp() {
        var report = TripReport(tripID: "trip-1")
        for point in [Self.point(0, east: 0), Self.point(10, east: 100), Self.point(40, east: 101), Self.point(50, east: 301)] {
            report.add(point)
        }
        #expect(report.points == 4)
        #expect(abs(report.distanceMeters - 301) < 1, "\(report.distanceMeters)")
        #expect(report.durationSeconds == 50)
        // 1 m in 30 s is standing; the others moved at 10 and 20 m/s.
        #expect(report.standingSeconds == 30)
        #expect(abs(report.topMetersPerSecond - 20) < 0.1, "\(report.topMetersPerSecond)")
        #expect(abs(report.averageMetersPerSecond - 301.0 / 50) < 0.1)
    }

    @Test func reportedSpeedsGiveTheTopSpeed() {
        var report = TripReport(tripID: "trip-1")
        for point in [Self.point(0, east: 0, speed: 3), Self.point(10, east: 100, speed: 12), Self.point(20, east: 200, speed: 9)] {
            report.add(point)
        }
        #expect(report.topMetersPerSecond == 12)
    }

    /// A device whose speeds read low, or points sorted by a clock that ran out of order (the path
    /// between them zigzags): the top speed is still at least the average.
    @Test func theTopSpeedIsNeverBelowTheAverage() {
        var low = TripReport(tripID: "trip-1")
        for point in [Self.point(0, east: 0, speed: 2), Self.point(10, east: 100, speed: 2), Self.point(20, east: 200, speed: 2)] {
            low.add(point)
        }
        #expect(abs(low.averageMetersPerSecond - 10) < 0.1)
        #expect(low.topMetersPerSecond >= low.averageMetersPerSecond)

        var zigzag = TripReport(tripID: "trip-1")
        for point in [Self.point(0, east: 0, speed: 5), Self.point(10, east: 200, speed: 5), Self.point(11, east: 50, speed: 5),
                      Self.point(20, east: 250, speed: 5)] {
            zigzag.add(point)
        }
        #expect(zigzag.averageMetersPerSecond > 5)
        #expect(zigzag.topMetersPerSecond == zigzag.averageMetersPerSecond)
    }
}
