#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FleetGeo
@testable import FleetLearning
import Testing

/// Monday 2026-01-26 00:00 UTC.
private let monday = 1_769_385_600.0
private let start = GeoPoint(latitude: 53.43, longitude: -2.95)

/// Fixes of a drive east from `start`: `speed` m/s for `meters`, one fix every `interval` s, standing
/// `standSeconds` at `standAt` metres.
private func driveEast(from time: Double, speed: Double, meters: Double, interval: Double = 5,
                       standAt: Double? = nil, standSeconds: Double = 0) -> [Fix] {
    var fixes: [Fix] = []
    var t = time, at = 0.0
    var stood = false
    while at < meters {
        fixes.append(Fix(time: t, position: Geodesy.destination(from: start, bearing: 90, meters: at)))
        if let standAt, !stood, at >= standAt {
            stood = true
            t += standSeconds
            fixes.append(Fix(time: t, position: Geodesy.destination(from: start, bearing: 90, meters: at)))
        }
        t += interval
        at += speed * interval
    }
    fixes.append(Fix(time: t - interval + (meters - (at - speed * interval)) / speed,
                     position: Geodesy.destination(from: start, bearing: 90, meters: meters)))
    return fixes
}

struct RoadPieceTests {
    @Test func pointsOfOneSquareAndDirectionShareAPieceAndTheOtherDirectionDoesNot() {
        let a = RoadPiece(at: start, bearing: 90)
        let near = RoadPiece(at: Geodesy.destination(from: start, bearing: 0, meters: 0.5), bearing: 95)
        #expect(a.heading == 2)
        #expect(a == RoadPiece(at: start, bearing: 80) || a == near)
        #expect(a != RoadPiece(at: start, bearing: 270))
        #expect(RoadPiece(at: Geodesy.destination(from: start, bearing: 90, meters: 120), bearing: 90) != a)
        #expect(RoadPiece(Substring(a.description)) == a)
        #expect(RoadPiece("1:2") == nil && RoadPiece("1:2:8") == nil)
        #expect(Geodesy.distance(a.centre, start) < RoadPiece.sizeMeters)
        #expect(a.neighbours.count == 8 && !a.neighbours.contains(a))
    }

    @Test func slotsOfTheWeekStartOnMondayInLocalTime() {
        #expect(WeekSlot(epochSeconds: monday).index == 0)
        #expect(WeekSlot(epochSeconds: monday + 17 * 3600 + 10).name == "Mon 17:00")
        #expect(WeekSlot(epochSeconds: monday - 1).name == "Sun 23:45")
        #expect(WeekSlot(epochSeconds: monday, utcOffsetSeconds: 3600).name == "Mon 01:00")
        #expect(WeekSlot(index: 0).distance(to: WeekSlot(index: 671)) == 1)
    }
}

struct DriveLearnerTests {
    @Test func aSteadyDriveTeachesItsPaceOnEveryPiece() {
        var times = RoadTimes()
        DriveLearner().learn(driveEast(from: monday + 12 * 3600, speed: 10, meters: 1_000), into: &times)
        #expect(times.extent.pieces >= 20)
        let slot = WeekSlot(epochSeconds: monday + 12 * 3600)
        for row in times.rows {
            #expect(abs(row.tally.seconds / row.tally.meters - 0.1) < 0.005, "\(row)")
            #expect(row.tally.passes == 1 && row.tally.waits == 0)
        }
        let middle = RoadPiece(at: Geodesy.destination(from: start, bearing: 90, meters: 500), bearing: 90)
        #expect(abs((times.pace(middle, slot: slot)?.secondsPerMeter ?? 0) - 0.1) < 0.005)
        #expect(times.pace(RoadPiece(at: start, bearing: 0), slot: slot) == nil)
    }

    @Test func aWaitStaysWhereTheVehicleStood() {
        var times = RoadTimes()
        DriveLearner().learn(driveEast(from: monday, speed: 10, meters: 1_000, standAt: 500, standSeconds: 90), into: &times)
        let waited = times.rows.filter { $0.tally.waits > 0 }
        #expect(waited.count == 1)
        let stop = try! #require(waited.first)
        #expect(abs(stop.tally.waitSeconds - 90) < 1)
        #expect(Geodesy.distance(stop.piece.centre, Geodesy.destination(from: start, bearing: 90, meters: 500)) < 60)
        #expect(stop.tally.seconds > 90)
        #expect(times.waits(on: stop.piece)?.chance == 1)
        #expect(abs((times.waits(on: stop.piece)?.meanSeconds ?? 0) - 90) < 1)
        let total = times.rows.reduce(0) { $0 + $1.tally.seconds }
        #expect(abs(total - 190) < 1)
    }

    @Test func aVeryLongWaitCountsOnlyUpToTheCap() {
        var times = RoadTimes()
        let learner = DriveLearner()
        learner.learn(driveEast(from: monday, speed: 10, meters: 1_000, standAt: 500, standSeconds: 480), into: &times)
        let stop = try! #require(times.rows.first { $0.tally.waits > 0 })
        #expect(abs(stop.tally.waitSeconds - learner.maximumWaitSeconds) < 1)
        let total = times.rows.reduce(0) { $0 + $1.tally.seconds }
        #expect(abs(total - (100 + learner.maximumWaitSeconds)) < 1)
    }

    @Test func longSilencesAndJumpsSplitDrives() {
        var fixes = driveEast(from: monday, speed: 10, meters: 500)
        let later = driveEast(from: fixes.last!.time + 3_600, speed: 10, meters: 500)
        fixes += later
        var times = RoadTimes()
        DriveLearner().learn(fixes, into: &times)
        // Nothing is learned for the hour between the two drives: every piece keeps 0.1 s/m.
        #expect(times.rows.allSatisfy { abs($0.tally.seconds / $0.tally.meters - 0.1) < 0.01 })
    }
}

struct SmoothingTests {
    @Test func passesNearInTimeOfDayWeighMostAndTablesMergeBySums() {
        var morning = RoadTimes(), noon = RoadTimes()
        DriveLearner().learn(driveEast(from: monday + 8 * 3600, speed: 5, meters: 1_000), into: &morning)
        DriveLearner().learn(driveEast(from: monday + 12 * 3600, speed: 10, meters: 1_000), into: &noon)
        var both = morning
        both.merge(noon)
        #expect(both.extent.passes == morning.extent.passes + noon.extent.passes)
        let piece = RoadPiece(at: Geodesy.destination(from: start, bearing: 90, meters: 500), bearing: 90)
        let atEight = try! #require(both.pace(piece, slot: WeekSlot(epochSeconds: monday + 8 * 3600)))
        let atNoon = try! #require(both.pace(piece, slot: WeekSlot(epochSeconds: monday + 12 * 3600)))
        let atNight = try! #require(both.pace(piece, slot: WeekSlot(epochSeconds: monday + 2 * 3600)))
        #expect(atEight.secondsPerMeter > atNight.secondsPerMeter && atNight.secondsPerMeter > atNoon.secondsPerMeter)
        #expect(atEight.secondsPerMeter < 0.2 && atNoon.secondsPerMeter > 0.1)
        // Far from both in time, only the all-week figure speaks: the mean pace of the two.
        #expect(abs(atNight.secondsPerMeter - 0.15) < 0.001 && atNight.evidence == 0)
        // The same time on another weekday weighs, but less than on the same weekday.
        let tuesday = try! #require(both.pace(piece, slot: WeekSlot(epochSeconds: monday + 86_400 + 8 * 3600)))
        #expect(tuesday.secondsPerMeter < atEight.secondsPerMeter && tuesday.secondsPerMeter > atNight.secondsPerMeter)
    }

    @Test func aPassWeighsByTheMetresItDroveAcrossThePiece() throws {
        // Two whole crossings at 0.1 s/m at eight, and a quarter hour later a pass that clipped the square's corner
        // for 5 m, standing 10 s there (2.2 s/m).
        let piece = RoadPiece(at: start, bearing: 90)
        let slot = WeekSlot(epochSeconds: monday + 8 * 3600)
        var times = RoadTimes()
        times.add(PieceTally(seconds: 10, meters: 50, passes: 2), on: piece, in: slot)
        times.add(PieceTally(seconds: 11, meters: 5, passes: 1, waits: 1, waitSeconds: 10), on: piece,
                  in: WeekSlot(epochSeconds: monday + 8 * 3600 + 900))
        let pace = try #require(times.pace(piece, slot: slot))
        // Seconds over metres, the clipped pass at the kernel's weight a quarter hour away, and the all-week figure
        // (21 s over 55 m) one pass of the mean length weighed.
        let kernel = exp(-0.5 * 0.25)
        let passes = 2 + kernel, seconds = 10 + kernel * 11, meters = 50 + kernel * 5
        let priorMeters = meters / passes
        #expect(abs(pace.secondsPerMeter - (seconds + priorMeters * 21 / 55) / (meters + priorMeters)) < 1e-12)
        #expect(pace.evidence == passes)
        // 0.37 s/m: near the whole crossings' pace, where a mean of the passes' paces would say 0.65 s/m.
        #expect(pace.secondsPerMeter < 0.4)
        let entry = try #require(times.entry(near: piece))
        let table = try #require(times.paceTable(of: entry))
        #expect(table.secondsPerMeter(at: slot) == pace.secondsPerMeter)
    }
}

struct LearnedRouteTests {
    /// Seconds along `route` with a fresh plan each call.
    func seconds(_ route: LearnedRoute, from: Double, to targets: [Double], times: RoadTimes, live: Double? = nil,
                 fallback: Double = 1) -> [Double] {
        var timing: LearnedTiming? = nil
        return route.seconds(from: from, to: targets, now: monday, times: times, generation: 0, liveSecondsPerMeter: live,
                             fallbackSecondsPerMeter: fallback, timing: &timing)
    }

    @Test func aRouteOverLearnedRoadsIsTimedAsLearnedAndElsewhereAtTheFallback() {
        var times = RoadTimes()
        DriveLearner().learn(driveEast(from: monday, speed: 10, meters: 2_000), into: &times)
        let east = Route(points: [start, Geodesy.destination(from: start, bearing: 90, meters: 2_000)])!
        let learned = LearnedRoute(route: east)
        #expect(learned.stretches.first?.startMeters == 0 && learned.stretches.last?.endMeters == east.totalMeters)
        let answer = seconds(learned, from: 0, to: [1_000, east.totalMeters], times: times)
        #expect(abs(answer[0] - 100) < 2 && abs(answer[1] - 200) < 3)
        // Targets behind the vehicle answer 0; past the route's end, the fallback pace.
        #expect(seconds(learned, from: 1_500, to: [1_000, east.totalMeters], times: times)[0] == 0)
        #expect(abs(seconds(learned, from: 0, to: [east.totalMeters + 100], times: times)[0] - 300) < 3)
        // Northwards nothing is learned: the fallback pace times the whole way.
        let north = LearnedRoute(route: Route(points: [start, Geodesy.destination(from: start, bearing: 0, meters: 1_000)])!)
        #expect(abs(seconds(north, from: 0, to: [1_000], times: times, fallback: 0.2)[0] - 200) < 1)
        // The live pace weighs just ahead: a vehicle crawling at 1 m/s adds time over the first 250 m only.
        let crawling = seconds(learned, from: 0, to: [east.totalMeters], times: times, live: 1)[0]
        let extra = crawling - answer[1]
        #expect(abs(extra - 0.25 * 250 * 0.9) < 5, "\(extra)")
        // A target inside the blended stretch gets its share.
        let near = seconds(learned, from: 0, to: [100], times: times, live: 1)[0]
        #expect(near > 10 && near < 100 * (0.5 * 1 + 0.5 * 0.1) + 1, "\(near)")
    }

    @Test func aPlanIsKeptWhileTheVehicleKeepsToItAndMadeAnewOtherwise() {
        var times = RoadTimes()
        DriveLearner().learn(driveEast(from: monday, speed: 10, meters: 2_000), into: &times)
        let learned = LearnedRoute(route: Route(points: [start, Geodesy.destination(from: start, bearing: 90, meters: 2_000)])!)
        var timing: LearnedTiming? = nil
        _ = learned.seconds(from: 0, to: [2_000], now: monday, times: times, generation: 1, liveSecondsPerMeter: nil,
                            fallbackSecondsPerMeter: 1, timing: &timing)
        let first = timing?.departure
        // 50 s later, 500 m on: on plan.
        let onPlan = learned.seconds(from: 500, to: [2_000], now: monday + 50, times: times, generation: 1,
                                     liveSecondsPerMeter: nil, fallbackSecondsPerMeter: 1, timing: &timing)
        #expect(timing?.departure == first && abs(onPlan[0] - 150) < 3)
        // An hour late: a new plan from here.
        _ = learned.seconds(from: 600, to: [2_000], now: monday + 3_600, times: times, generation: 1,
                            liveSecondsPerMeter: nil, fallbackSecondsPerMeter: 1, timing: &timing)
        #expect(timing?.departure == monday + 3_600)
        // Newer tables: a new plan too.
        _ = learned.seconds(from: 700, to: [2_000], now: monday + 3_610, times: times, generation: 2,
                            liveSecondsPerMeter: nil, fallbackSecondsPerMeter: 1, timing: &timing)
        #expect(timing?.departure == monday + 3_610)
    }
}

struct PaceTableTests {
    /// Drives east on several weekdays, at several speeds, round midnight and the rush hour, one with a wait: pieces
    /// with passes in many slots, some near the day's ends.
    func learnedAtManyTimes() -> RoadTimes {
        var times = RoadTimes()
        let starts: [(day: Double, hour: Double, speed: Double)] = [
            (0, 0.1, 12), (0, 8, 5), (0, 8.3, 6), (1, 8.1, 4), (2, 12, 10), (3, 17.5, 3), (4, 23.8, 11), (6, 23.9, 9), (5, 3, 14),
        ]
        for (index, start) in starts.enumerated() {
            DriveLearner().learn(driveEast(from: monday + start.day * 86_400 + start.hour * 3600, speed: start.speed,
                                           meters: 1_500, standAt: index == 3 ? 700 : nil, standSeconds: 60), into: &times)
        }
        // A piece westwards passed at every hour of the day, each on another weekday, at paces varying by hour, and at
        // every quarter hour of Monday's rush: every time of day has passes near it, some many on one weekday.
        let busy = RoadPiece(at: start, bearing: 270)
        for hour in 0..<24 {
            times.add(PieceTally(seconds: Double(5 + hour % 7), meters: 50, passes: Double(1 + hour % 3)), on: busy,
                      in: WeekSlot(index: (hour % 7) * WeekSlot.perDay + hour * 4 + hour % 4))
        }
        for quarter in 28..<38 {
            times.add(PieceTally(seconds: 3 + Double(quarter % 5) * 1.7, meters: 47.3, passes: Double(1 + quarter % 4)), on: busy,
                      in: WeekSlot(index: quarter))
        }
        return times
    }

    /// The definition, written out: every slot's passes, seconds and metres weigh by a Gaussian (half-hour bandwidth,
    /// nothing beyond three) of the distance in time of day, half on another weekday; the pace is their seconds over
    /// their metres, the all-week figure adding one pass of their mean length.
    func definedPace(_ entry: RoadTimes.Piece, at slot: WeekSlot) -> Double {
        var passes = 0.0, seconds = 0.0, meters = 0.0
        for other in entry.slots where other.tally.meters > 0 {
            let apart = abs(other.index % 96 - slot.slotOfDay)
            let distance = Double(min(apart, 96 - apart))
            guard distance <= 6 else { continue }
            let w = exp(-0.5 * pow(distance / 2, 2)) * (other.index / 96 == slot.weekday ? 1 : 0.5)
            passes += w * other.tally.passes
            seconds += w * other.tally.seconds
            meters += w * other.tally.meters
        }
        let priorMeters = passes > 0 ? meters / passes : RoadPiece.sizeMeters
        return (seconds + priorMeters * entry.total.seconds / entry.total.meters) / (meters + priorMeters)
    }

    @Test func aPiecesTableGivesTheSmoothedPaceToTheLastBitAtEverySlot() throws {
        let times = learnedAtManyTimes()
        #expect(times.extent.pieces >= 25)
        #expect(times.extent.rows > 3 * times.extent.pieces)
        for (piece, entry) in times.pieces {
            let table = try #require(times.paceTable(of: entry))
            #expect(table.allWeekSecondsPerMeter == times.allWeekPace(piece)?.secondsPerMeter)
            for index in 0..<WeekSlot.count {
                let slot = WeekSlot(index: index)
                let direct = try #require(times.pace(piece, slot: slot)).secondsPerMeter
                #expect(table.secondsPerMeter(at: slot) == direct, "\(piece) at \(slot.name)")
                #expect(abs(direct - definedPace(entry, at: slot)) <= 1e-12 * direct, "\(piece) at \(slot.name)")
            }
        }
    }

    @Test func precomputedTablesAreKeptUntilAPieceLearnsMore() throws {
        var times = learnedAtManyTimes()
        #expect(times.pieces.values.allSatisfy { $0.paces == nil })
        let unsmoothed = times.pieces
        times.precomputePaces()
        #expect(times.pieces.values.allSatisfy { $0.paces != nil })
        // The tables derive from the tallies: equal tallies are equal pieces.
        #expect(times.pieces == unsmoothed)
        let (piece, entry) = try #require(times.pieces.first)
        let slot = WeekSlot(epochSeconds: monday + 8 * 3600)
        let kept = try #require(entry.paces)
        #expect(times.paceTable(of: entry) === kept)
        #expect(kept.secondsPerMeter(at: slot) == times.pace(piece, slot: slot)?.secondsPerMeter)
        // A new pass drops that piece's table, and the pace moves.
        times.add(PieceTally(seconds: 100, meters: 10, passes: 1), on: piece, in: slot)
        #expect(times.pieces[piece]?.paces == nil)
        #expect(times.pieces.values.filter { $0.paces == nil }.count == 1)
        let fresh = try #require(times.pieces[piece].flatMap(times.paceTable(of:)))
        #expect(fresh.secondsPerMeter(at: slot) == times.pace(piece, slot: slot)?.secondsPerMeter)
        #expect(fresh.secondsPerMeter(at: slot) > kept.secondsPerMeter(at: slot))
    }

    @Test func precomputedLookupsAnswerThePieceOrItsBusiestNeighbourAsEntryNearDoes() throws {
        var times = learnedAtManyTimes()
        // Every learned piece, every square around each, and a few squares two away (nothing learned near them).
        var probes: Set<RoadPiece> = []
        for piece in times.pieces.keys {
            for dn in -2...2 {
                for de in -2...2 {
                    probes.insert(RoadPiece(east: piece.east + Int32(de), north: piece.north + Int32(dn), heading: piece.heading))
                }
            }
        }
        let plain = times
        times.precomputePaces()
        var neighbours = 0, none = 0
        for probe in probes {
            let expected = plain.entry(near: probe).flatMap(plain.paceTable(of:))
            let found = times.paceTable(near: probe)
            #expect((found == nil) == (expected == nil), "\(probe)")
            if let found, let expected {
                #expect(found === times.entry(near: probe)?.paces, "the kept table of the same entry: \(probe)")
                #expect(found.allWeekSecondsPerMeter == expected.allWeekSecondsPerMeter, "\(probe)")
            }
            if plain.pieces[probe] == nil { if expected == nil { none += 1 } else { neighbours += 1 } }
        }
        #expect(neighbours > 10 && none > 10, "neighbours \(neighbours), none \(none)")
        // A new pass drops what was precomputed: the lookup answers the new tallies.
        let (piece, _) = try #require(times.pieces.first)
        let slot = WeekSlot(epochSeconds: monday + 8 * 3600)
        let before = try #require(times.paceTable(near: piece)).secondsPerMeter(at: slot)
        times.add(PieceTally(seconds: 100, meters: 10, passes: 1), on: piece, in: slot)
        let after = try #require(times.paceTable(near: piece)).secondsPerMeter(at: slot)
        #expect(after == times.pace(piece, slot: slot)?.secondsPerMeter)
        #expect(after > before)
    }

    @Test func aPlanTimesEachStretchWithItsPieceAtTheQuarterHourItIsReached() throws {
        var times = learnedAtManyTimes()
        times.precomputePaces()
        // Eastwards over the learned road, then on north where nothing is learned, leaving Monday 07:55.
        let corner = Geodesy.destination(from: start, bearing: 90, meters: 1_500)
        let route = LearnedRoute(route: Route(points: [start, corner, Geodesy.destination(from: corner, bearing: 0, meters: 500)])!)
        let now = monday + 7 * 3600 + 55 * 60
        let fallback = 0.2
        var timing: LearnedTiming? = nil
        let answer = route.seconds(from: 0, to: [route.totalMeters], now: now, times: times, generation: 0,
                                   liveSecondsPerMeter: nil, fallbackSecondsPerMeter: fallback, timing: &timing)[0]
        // The same walk with the kernel sums of `pace`, stretch by stretch.
        var learned = 0.0, unlearned = 0.0
        for stretch in route.stretches {
            let length = stretch.endMeters - stretch.startMeters
            let slot = WeekSlot(epochSeconds: now + learned + unlearned * fallback)
            if let pace = times.pace(stretch.piece, slot: slot) { learned += length * pace.secondsPerMeter } else { unlearned += length }
        }
        #expect(unlearned > 400 && learned > 100)
        #expect(abs(answer - (learned + unlearned * fallback)) < 1e-9, "\(answer) against \(learned + unlearned * fallback)")
        // Tables not precomputed give the same plan.
        var plain: LearnedTiming? = nil
        let unprepared = route.seconds(from: 0, to: [route.totalMeters], now: now, times: learnedAtManyTimes(), generation: 0,
                                       liveSecondsPerMeter: nil, fallbackSecondsPerMeter: fallback, timing: &plain)[0]
        #expect(unprepared == answer)
    }
}
