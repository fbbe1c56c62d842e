import FleetEvaluation
import FleetGeo
import FleetLearning
import Testing

/// A straight drive east from Joensuu at `speed`, one fix every 5 s, leaving at `time`.
private func drive(_ id: String, metersPerSecond speed: Double, seconds: Double, leaving time: Double = 1_700_000_000) -> Drive {
    let start = GeoPoint(latitude: 62.6, longitude: 29.76)
    return Drive(id: id, fixes: stride(from: 0.0, through: seconds, by: 5).map { t in
        Fix(time: time + t, position: Geodesy.destination(from: start, bearing: 90, meters: speed * t))
    })
}

/// A straight drive east at 8 m/s, one fix every 5 s, that stands `wait` seconds halfway along its 4.8 km.
private func drive(_ id: String, waiting wait: Double, leaving time: Double) -> Drive {
    let start = GeoPoint(latitude: 62.6, longitude: 29.76)
    return Drive(id: id, fixes: stride(from: 0.0, through: 600 + wait, by: 5).map { t in
        let moving = t < 300 ? t : max(300, t - wait)
        return Fix(time: time + t, position: Geodesy.destination(from: start, bearing: 90, meters: 8 * moving))
    })
}

struct HistoryTests {
    @Test func theBoundKnowingTheWaitsAheadLeavesOnlyTheMovingTimes() {
        // History stood 60 s halfway; the judged drive stands 240 s there. The learned estimate expects 60 s; the
        // bound, told the 240 s still ahead, is left with the moving times, which history got right.
        let past = drive("past", waiting: 60, leaving: 1_700_000_000 - 86_400 * 7)
        let today = drive("today", waiting: 240, leaving: 1_700_000_000)
        let report = ETAEvaluation().evaluate([today], history: [past]).asDriven
        #expect(report.predictors.contains(.learnedWaitsKnown))
        #expect((report.beyondTwoMinutes[.learned]?.medianPercent ?? 0) > 10)
        #expect((report.beyondTwoMinutes[.learnedWaitsKnown]?.medianPercent ?? 100) < 5)
        #expect(report.jsonMembers.contains(#""learnedWaitsKnown":{"medianErrorPercent":"#))
    }

    @Test func eachPointTellsHowLateTheDriveRunsAgainstWhatWasLearned() {
        // History stood 60 s halfway, this drive 240 s: before the wait it keeps to the learned times, after it it
        // runs the 180 s more it stood late, and has stood 240 s.
        let past = drive("past", waiting: 60, leaving: 1_700_000_000 - 86_400 * 7)
        let today = drive("today", waiting: 240, leaving: 1_700_000_000)
        let points = ETAEvaluation().evaluate([today], history: [past]).asDriven.replays.joined()
        let before = points.filter { $0.watchedSeconds > 60 && $0.watchedSeconds < 280 }
        let after = points.filter { $0.watchedSeconds > 560 }
        #expect(!before.isEmpty && !after.isEmpty)
        for point in before {
            #expect(abs(point.watchedSeconds - (point.learnedDrivenSeconds ?? .infinity)) < 15)
            #expect(point.stoodSeconds == 0)
        }
        for point in after {
            #expect(abs(point.watchedSeconds - (point.learnedDrivenSeconds ?? .infinity) - 180) < 20)
            #expect(abs(point.stoodSeconds - 240) <= 5)
            #expect((point.learnedWaitsAheadSeconds ?? .infinity) < 1)
            #expect(abs(point.routeMeters - 4800) < 10 && point.travelledMeters > 2400)
        }
        #expect(ETAEvaluation().evaluate([today]).asDriven.replays.joined().allSatisfy { $0.learnedDrivenSeconds == nil })
    }

    @Test func theLearnedEstimateTimesTheWayAsHistoryDroveIt() {
        // History drove this road at 8 m/s; the judged drive does too, while the default speed is 11 m/s.
        let past = drive("past", metersPerSecond: 8, seconds: 900, leaving: 1_700_000_000 - 86_400 * 7)
        let today = drive("today", metersPerSecond: 8, seconds: 900)
        let report = ETAEvaluation().evaluate([today], history: [past]).asDriven
        #expect(report.headline == .learned)
        #expect(report.predictors.contains(.plainHistory))
        #expect((report.beyondTwoMinutes[.learned]?.medianPercent ?? 100) < 3)
        #expect((report.beyondTwoMinutes[.plainHistory]?.medianPercent ?? 100) < 3)
        // Without history the engine starts from the default speed and is far off in the first minutes.
        #expect((report.beyondTwoMinutes[.estimator]?.p90Percent ?? 0) > 10)
        #expect(report.jsonMembers.contains(#""withoutHistory":{"#))
        #expect(report.jsonMembers.contains(#""etaAccuracyBenchmark":{"meanPercent":"#))
    }

    @Test func crossValidationNeverJudgesADriveWithWhatItTaught() {
        // Two drives of one road, one at 6 m/s and one at 12 m/s: each judged by the other is 100% or 50% off at
        // every point; judged by itself it would be exact.
        let slow = drive("slow", metersPerSecond: 6, seconds: 1_200)
        let fast = drive("fast", metersPerSecond: 12, seconds: 600, leaving: 1_700_000_000 + 60)
        let report = ETAEvaluation().crossValidate([slow, fast]).asDriven
        let learned = report.beyondTwoMinutes[.learned]
        #expect((learned?.count ?? 0) > 100)
        // The live pace just ahead pulls a little towards the truth; the rest is the other drive's pace.
        #expect((learned?.medianPercent ?? 0) > 35)
    }

    @Test func withoutHistoryTheReportIsAsBefore() {
        let report = ETAEvaluation().evaluate([drive("only", metersPerSecond: 10, seconds: 600)]).asDriven
        #expect(report.headline == .estimator)
        #expect(!report.predictors.contains(.learned) && !report.jsonMembers.contains("withoutHistory"))
        #expect(!report.predictors.contains(.learnedWaitsKnown) && !report.jsonMembers.contains("learnedWaitsKnown"))
    }

    @Test func theETAAccuracyBenchmarkCountsArrivalsInsideEachWindow() {
        // Predicted 120 s: accurate when the vehicle arrives at most 30 s earlier or 90 s later than that.
        let score = ETAAccuracyScore([(120, 100), (120, 205), (120, 80), (300, 400), (300, 470), (500, 600)])
        #expect(score.windowCounts == [3, 2, 1, 0])
        #expect(score.windowPercents[0].map { abs($0 - 200.0 / 3) < 1e-9 } == true)
        #expect(score.windowPercents[1] == 50 && score.windowPercents[2] == 100 && score.windowPercents[3] == nil)
        #expect(abs((score.meanPercent ?? 0) - (200.0 / 3 + 50 + 100) / 3) < 1e-9)
    }

    @Test func aSimulatedTownIsSeededAndItsDrivesShareStreets() {
        let town = SimulatedTown(townSeed: 3)
        let drives = town.drives(count: 20, seed: 4)
        #expect(drives == town.drives(count: 20, seed: 4) && drives != town.drives(count: 20, seed: 5))
        var times = RoadTimes()
        for drive in drives { DriveLearner().learn(drive.fixes, into: &times) }
        // Twenty drives through a 12 × 12 grid cross some pieces more than once.
        #expect(times.pieces.values.contains { $0.total.passes >= 2 })
        // The same street is slower in the rush hour than at noon, on a weekday.
        #expect(SimulatedTown.isRushHour(1_699_833_600 + 8 * 3600) && !SimulatedTown.isRushHour(1_699_833_600 + 12 * 3600))
        #expect(!SimulatedTown.isRushHour(1_699_833_600 + 5 * 86_400 + 8 * 3600))
    }
}
