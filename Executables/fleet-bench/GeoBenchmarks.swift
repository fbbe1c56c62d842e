import FleetGeo
import FleetLearning
import FleetRandom

/// `make bench` rows for FleetGeo: the cost of matching one location update onto routes of 100, 10,000 and
/// 100,000 points, incrementally and by full search in the same run, plus the whole per-update ETA path and the
/// polyline codec.
enum GeoBenchmarks {
    /// Runs every geo benchmark (about 20 s in a release build, most of it learning the tables) and returns one row per
    /// figure.
    static func run() -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        for size in [100, 10_000, 100_000] {
            rows += matching(pointCount: size)
        }
        // The drive covers 90 m every 10 s: learned at 9 m/s it keeps to its plan; learned at 12 m/s it falls
        // behind by 2.5 s an update and gets a new plan every 4 minutes. The three take turns, round after round.
        let learning: [(speed: Double, what: String)] = [(9.0, "keeping to the learned times"), (12.0, "25% slower than learned")]
        let paths = [UpdatePath(pointCount: 10_000, learnedMetersPerSecond: nil)]
            + learning.map { UpdatePath(pointCount: 10_000, learnedMetersPerSecond: $0.speed) }
            + [UpdatePath(pointCount: 10_000, learnedMetersPerSecond: 9, liveTraffic: true)]
        let perUpdate = nanosecondsPerCall(count: 200_000, rounds: 5, interleaving: paths.map { path in { path.update() } })
        blackHole(paths.map(\.checksum))
        let live = perUpdate[0]
        rows.append(BenchmarkRow(name: "update + ETA to 3 waypoints, 10k points", value: .nanoseconds(live),
                                 comparison: "match, observed speed, traffic, 3 ETAs"))
        for (index, learned) in learning.enumerated() {
            rows.append(BenchmarkRow(name: "update + learned ETAs, 10k points, \(learned.what)",
                                     value: .nanoseconds(perUpdate[index + 1]),
                                     comparison: "\(format(ratio: perUpdate[index + 1] / live)) the update without; aim <= 2x",
                                     ratio: perUpdate[index + 1] / live, baseline: "update + ETA to 3 waypoints, 10k points"))
        }
        let traffic = perUpdate[learning.count + 1]
        rows.append(BenchmarkRow(name: "update + learned ETAs + live traffic, 10k points, keeping to the learned times",
                                 value: .nanoseconds(traffic),
                                 comparison: "\(format(ratio: traffic / live)) the update without, \(format(ratio: traffic / perUpdate[1])) the learned ETAs alone",
                                 ratio: traffic / live, baseline: "update + ETA to 3 waypoints, 10k points"))
        rows += fleetSequence(pointCount: 10_000)
        rows.append(pacePrecomputation(pointCount: 10_000))
        rows.append(polylineCodec(pointCount: 10_000))
        return rows
    }

    /// Incremental `update` against `fullSearch` over the same drive along a winding route of `pointCount` points.
    private static func matching(pointCount: Int) -> [BenchmarkRow] {
        let route = BenchmarkRoute(pointCount: pointCount)
        let fixes = route.drive(stepMeters: 90, noiseMeters: 6)
        let label = pointCount >= 1000 ? "\(pointCount / 1000)k" : "\(pointCount)"

        // Incremental: drive the route again and again (a new RouteProgress per pass, as for a new trip).
        let updates = 300_000
        var checksum = 0.0
        var progress = RouteProgress(route: route.route)
        var next = 0
        let incremental = nanosecondsPerCall(count: updates) {
            if next == fixes.count {
                next = 0
                progress = RouteProgress(route: route.route)
            }
            checksum += progress.update(fixes[next]).travelledMeters
            next += 1
        }

        // Full search over the same fixes; fewer calls on long routes so the run stays short.
        let searches = max(200, min(100_000, 40_000_000 / pointCount))
        let searcher = RouteProgress(route: route.route)
        var index = 0
        let full = nanosecondsPerCall(count: searches) {
            checksum += searcher.fullSearch(fixes[index % fixes.count]).travelledMeters
            index += 1
        }
        blackHole(checksum)

        let ratio = full / incremental
        let aim = pointCount == 10_000 ? "; aim >= 50x, < 2 µs" : ""
        return [
            BenchmarkRow(name: "RouteProgress.update, \(label) points, incremental",
                         value: .nanoseconds(incremental),
                         comparison: "\(format(ratio: ratio)) faster than full search\(aim)",
                         ratio: ratio, baseline: "RouteProgress.fullSearch, \(label) points"),
            BenchmarkRow(name: "RouteProgress.fullSearch, \(label) points",
                         value: .nanoseconds(full), comparison: "baseline (every segment)"),
        ]
    }

    /// A fleet's updates on one 10k-point route, measured rather than counted: ten vehicles each report every 5 s,
    /// taking turns, so every update is one vehicle's while the others' passes land on the road ahead and behind
    /// (``FleetSequence``). Without learned times, with learned ETAs alone, and with learned ETAs and live traffic,
    /// taking turns round after round; the last is the engine's whole per-update cost of it: feeding the live
    /// speeds, and the route's traffic within the horizon (30 minutes ahead) worked out again at most every 30 s,
    /// reusing what nothing changed near.
    private static func fleetSequence(pointCount: Int) -> [BenchmarkRow] {
        let kinds: [FleetSequence.Kind] = [.withoutLearning, .learnedETAs, .learnedETAsAndLiveTraffic]
        let sequences = kinds.map { FleetSequence(pointCount: pointCount, kind: $0) }
        let perUpdate = nanosecondsPerCall(count: 60_000, rounds: 5, interleaving: sequences.map { sequence in { sequence.update() } })
        blackHole(sequences.map(\.checksum))
        let without = perUpdate[0]
        let baseline = "fleet of 10 on the route, every 5 s: update + ETA to 3 waypoints"
        let traffic = sequences[2]
        let reused = traffic.readings.reused, worked = traffic.readings.workedOut
        let share = reused + worked > 0 ? Double(reused) / Double(reused + worked) : 0
        return [
            BenchmarkRow(name: baseline, value: .nanoseconds(without),
                         comparison: "match, observed speed, 3 ETAs; a 2.8 km crawl and a 2.8 km slow stretch on the route"),
            BenchmarkRow(name: "fleet of 10 on the route, every 5 s: + learned ETAs", value: .nanoseconds(perUpdate[1]),
                         comparison: "\(format(ratio: perUpdate[1] / without)) the update without",
                         ratio: perUpdate[1] / without, baseline: baseline),
            BenchmarkRow(name: "fleet of 10 on the route, every 5 s: + learned ETAs + live traffic", value: .nanoseconds(perUpdate[2]),
                         comparison: "\(format(ratio: perUpdate[2] / without)) the update without; aim <= 2x; "
                             + "\(Int((share * 100).rounded()))% of runs reused on \(traffic.refreshes) refreshes",
                         ratio: perUpdate[2] / without, baseline: baseline),
        ]
    }

    /// Tables learned from one drive along `route` at `metersPerSecond` starting at every hour of the week: each
    /// piece of the route with a pass in 168 slots.
    static func learnedEveryHour(along route: Route, metersPerSecond speed: Double) -> RoadTimes {
        var times = RoadTimes()
        for hour in stride(from: 0.0, to: 168, by: 1) {
            let start = 1_769_385_600 + hour * 3600
            let drive = stride(from: 0.0, through: route.totalMeters / speed, by: 10).map {
                Fix(time: start + $0, position: route.point(atMeters: $0 * speed))
            }
            DriveLearner().learn(drive, into: &times)
        }
        return times
    }

    /// What a node does once per read of the tables (`RoadTimes.precomputePaces`), per piece, on the tables of the
    /// learned update rows.
    private static func pacePrecomputation(pointCount: Int) -> BenchmarkRow {
        let learned = learnedEveryHour(along: BenchmarkRoute(pointCount: pointCount).route, metersPerSecond: 9)
        let extent = learned.extent
        var checksum = 0
        let perRound = nanosecondsPerCall(count: 5) {
            var times = learned
            times.precomputePaces()
            checksum += times.pieces.count
        }
        blackHole(checksum)
        return BenchmarkRow(name: "learned paces precomputed, per piece", value: .nanoseconds(perRound / Double(extent.pieces)),
                            comparison: "\(extent.pieces) pieces, \(extent.rows / extent.pieces) slots each; once per read of the tables")
    }

    /// Encoding and decoding a 10k-point polyline, per point.
    private static func polylineCodec(pointCount: Int) -> BenchmarkRow {
        let points = BenchmarkRoute(pointCount: pointCount).route.points
        var checksum = 0
        let rounds = 50
        let perRound = nanosecondsPerCall(count: rounds) {
            let encoded = Polyline.encode(points)
            checksum += ((try? Polyline.decode(encoded)) ?? []).count
        }
        blackHole(checksum)
        return BenchmarkRow(name: "Polyline encode + decode, per point",
                            value: .nanoseconds(perRound / Double(pointCount)),
                            comparison: "10k-point polyline, precision 5")
    }

    /// Wall time of `body` per call in nanoseconds: the best of three runs of `count` calls after a short warm-up,
    /// so that other processes on a busy machine inflate the figure as little as possible.
    private static func nanosecondsPerCall(count: Int, _ body: () -> Void) -> Double {
        withoutActuallyEscaping(body) { nanosecondsPerCall(count: count, rounds: 3, interleaving: [$0])[0] }
    }

    /// Wall time per call of each of `bodies` in nanoseconds: the best of `rounds` runs of `count` calls after a
    /// short warm-up, the bodies taking turns in every round, so that a burst of load on a busy machine weighs on all
    /// of them alike and their ratios hold.
    private static func nanosecondsPerCall(count: Int, rounds: Int, interleaving bodies: [() -> Void]) -> [Double] {
        for body in bodies {
            for _ in 0..<min(count / 10, 1000) { body() }
        }
        let clock = ContinuousClock()
        var best = [Double](repeating: .infinity, count: bodies.count)
        for _ in 0..<rounds {
            for (index, body) in bodies.enumerated() {
                let start = clock.now
                for _ in 0..<count { body() }
                let elapsed = start.duration(to: clock.now)
                let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
                best[index] = min(best[index], nanoseconds / Double(count))
            }
        }
        return best
    }

    /// "62x", "1.8x".
    private static func format(ratio: Double) -> String {
        ratio >= 10 ? "\(Int(ratio.rounded()))x" : "\(oneDecimal(ratio))x"
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Keeps a result alive so the optimiser cannot drop the work that produced it.
    @_optimize(none)
    private static func blackHole<T>(_ value: T) {}
}

/// One server-side location update on a 10k-point route, its state kept between updates: match, feed the observed
/// speed, and ETAs to three waypoints with traffic; with `learnedMetersPerSecond`, the waypoints on the route are then
/// timed with learned travel times, as the engine does (`LearnedRoute`, a plan kept between updates, the pieces' paces
/// precomputed once), every piece of the route learned at that speed at every hour of the week.
private final class UpdatePath {
    let route: BenchmarkRoute
    let fixes: [GeoPoint]
    let waypoints: RouteWaypoints
    let traffic: TrafficProfile
    let learned: (route: LearnedRoute, times: RoadTimes, targets: [Double])?
    /// With live traffic: the route's index and the fleet's live speeds (a vehicle crawled 2 km of it at 2 m/s).
    let liveTraffic: (index: RouteTrafficIndex, live: LiveRoadSpeeds)?
    var timing: LearnedTiming? = nil
    var progress: RouteProgress
    var estimator = ETAEstimator(category: .auto)
    var next = 0
    var time = 1_769_385_600.0
    /// What the updates answered, summed, so that none of their work can be left out.
    var checksum = 0.0

    init(pointCount: Int, learnedMetersPerSecond: Double?, liveTraffic: Bool = false) {
        let benchmarkRoute = BenchmarkRoute(pointCount: pointCount)
        let road = benchmarkRoute.route
        route = benchmarkRoute
        fixes = benchmarkRoute.drive(stepMeters: 90, noiseMeters: 6)
        let total = road.totalMeters
        let waypoints = RouteWaypoints(route: road, positions: [0.3, 0.6, 1.0].map { road.point(atMeters: total * $0) })
        self.waypoints = waypoints
        let lastPoint = pointCount - 1
        traffic = TrafficProfile(route: road, intervals: [
            TrafficInterval(startPointIndex: lastPoint / 5, endPointIndex: lastPoint / 4, speed: .slow),
            TrafficInterval(startPointIndex: lastPoint / 2, endPointIndex: lastPoint / 2 + 200, speed: .trafficJam),
        ])
        progress = RouteProgress(route: road)
        learned = learnedMetersPerSecond.map { speed in
            var times = GeoBenchmarks.learnedEveryHour(along: road, metersPerSecond: speed)
            times.precomputePaces()
            return (LearnedRoute(route: road), times, waypoints.waypoints.compactMap(\.alongRouteMeters))
        }
        self.liveTraffic = liveTraffic ? learned.map { learned in
            var live = LiveRoadSpeeds()
            var drive = LiveDrive()
            let from = road.totalMeters * 0.45
            for step in 0...100 {
                let fix = Fix(time: 1_769_385_600 + Double(step) * 10, position: road.point(atMeters: from + Double(step) * 20))
                drive.add(fix, learner: DriveLearner()) { pass in
                    live.add(pass.piece, seconds: pass.tally.seconds, meters: pass.tally.meters, at: fix.time)
                }
            }
            return (RouteTrafficIndex(learned.route), live)
        } : nil
    }

    /// The next fix along the drive (again from the start after the last), 10 s after the previous one.
    func update() {
        if next == fixes.count {
            next = 0
            progress = RouteProgress(route: route.route)
        }
        let match = progress.update(fixes[next])
        estimator.observe(position: fixes[next], at: time, traffic: traffic.speed(atMeters: match.travelledMeters))
        let etas = estimator.estimate(from: match, waypoints: waypoints, traffic: traffic, now: time)
        checksum += etas[etas.count - 1].remainingSeconds
        if let learned {
            let pace = 1 / estimator.freeFlowMetersPerSecond(now: time)
            checksum += learned.route.seconds(from: match.travelledMeters, to: learned.targets, now: time, times: learned.times,
                                              generation: 0, liveSecondsPerMeter: pace, fallbackSecondsPerMeter: pace,
                                              timing: &timing)[0]
            // The route's live traffic worked out again, and the seconds it adds to each target: on every update here,
            // so the row is the cost of an update that does it (the engine does it at most every 30 s of a vehicle's
            // updates, `Engine.liveTrafficRefreshSeconds`).
            if let liveTraffic {
                let through = learned.route.liveTrafficHorizon(from: match.travelledMeters, timing: timing,
                                                               model: LearnedETAModel(), fallbackSecondsPerMeter: pace)
                let ahead = liveTraffic.index.liveTraffic(from: match.travelledMeters, through: through, live: liveTraffic.live,
                                                          times: learned.times, now: 1_769_385_600 + 1000, utcOffsetSeconds: 0)
                for target in learned.targets { checksum += ahead.extraSeconds(from: match.travelledMeters, to: target) }
            }
        }
        next += 1
        time += 10
    }
}

/// Ten vehicles on the benchmark route, reporting every 5 s each and taking turns (the clock moves 0.5 s an update),
/// spread evenly along it and starting again from its beginning at its end (a new trip). They drive 9 m/s, the speed
/// the route is learned at every hour of the week, except across a 2.8 km crawl at 2 m/s (from 45% of the route)
/// and a 2.8 km slow stretch at 5 m/s (from 70%), so a vehicle behind sees a jam and a slow stretch that its
/// fellows keep feeding; about one pass a second lands on the road ahead of a vehicle. Each update does what the
/// engine does for `kind`: match, observed speed and ETAs to three waypoints; with learned ETAs, the waypoints
/// ahead timed with the learned times (a plan kept between updates); with live traffic too, the vehicle's new
/// position fed to the provider's live speeds (``LiveDrive``, ``LiveRoadSpeeds``) and the route's traffic within
/// the horizon (30 minutes ahead by the vehicle's plan) worked out again when the vehicle's last was 30 s old or more
/// (``RouteTrafficReadings`` kept per vehicle), its extra seconds added to the ETAs.
private final class FleetSequence {
    enum Kind {
        case withoutLearning, learnedETAs, learnedETAsAndLiveTraffic
    }

    private struct Vehicle {
        var next: Int
        var progress: RouteProgress
        var estimator = ETAEstimator(category: .auto)
        var timing: LearnedTiming? = nil
        var drive = LiveDrive()
        var traffic: (computedAt: Double, traffic: LiveRouteTraffic)? = nil
        var readings = RouteTrafficReadings()
    }

    let kind: Kind
    let road: Route
    /// One lap's fixes, 5 s apart.
    let fixes: [GeoPoint]
    let waypoints: RouteWaypoints
    let targets: [Double]
    let learned: LearnedRoute
    let times: RoadTimes
    let index: RouteTrafficIndex
    var live = LiveRoadSpeeds()
    private var vehicles: [Vehicle]
    private var turn = 0
    var time = 1_769_385_600.0
    /// Refreshes of a vehicle's route traffic.
    var refreshes = 0
    /// What the updates answered, summed, so that none of their work can be left out.
    var checksum = 0.0

    /// Every vehicle's readings summed: runs reused and runs worked out again.
    var readings: (reused: Int, workedOut: Int) {
        vehicles.reduce((0, 0)) { ($0.0 + $1.readings.runsReused, $0.1 + $1.readings.runsWorkedOut) }
    }

    init(pointCount: Int, kind: Kind) {
        self.kind = kind
        let road = BenchmarkRoute(pointCount: pointCount).route
        self.road = road
        let total = road.totalMeters
        var fixes: [GeoPoint] = []
        var random = SeededRandom(seed: 11)
        var along = 0.0
        while along <= total {
            fixes.append(Geodesy.destination(from: road.point(atMeters: along), bearing: random.next(in: 0...360),
                                             meters: random.next(in: 0...6)))
            let share = along / total
            along += 5 * ((0.45..<0.47).contains(share) ? 2 : (0.70..<0.72).contains(share) ? 5 : 9)
        }
        self.fixes = fixes
        waypoints = RouteWaypoints(route: road, positions: [0.3, 0.6, 1.0].map { road.point(atMeters: total * $0) })
        targets = waypoints.waypoints.compactMap(\.alongRouteMeters)
        learned = LearnedRoute(route: road)
        var times = kind == .withoutLearning ? RoadTimes() : GeoBenchmarks.learnedEveryHour(along: road, metersPerSecond: 9)
        times.precomputePaces()
        self.times = times
        index = RouteTrafficIndex(learned)
        vehicles = (0..<10).map { Vehicle(next: fixes.count * $0 / 10, progress: RouteProgress(route: road)) }
    }

    /// The next vehicle's next report.
    func update() {
        let v = turn % vehicles.count
        turn += 1
        time += 5.0 / Double(vehicles.count)
        report(&vehicles[v])
    }

    /// `vehicle`'s next report (changed in place: a copy would copy its kept state on every write).
    private func report(_ vehicle: inout Vehicle) {
        if vehicle.next == fixes.count {
            vehicle = Vehicle(next: 0, progress: RouteProgress(route: road))
        }
        let position = fixes[vehicle.next]
        vehicle.next += 1
        let match = vehicle.progress.update(position)
        vehicle.estimator.observe(position: position, at: time)
        let etas = vehicle.estimator.estimate(from: match, waypoints: waypoints, now: time)
        checksum += etas[etas.count - 1].remainingSeconds
        if kind != .withoutLearning {
            let pace = 1 / vehicle.estimator.freeFlowMetersPerSecond(now: time)
            let ahead = targets.filter { $0 > match.travelledMeters }
            if !ahead.isEmpty {
                checksum += learned.seconds(from: match.travelledMeters, to: ahead, now: time, times: times, generation: 1,
                                            liveSecondsPerMeter: pace, fallbackSecondsPerMeter: pace, timing: &vehicle.timing)[0]
            }
            if kind == .learnedETAsAndLiveTraffic {
                vehicle.drive.add(Fix(time: time, position: position), learner: DriveLearner()) { pass in
                    live.add(pass.piece, seconds: pass.tally.seconds, meters: pass.tally.meters, at: time)
                }
                let traffic: LiveRouteTraffic
                if let last = vehicle.traffic, time - last.computedAt < 30 {
                    traffic = last.traffic
                } else {
                    // Within the horizon: where the vehicle's plan gets it in 30 minutes.
                    let through = learned.liveTrafficHorizon(from: match.travelledMeters, timing: vehicle.timing,
                                                             model: LearnedETAModel(), fallbackSecondsPerMeter: pace)
                    traffic = index.liveTraffic(from: match.travelledMeters, through: through, live: live, times: times,
                                                generation: 1, now: time, utcOffsetSeconds: 0, timing: vehicle.timing,
                                                readings: &vehicle.readings)
                    vehicle.traffic = (time, traffic)
                    refreshes += 1
                }
                for target in ahead { checksum += traffic.extraSeconds(from: match.travelledMeters, to: target) }
            }
        }
    }
}

/// A deterministic winding road for the benchmarks: a point every 8–20 m (or `spacingMeters`), bending gently,
/// drifting east so it never comes back on itself (the common case the incremental search is built for).
struct BenchmarkRoute {
    let route: Route

    init(pointCount: Int, spacingMeters spacing: ClosedRange<Double> = 8...20) {
        var random = SeededRandom(seed: UInt64(pointCount))
        var points = [GeoPoint(latitude: 48.0, longitude: 2.0)]
        points.reserveCapacity(pointCount)
        var bearing = 90.0
        while points.count < pointCount {
            bearing = min(150, max(30, bearing + random.next(in: -12...12)))
            points.append(Geodesy.destination(from: points[points.count - 1], bearing: bearing,
                                              meters: random.next(in: spacing)))
        }
        route = Route(points: points)!
    }

    /// Fixes every `stepMeters` along the route, pushed up to `noiseMeters` sideways in a random direction.
    func drive(stepMeters: Double, noiseMeters: Double) -> [GeoPoint] {
        var random = SeededRandom(seed: 7)
        var fixes: [GeoPoint] = []
        var along = 0.0
        while along <= route.totalMeters {
            fixes.append(Geodesy.destination(from: route.point(atMeters: along), bearing: random.next(in: 0...360),
                                             meters: random.next(in: 0...noiseMeters)))
            along += stepMeters
        }
        return fixes
    }
}
