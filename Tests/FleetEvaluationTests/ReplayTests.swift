import FleetEvaluation
import FleetGeo
import Testing

/// A straight drive east from Joensuu at a steady speed, one fix every `interval` seconds.
private func steadyDrive(metersPerSecond speed: Double, seconds: Double, interval: Double = 5, id: String = "steady") -> Drive {
    let start = GeoPoint(latitude: 62.6, longitude: 29.76)
    let fixes = stride(from: 0.0, through: seconds, by: interval).map { t in
        Fix(time: 1_700_000_000 + t, position: Geodesy.destination(from: start, bearing: 90, meters: speed * t))
    }
    return Drive(id: id, fixes: fixes)
}

struct ReplayTests {
    @Test func steadyDriveAtTheDefaultSpeedIsPredictedExactlyAlongTheRoute() {
        let speed = SpeedModel.standard.defaultMetersPerSecond(for: .auto)
        let points = ETAReplay(category: .auto).replay(steadyDrive(metersPerSecond: speed, seconds: 900))
        #expect(points.count == 180)
        for point in points {
            #expect(abs(point.estimatedSeconds - point.actualSeconds) / point.actualSeconds < 0.01, "\(point)")
            #expect(abs(point.defaultSpeedSeconds - point.actualSeconds) / point.actualSeconds < 0.01, "\(point)")
            // A straight road has no detours: the straight line times 1.3 is 30% too long.
            #expect(abs(point.straightLineSeconds / point.actualSeconds - 1.3) < 0.02, "\(point)")
        }
    }

    @Test func steadyDriveAtHalfTheDefaultSpeedIsLearntByTheEstimatorOnly() {
        let speed = SpeedModel.standard.defaultMetersPerSecond(for: .auto) / 2
        let points = ETAReplay(category: .auto).replay(steadyDrive(metersPerSecond: speed, seconds: 1_800))
        let report = AccuracyReport(replays: [points])
        // The default speed is twice the real one: every prediction is half the real time, 50% off.
        #expect(abs((report.overall[.defaultSpeed]?.medianPercent ?? 0) - 50) < 1)
        // Straight line at the observed speed: 30% too long once the speed is learnt.
        #expect(abs((report.beyondTwoMinutes[.straightLine]?.medianPercent ?? 0) - 30) < 3)
        // The estimator trusts what it sees as the minutes go by: after 15 minutes it is within 2%.
        let late = points.filter { 1_800 - $0.actualSeconds >= 900 }
        #expect(!late.isEmpty)
        for point in late {
            #expect(abs(point.estimatedSeconds - point.actualSeconds) / point.actualSeconds < 0.02, "\(point)")
        }
        #expect((report.beyondTwoMinutes[.estimator]?.medianPercent ?? 100) < (report.beyondTwoMinutes[.defaultSpeed]?.medianPercent ?? 0))
    }

    @Test func aRouterRouteIsFollowedInsteadOfThePath() {
        let speed = SpeedModel.standard.defaultMetersPerSecond(for: .auto)
        let drive = steadyDrive(metersPerSecond: speed, seconds: 600)
        // A planned route twice as long as the drive (out past the end and back): the default-speed baseline
        // doubles its answer at the start.
        let end = drive.fixes.last!.position
        let beyond = Geodesy.destination(from: end, bearing: 90, meters: speed * 300)
        let points = ETAReplay().replay(drive, along: [drive.fixes[0].position, beyond, end])
        #expect(abs(points[0].defaultSpeedSeconds / points[0].actualSeconds - 2) < 0.02)
    }

    @Test func tooShortDrivesGiveNothing() {
        #expect(ETAReplay().replay(Drive(id: "one", fixes: [Fix(time: 0, position: GeoPoint(latitude: 1, longitude: 1))])).isEmpty)
        #expect(AccuracyReport(replays: [[]]).drives == 0)
        #expect(AccuracyReport(replays: [[]]).overall[.estimator]?.medianPercent == nil)
    }

    @Test func percentilesInterpolateBetweenRanks() {
        let figures = ErrorFigures(errors: Array(stride(from: 10.0, through: 1.0, by: -1)))
        #expect(figures.count == 10)
        #expect(figures.medianPercent == 5.5)
        #expect(abs((figures.p90Percent ?? 0) - 9.1) < 1e-9)
    }

    @Test func bandsSplitByRealRemainingTime() {
        let points = [60.0, 200, 400, 700, 1500].map {
            ReplayPoint(actualSeconds: $0, estimatedSeconds: $0 * 1.1, straightLineSeconds: $0, defaultSpeedSeconds: $0 * 2)
        }
        let report = AccuracyReport(replays: [points])
        #expect(report.byBand[.estimator]?.map(\.count) == [1, 1, 1, 1, 1])
        #expect(report.beyondTwoMinutes[.estimator]?.count == 4)
        #expect(abs((report.overall[.estimator]?.medianPercent ?? 0) - 10) < 1e-9)
        #expect(report.overall[.defaultSpeed]?.p90Percent == 100)
        #expect(report.jsonMembers.hasPrefix(#""drives":1,"medianErrorPercent":10.0,"p90ErrorPercent":10.0,"points":4"#))
    }

    @Test func waitsAreCutOutOfTheClock() {
        let start = GeoPoint(latitude: 62.6, longitude: 29.76)
        let moved = Geodesy.destination(from: start, bearing: 90, meters: 100)
        let end = Geodesy.destination(from: start, bearing: 90, meters: 200)
        // 10 s to drive 100 m, 60 s standing (two fixes), 10 s more to the end.
        let drive = Drive(id: "wait", fixes: [
            Fix(time: 0, position: start), Fix(time: 10, position: moved), Fix(time: 40, position: moved),
            Fix(time: 70, position: moved), Fix(time: 80, position: end),
        ])
        let cut = drive.withoutWaits()
        #expect(cut.fixes.map(\.time) == [0, 10, 20])
        #expect(cut.fixes.map(\.position) == [start, moved, end])
    }

    @Test func gpsJumpsAreDropped() {
        let start = GeoPoint(latitude: 62.6, longitude: 29.76)
        let drive = Drive(id: "jump", fixes: [
            Fix(time: 0, position: start),
            Fix(time: 2, position: Geodesy.destination(from: start, bearing: 0, meters: 1_500)),
            Fix(time: 4, position: Geodesy.destination(from: start, bearing: 90, meters: 30)),
            Fix(time: 4, position: Geodesy.destination(from: start, bearing: 90, meters: 31)),
        ])
        #expect(drive.withoutJumps().fixes.map(\.time) == [0, 4])
    }

    @Test func simulatedDrivesAreSeededAndStopAtLights() {
        let drives = SimulatedDrives().drives(count: 5, seed: 7)
        #expect(drives == SimulatedDrives().drives(count: 5, seed: 7))
        #expect(drives != SimulatedDrives().drives(count: 5, seed: 8))
        #expect(drives.count == 5)
        for drive in drives {
            #expect(drive.fixes.count > 20)
            // Waits make the drive slower on average than its slowest cruising speed would.
            #expect(drive.withoutWaits().durationSeconds < drive.durationSeconds)
        }
    }

    @Test func evaluationLeavesOutWalks() {
        let walk = steadyDrive(metersPerSecond: 1.3, seconds: 600, id: "walk")
        let car = steadyDrive(metersPerSecond: 10, seconds: 600, id: "car")
        let evaluation = ETAEvaluation(minimumAverageMetersPerSecond: 20 / 3.6)
        #expect(evaluation.selected([walk, car]).map(\.id) == ["car"])
        #expect(evaluation.evaluate([walk, car]).asDriven.drives == 1)
    }

    /// 600 s east at `speed`, 300 s standing, 600 s more: a bus at a long stop half way.
    private func driveWithAWait(metersPerSecond speed: Double) -> Drive {
        let start = GeoPoint(latitude: 62.6, longitude: 29.76)
        let fixes = stride(from: 0.0, through: 1_500, by: 5).map { t in
            let driven = speed * (t < 600 ? t : t < 900 ? 600 : t - 300)
            return Fix(time: 1_700_000_000 + t, position: Geodesy.destination(from: start, bearing: 90, meters: driven))
        }
        return Drive(id: "wait", fixes: fixes)
    }

    @Test func hindsightIsExactOnASteadyDriveButNotWhereTheWaitFalls() {
        let steady = ETAReplay().replay(steadyDrive(metersPerSecond: 6, seconds: 900))
        for point in steady {
            #expect(abs(point.hindsightSeconds - point.actualSeconds) / point.actualSeconds < 0.01, "\(point)")
        }
        // The drive's average (7,200 m in 1,500 s) spreads the 300 s wait over the whole route: right at the start,
        // too short before the stop (the wait is still ahead and only partly counted), too long after it.
        let points = ETAReplay().replay(driveWithAWait(metersPerSecond: 6))
        let report = AccuracyReport(replays: [points])
        #expect(abs(points[0].hindsightSeconds - points[0].actualSeconds) < 1)
        let afterTheWait = points.first { $0.watchedSeconds == 905 }!
        // 595 s of driving left, said at the average speed (route 7,200 m in 1,500 s): 3,570 m / 4.8 m/s = 744 s.
        #expect(abs(afterTheWait.hindsightSeconds - 743.75) < 1)
        #expect((report.beyondTwoMinutes[.hindsight]?.p90Percent ?? 0) > 10)
        #expect(report.jsonMembers.contains(#""hindsight":{"medianErrorPercent":"#))
    }

    @Test func phasesSplitTheEnginesErrorByWatchedTimeAndStanding() {
        let points = ETAReplay().replay(driveWithAWait(metersPerSecond: 6))
        let report = AccuracyReport(replays: [points])
        #expect(report.phases.map(\.name) == ["watched < 3 min", "watched ≥ 3 min", "standing", "moving"])
        // One fix every 5 s, 1,500 s: fixes at 0…175 s are in the first three minutes (36), the rest more than
        // two minutes out (up to 1,375 s) after them; the fixes at 605…900 s stood since the previous one (60).
        #expect(report.phases[0].figures.count == 36)
        #expect(report.phases[1].figures.count == (1_375 - 180) / 5 + 1)
        #expect(report.phases[2].figures.count == 60)
        #expect(report.phases[2].figures.count + report.phases[3].figures.count == report.beyondTwoMinutes[.estimator]?.count)
        // 6 m/s is about half AUTO's default: in the first minutes the default still weighs and the estimate is too
        // short (signed error negative).
        #expect((report.phases[0].medianSignedPercent ?? 0) < -10)
        let table = report.table(title: "t")
        #expect(table.contains("where the engine's error comes from"))
        #expect(table.contains("standing"))
        #expect(report.jsonMembers.contains(#""phases":[{"name":"watched < 3 min","#))
    }
}
