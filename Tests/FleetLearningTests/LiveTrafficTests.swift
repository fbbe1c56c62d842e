import FleetGeo
import FleetLearning
import Testing

/// Live speeds on pieces of road, and the traffic they make on a route against the learned times.
struct LiveTrafficTests {
    /// Monday 2026-01-26 00:00 UTC.
    static let monday = 1_769_385_600.0
    /// A straight road east along 52.5°N, ~2 km.
    static let road = Route(points: (0...30).map { GeoPoint(latitude: 52.5, longitude: 13.40 + Double($0) * 0.001) })!

    /// The fixes of a drive east along the road from `fromMeters` to `toMeters` at `speed` m/s, one every 5 s.
    static func drive(from fromMeters: Double, to toMeters: Double, speed: Double, start: Double) -> [Fix] {
        stride(from: 0.0, through: (toMeters - fromMeters) / speed, by: 5).map {
            Fix(time: start + $0, position: road.point(atMeters: fromMeters + $0 * speed))
        }
    }

    /// The road learned at `speed` m/s at every hour of the week.
    static func learned(speed: Double) -> RoadTimes {
        var times = RoadTimes()
        for hour in stride(from: 0.0, to: 168, by: 1) {
            DriveLearner().learn(drive(from: 0, to: road.totalMeters, speed: speed, start: monday + hour * 3600), into: &times)
        }
        times.precomputePaces()
        return times
    }

    /// The live table after one vehicle drove `fixes`, fed as they arrive.
    static func live(_ fixes: [Fix]) -> LiveRoadSpeeds {
        var live = LiveRoadSpeeds()
        var vehicle = LiveDrive()
        for fix in fixes {
            vehicle.add(fix, learner: DriveLearner()) { pass in
                live.add(pass.piece, seconds: pass.tally.seconds, meters: pass.tally.meters, at: fix.time)
            }
        }
        return live
    }

    @Test func aDriveFedFixByFixGivesItsPaceOnThePiecesItCrossed() throws {
        let now = Self.monday + 10 * 3600
        let live = Self.live(Self.drive(from: 0, to: 800, speed: 4, start: now - 200))
        let piece = RoadPiece(at: Self.road.point(atMeters: 400), bearing: 90)
        let pace = try #require(live.pace(near: piece, now: now))
        #expect(abs(1 / pace - 4) < 0.2, "\(1 / pace) m/s")
        // Nothing was driven further on, nor the other way.
        #expect(live.pace(near: RoadPiece(at: Self.road.point(atMeters: 1500), bearing: 90), now: now) == nil)
        #expect(live.pace(near: RoadPiece(at: Self.road.point(atMeters: 400), bearing: 270), now: now) == nil)
        // Ten minutes later it is forgotten.
        #expect(live.pace(near: piece, now: now + 601) == nil)
    }

    @Test func standingStaysWhereTheVehicleStoodAndAFewMetresDoNotMakeAPace() throws {
        let now = Self.monday + 10 * 3600
        // Drive to 300 m, stand there 60 s (fixes a metre apart), drive on.
        var fixes = Self.drive(from: 0, to: 300, speed: 10, start: now - 300)
        var t = fixes.last!.time
        for step in 1...6 { t += 10; fixes.append(Fix(time: t, position: Self.road.point(atMeters: 300 + Double(step) * 0.5))) }
        fixes += Self.drive(from: 305, to: 700, speed: 10, start: t + 1)
        let live = Self.live(fixes)
        let stood = try #require(live.pace(near: RoadPiece(at: Self.road.point(atMeters: 302), bearing: 90), now: now))
        let drove = try #require(live.pace(near: RoadPiece(at: Self.road.point(atMeters: 550), bearing: 90), now: now))
        #expect(stood > 0.5 && abs(1 / drove - 10) < 0.5, "stood \(stood) s/m, drove \(1 / drove) m/s")
        var few = LiveRoadSpeeds()
        few.add(RoadPiece(at: Self.road.point(atMeters: 100), bearing: 90), seconds: 60, meters: 10, at: now)
        #expect(few.pace(near: RoadPiece(at: Self.road.point(atMeters: 100), bearing: 90), now: now) == nil)
    }

    @Test func thresholdsAreSharesOfTheLearnedSpeed() {
        let t = TrafficThresholds()
        // Learned 0.1 s/m (10 m/s).
        #expect(t.speed(live: 0.14, learned: 0.1) == .normal)   // 7.1 m/s: 71%
        #expect(t.speed(live: 0.16, learned: 0.1) == .slow)     // 6.25 m/s: 62%
        #expect(t.speed(live: 0.29, learned: 0.1) == .slow)     // 34%
        #expect(t.speed(live: 0.31, learned: 0.1) == .trafficJam)  // 32%
    }

    @Test func theRouteAheadIsSlowOrJammedWhereVehiclesJustDroveItSlowerThanLearned() throws {
        let times = Self.learned(speed: 10)
        let now = Self.monday + 2 * 86_400 + 17 * 3600
        // One vehicle crawled 600–1000 m at 2 m/s (a fifth of the learned speed), another drove 1200–1600 m at 5.5 m/s.
        var live = Self.live(Self.drive(from: 600, to: 1000, speed: 2, start: now - 220))
        var second = LiveDrive()
        for fix in Self.drive(from: 1200, to: 1600, speed: 5.5, start: now - 80) {
            second.add(fix, learner: DriveLearner()) { pass in
                live.add(pass.piece, seconds: pass.tally.seconds, meters: pass.tally.meters, at: fix.time)
            }
        }
        let route = RouteTrafficIndex(LearnedRoute(route: Self.road))
        let traffic = route.liveTraffic(from: 100, live: live, times: times, now: now, utcOffsetSeconds: 0)
        let jam = try #require(traffic.stretches.first { $0.speed == .trafficJam })
        let slow = try #require(traffic.stretches.first { $0.speed == .slow })
        // Within a piece (50 m) of where each drove.
        #expect(abs(jam.startMeters - 600) <= 60 && abs(jam.endMeters - 1000) <= 60, "\(jam)")
        #expect(abs(slow.startMeters - 1200) <= 60 && abs(slow.endMeters - 1600) <= 60, "\(slow)")
        #expect(traffic.stretches.count == 2, "\(traffic.stretches)")
        // 400 m at 0.5 s/m instead of 0.1: about 160 s more; the slow 400 m at 0.18 instead of 0.1: about 33 s.
        #expect(abs(traffic.extraSeconds(from: 0, to: 1100) - 160) < 25, "\(traffic.extraSeconds(from: 0, to: 1100))")
        #expect(abs(traffic.extraSeconds(from: 1100, to: 2000) - 33) < 12, "\(traffic.extraSeconds(from: 1100, to: 2000))")
        // Half the jam: half its seconds.
        let middle = (jam.startMeters + jam.endMeters) / 2
        #expect(abs(traffic.extraSeconds(from: 0, to: middle) - jam.extraSeconds / 2) < 1)
        // From past the jam, only the slow stretch is left; with nothing learned, nothing is classed.
        #expect(route.liveTraffic(from: 1100, live: live, times: times, now: now, utcOffsetSeconds: 0).stretches.map(\.speed) == [.slow])
        #expect(route.liveTraffic(from: 0, live: live, times: RoadTimes(), now: now, utcOffsetSeconds: 0).stretches.isEmpty)
        // A route far longer than what was driven lately finds the same stretches from the live side.
        let long = Route(points: (0...400).map { GeoPoint(latitude: 52.5, longitude: 13.40 + Double($0) * 0.001) })!
        let longTraffic = RouteTrafficIndex(LearnedRoute(route: long))
            .liveTraffic(from: 100, live: live, times: times, now: now, utcOffsetSeconds: 0)
        #expect(longTraffic.stretches == traffic.stretches)
        // Driven as fast as learned: normal.
        let normal = Self.live(Self.drive(from: 600, to: 1000, speed: 9, start: now - 60))
        #expect(route.liveTraffic(from: 0, live: normal, times: times, now: now, utcOffsetSeconds: 0).stretches.isEmpty)
    }

    /// Live traffic counts within the horizon only: a jam beyond it is normal, one within it is reported; the horizon
    /// is where the vehicle's plan of learned times gets it in the horizon's seconds.
    @Test func aJamBeyondTheHorizonIsNotReportedAndOneWithinItIs() throws {
        let times = Self.learned(speed: 10)
        let now = Self.monday + 2 * 86_400 + 17 * 3600
        // A vehicle crawled 1200–1600 m at 2 m/s.
        let live = Self.live(Self.drive(from: 1200, to: 1600, speed: 2, start: now - 220))
        let learned = LearnedRoute(route: Self.road)
        let route = RouteTrafficIndex(learned)
        // Learned at 10 m/s: from 100 m, a minute reaches about 700 m, two minutes about 1300 m.
        var timing: LearnedTiming? = nil
        _ = learned.seconds(from: 100, to: [learned.totalMeters], now: now, times: times, generation: 1,
                            liveSecondsPerMeter: nil, fallbackSecondsPerMeter: 0.1, timing: &timing)
        let plan = try #require(timing)
        let minute = learned.reach(seconds: 60, from: 100, timing: plan, fallbackSecondsPerMeter: 0.1)
        let twoMinutes = learned.reach(seconds: 120, from: 100, timing: plan, fallbackSecondsPerMeter: 0.1)
        #expect(abs(minute - 700) <= 60 && abs(twoMinutes - 1300) <= 60, "\(minute) m, \(twoMinutes) m")
        #expect(learned.reach(seconds: 3600, from: 100, timing: plan, fallbackSecondsPerMeter: 0.1) == learned.totalMeters)
        #expect(learned.reach(seconds: 0, from: 100, timing: plan, fallbackSecondsPerMeter: 0.1) <= 100)
        // Beyond the horizon: nothing, kept or worked out; within it: the jam, up to the horizon's stretch.
        var readings = RouteTrafficReadings()
        #expect(route.liveTraffic(from: 100, through: minute, live: live, times: times, now: now, utcOffsetSeconds: 0).stretches.isEmpty)
        #expect(route.liveTraffic(from: 100, through: minute, live: live, times: times, generation: 1, now: now,
                                  utcOffsetSeconds: 0, readings: &readings).stretches.isEmpty)
        let within = route.liveTraffic(from: 100, through: twoMinutes, live: live, times: times, generation: 1, now: now,
                                       utcOffsetSeconds: 0, readings: &readings)
        let jam = try #require(within.stretches.first)
        #expect(within.stretches.count == 1 && jam.speed == .trafficJam && abs(jam.startMeters - 1200) <= 60, "\(within.stretches)")
        #expect(jam.endMeters <= twoMinutes + RoadPiece.sizeMeters, "cut at the horizon: \(jam)")
        let whole = route.liveTraffic(from: 100, live: live, times: times, now: now, utcOffsetSeconds: 0)
        #expect(whole.stretches.count == 1 && whole.stretches[0].endMeters > jam.endMeters + 100, "\(whole.stretches)")
        #expect(within.extraSeconds(from: 100, to: 2000) < whole.extraSeconds(from: 100, to: 2000))
    }
}

/// A route's live traffic worked out again reuses what nothing changed near, and sees every change.
struct RouteTrafficReadingsTests {
    typealias T = LiveTrafficTests

    /// Reproducible numbers in [0, 1) (a linear congruential sequence).
    struct Numbers {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    /// Adds the passes of a drive east along the road, fed as they arrive.
    static func add(_ fixes: [Fix], to live: inout LiveRoadSpeeds) {
        var vehicle = LiveDrive()
        for fix in fixes {
            vehicle.add(fix, learner: DriveLearner()) { pass in
                live.add(pass.piece, seconds: pass.tally.seconds, meters: pass.tally.meters, at: fix.time)
            }
        }
    }

    @Test func nothingChangedNearTheRouteReusesEveryRunAndAPassFarAwayChangesNothing() throws {
        let times = T.learned(speed: 10)
        let now = T.monday + 2 * 86_400 + 17 * 3600
        var live = T.live(T.drive(from: 600, to: 1000, speed: 2, start: now - 220))
        let index = RouteTrafficIndex(LearnedRoute(route: T.road))
        var readings = RouteTrafficReadings()
        let first = index.liveTraffic(from: 100, live: live, times: times, generation: 1, now: now, utcOffsetSeconds: 0,
                                      readings: &readings)
        #expect(first.stretches.map(\.speed) == [.trafficJam])
        let worked = readings.runsWorkedOut
        #expect(worked > 0 && readings.runsReused == 0)

        // 30 s on, nothing new: every run is reused, the answer the same as working it out.
        let again = index.liveTraffic(from: 300, live: live, times: times, generation: 1, now: now + 30, utcOffsetSeconds: 0,
                                      readings: &readings)
        #expect(readings.runsWorkedOut == worked && readings.runsReused > 0)
        #expect(again == index.liveTraffic(from: 300, live: live, times: times, now: now + 30, utcOffsetSeconds: 0))

        // A pass 20 km away (another street) lands: still nothing to work out again on this route.
        let elsewhere = RoadPiece(at: GeoPoint(latitude: 52.7, longitude: 13.40), bearing: 90)
        live.add(elsewhere, seconds: 30, meters: 50, at: now + 40)
        let reused = readings.runsReused
        _ = index.liveTraffic(from: 300, live: live, times: times, generation: 1, now: now + 45, utcOffsetSeconds: 0,
                              readings: &readings)
        #expect(readings.runsWorkedOut == worked && readings.runsReused > reused)
    }

    @Test func aPassLandingNearTheRouteIsSeenAndOnlyItsBlockIsWorkedOutAgain() throws {
        let times = T.learned(speed: 10)
        let now = T.monday + 2 * 86_400 + 17 * 3600
        var live = T.live(T.drive(from: 600, to: 1000, speed: 2, start: now - 220))
        let index = RouteTrafficIndex(LearnedRoute(route: T.road))
        var readings = RouteTrafficReadings()
        _ = index.liveTraffic(from: 100, live: live, times: times, generation: 1, now: now, utcOffsetSeconds: 0,
                              readings: &readings)
        let worked = readings.runsWorkedOut

        // A second vehicle crawls 1500–1650 m: a new jam ahead, seen at once; the runs near the first jam are reused.
        Self.add(T.drive(from: 1500, to: 1650, speed: 1.5, start: now), to: &live)
        let later = now + 100
        let seen = index.liveTraffic(from: 100, live: live, times: times, generation: 1, now: later, utcOffsetSeconds: 0,
                                     readings: &readings)
        #expect(seen == index.liveTraffic(from: 100, live: live, times: times, now: later, utcOffsetSeconds: 0))
        #expect(seen.stretches.map(\.speed) == [.trafficJam, .trafficJam], "\(seen.stretches)")
        #expect(seen.stretches.contains { abs($0.startMeters - 1500) <= 60 })
        let again = readings.runsWorkedOut - worked
        #expect(again > 0 && again < worked, "\(again) runs worked out again of \(worked)")
        #expect(readings.runsReused > 0)

        // The same drive at the learned speed on top of the first jam: that stretch is slower than learned still,
        // but less so; the kept jam is not what comes back.
        Self.add(T.drive(from: 600, to: 1000, speed: 10, start: later), to: &live)
        let mixed = index.liveTraffic(from: 100, live: live, times: times, generation: 1, now: later + 45, utcOffsetSeconds: 0,
                                      readings: &readings)
        #expect(mixed == index.liveTraffic(from: 100, live: live, times: times, now: later + 45, utcOffsetSeconds: 0))
        #expect(mixed != seen)
    }

    @Test func passesLeavingTheWindowNewTablesAndANewQuarterHourAreSeen() throws {
        let times = T.learned(speed: 10)
        let now = T.monday + 2 * 86_400 + 17 * 3600 + 60
        let live = T.live(T.drive(from: 600, to: 1000, speed: 2, start: now - 220))
        let index = RouteTrafficIndex(LearnedRoute(route: T.road))
        var readings = RouteTrafficReadings()
        #expect(!index.liveTraffic(from: 100, live: live, times: times, generation: 1, now: now, utcOffsetSeconds: 0,
                                   readings: &readings).stretches.isEmpty)
        // Nothing added, but the crawl's first passes leave the window one by one, and then all of it.
        for later in stride(from: now + 300, through: now + 700, by: 20) {
            let kept = index.liveTraffic(from: 100, live: live, times: times, generation: 1, now: later, utcOffsetSeconds: 0,
                                         readings: &readings)
            #expect(kept == index.liveTraffic(from: 100, live: live, times: times, now: later, utcOffsetSeconds: 0), "at +\(later - now) s")
        }
        #expect(index.liveTraffic(from: 100, live: live, times: times, generation: 1, now: now + 700, utcOffsetSeconds: 0,
                                  readings: &readings).stretches.isEmpty)

        // New tables (learned slower than the crawl): no jam, though the live speeds did not change.
        let fresh = T.live(T.drive(from: 600, to: 1000, speed: 2, start: now - 220))
        _ = index.liveTraffic(from: 100, live: fresh, times: times, generation: 1, now: now, utcOffsetSeconds: 0, readings: &readings)
        let slowTimes = T.learned(speed: 1.5)
        #expect(index.liveTraffic(from: 100, live: fresh, times: slowTimes, generation: 2, now: now, utcOffsetSeconds: 0,
                                  readings: &readings).stretches.isEmpty)
        // Another time zone puts now in another quarter hour: worked out again, not reused.
        let before = readings.runsWorkedOut
        _ = index.liveTraffic(from: 100, live: fresh, times: slowTimes, generation: 2, now: now, utcOffsetSeconds: 3600,
                              readings: &readings)
        #expect(readings.runsWorkedOut > before)
    }

    /// Random passes landing on the road, in both directions and beside it, and the traffic worked out at random
    /// moments (now going back, too), with a kept reading against working it all out: the same to the last bit. Every
    /// other kept reading is lent a vehicle's plan on the route, whose learned paces it reads instead of looking
    /// them up (and every third of those a plan from other tables, which it must not read).
    @Test func keptReadingsAlwaysAnswerWhatWorkingItAllOutAnswers() {
        let times = T.learned(speed: 10)
        let learned = LearnedRoute(route: T.road)
        let index = RouteTrafficIndex(learned)
        let plan = learned.plan(from: 0, now: T.monday, times: times, model: LearnedETAModel(), generation: 7,
                                fallbackSecondsPerMeter: 0.1)
        let otherPlan = learned.plan(from: 0, now: T.monday, times: T.learned(speed: 2), model: LearnedETAModel(),
                                     generation: 6, fallbackSecondsPerMeter: 0.1)
        var numbers = Numbers(state: 0x9E37_79B9_7F4A_7C15)
        func random() -> Double { numbers.next() }
        var live = LiveRoadSpeeds()
        var readings = RouteTrafficReadings()
        var now = T.monday + 3 * 86_400 + 8 * 3600
        var compared = 0
        for _ in 0..<400 {
            now += random() * 40 - 5
            if random() < 0.6 {
                let along = random() * T.road.totalMeters
                let point = Geodesy.destination(from: T.road.point(atMeters: along), bearing: 0, meters: random() * 60 - 30)
                let piece = RoadPiece(at: point, bearing: random() < 0.8 ? 90 : 270)
                live.add(piece, seconds: 2 + random() * 40, meters: 5 + random() * 45, at: now - random() * 20)
            } else {
                let from = random() * T.road.totalMeters
                let through = random() < 0.3 ? .infinity : from + random() * 1200 - 100
                let timing = compared % 2 == 1 ? nil : compared % 3 == 0 ? otherPlan : plan
                let kept = index.liveTraffic(from: from, through: through, live: live, times: times, generation: 7, now: now,
                                             utcOffsetSeconds: 0, timing: timing, readings: &readings)
                let whole = index.liveTraffic(from: from, through: through, live: live, times: times, now: now, utcOffsetSeconds: 0)
                #expect(kept == whole, "at \(now), from \(from) m through \(through) m")
                compared += 1
            }
        }
        #expect(compared > 100 && readings.runsReused > 0 && readings.runsWorkedOut > 0)
    }

    /// A vehicle moving along the road refreshing its traffic, passes landing on and beside the road and far from it,
    /// several refreshes with nothing new (while passes leave the window), an explicit sweep, a short list of changes
    /// (so that it runs out), and the table swapped for an older copy of itself that goes its own way: every answer
    /// the same, to the last bit, as working it all out, through the changes read, the unchanged answer reused, and
    /// the full walk.
    @Test func refreshesReadingOnlyTheChangesAnswerWhatWorkingItAllOutAnswers() {
        let times = T.learned(speed: 10)
        let index = RouteTrafficIndex(LearnedRoute(route: T.road))
        var numbers = Numbers(state: 0x2545_F491_4F6C_DD1D)
        func random() -> Double { numbers.next() }
        var live = LiveRoadSpeeds()
        live.changeLogLimit = 24
        var older = live
        var readings = RouteTrafficReadings()
        var now = T.monday + 3 * 86_400 + 8 * 3600
        var from = 0.0
        var horizon = 800.0
        var compared = 0
        for _ in 0..<1500 {
            let roll = random()
            if roll < 0.35 {
                now += random() * 15
                let along = random() * T.road.totalMeters
                let point = Geodesy.destination(from: T.road.point(atMeters: along), bearing: 0, meters: random() * 60 - 30)
                let piece = RoadPiece(at: point, bearing: random() < 0.8 ? 90 : 270)
                live.add(piece, seconds: 2 + random() * 40, meters: 5 + random() * 45, at: now - random() * 20)
            } else if roll < 0.42 {
                let far = RoadPiece(at: GeoPoint(latitude: 52.7, longitude: 13.40 + random() * 0.01), bearing: 90)
                live.add(far, seconds: 30, meters: 50, at: now)
            } else if roll < 0.44 {
                live.sweep(now: now)
            } else if roll < 0.46 {
                swap(&live, &older)
            } else if roll < 0.48 {
                older = live
            } else {
                now += random() * 12 - 1
                from = random() < 0.05 ? random() * T.road.totalMeters : min(T.road.totalMeters, from + random() * 60)
                // The horizon moves with the vehicle, reaching further or less far as the pace changes, now and then
                // to the route's end.
                horizon = random() < 0.1 ? .infinity : max(0, min(1500, (horizon.isFinite ? horizon : 800) + random() * 300 - 150))
                for _ in 0..<(random() < 0.5 ? 1 : 3) {
                    let kept = index.liveTraffic(from: from, through: from + horizon, live: live, times: times, generation: 7,
                                                 now: now, utcOffsetSeconds: 0, readings: &readings)
                    let whole = index.liveTraffic(from: from, through: from + horizon, live: live, times: times, now: now,
                                                  utcOffsetSeconds: 0)
                    #expect(kept == whole, "at \(now), from \(from) m through \(from + horizon) m")
                    compared += 1
                    now += random() * 20
                }
            }
        }
        #expect(compared > 800)
        #expect(readings.callsReadingChanges > 100 && readings.callsUnchanged > 50,
                "\(readings.callsReadingChanges) calls read the changes, \(readings.callsUnchanged) unchanged")
        #expect(readings.callsReadingChanges < compared, "the full walk ran too")
    }
}
