import FleetGeo

/// How fast vehicles drove each directed piece of road (``RoadPiece``) in the last few minutes: the seconds and metres
/// of their recent passes, as ``DriveLearner`` cuts them, forgotten after ``windowSeconds``. Held in memory by the
/// node that received the location updates; it holds no vehicle or trip.
///
/// A piece's live pace is its recent seconds over its recent metres, waits included, as the learned tables count
/// them, so the two compare like for like (``RouteTrafficIndex/liveTraffic(from:live:times:now:utcOffsetSeconds:thresholds:)``).
public struct LiveRoadSpeeds: Sendable {
    /// Passes older than this are forgotten, seconds: ten minutes, the age after which the engine stops trusting a
    /// vehicle's own observed speed (``SpeedModel/observationMaximumAgeSeconds``), and shorter than the quarter hour
    /// the learned tables tell times of day apart by.
    public var windowSeconds = 600.0
    /// A piece's live pace counts only over at least this many metres driven across it within the window: half a
    /// piece, so that a vehicle seen standing on a few metres of it is not taken for the whole road.
    public var minimumMeters = RoadPiece.sizeMeters / 2

    private struct Sample {
        var time: Double
        var seconds: Double
        var meters: Double
    }

    /// A block of 4 × 4 squares, whatever the direction: a route's stretches in blocks without a recent pass skip the
    /// lookups of their pieces and neighbours (``RouteTrafficIndex``).
    public struct Block: Hashable, Sendable {
        var east: Int32
        var north: Int32
        /// The block holding the square `east`, `north`.
        init(east: Int32, north: Int32) {
            self.east = east >> 2
            self.north = north >> 2
        }
        /// The block holding `piece`'s square.
        public init(_ piece: RoadPiece) {
            self.init(east: piece.east, north: piece.north)
        }
    }

    private var samples: [RoadPiece: [Sample]] = [:]
    /// Blocks with a recent pass in them or in a square next to them (some may be older than the window until the
    /// next sweep).
    public private(set) var blocks: Set<Block> = []
    private var sweptAt = -Double.infinity

    /// An empty table.
    public init() {}

    /// Pieces with a recent pass (some may be older than the window until the next sweep).
    public var pieceCount: Int { samples.count }

    /// Adds `seconds` spent driving `meters` across `piece`, seen at `time` (epoch seconds). Forgets passes older than
    /// the window once per window's tenth.
    public mutating func add(_ piece: RoadPiece, seconds: Double, meters: Double, at time: Double) {
        guard seconds >= 0, meters > 0, seconds.isFinite, meters.isFinite else { return }
        if time - sweptAt >= windowSeconds / 10 { sweep(now: time) }
        samples[piece, default: []].append(Sample(time: time, seconds: seconds, meters: meters))
        for dn in -1...1 {
            for de in -1...1 { blocks.insert(Block(east: piece.east &+ Int32(de), north: piece.north &+ Int32(dn))) }
        }
    }

    /// Forgets passes older than the window before `now`.
    public mutating func sweep(now: Double) {
        sweptAt = now
        let oldest = now - windowSeconds
        var kept: [RoadPiece: [Sample]] = [:]
        var keptBlocks: Set<Block> = []
        for (piece, list) in samples {
            let recent = list.filter { $0.time >= oldest }
            guard !recent.isEmpty else { continue }
            kept[piece] = recent
            for dn in -1...1 {
                for de in -1...1 { keptBlocks.insert(Block(east: piece.east &+ Int32(de), north: piece.north &+ Int32(dn))) }
            }
        }
        samples = kept
        blocks = keptBlocks
    }

    /// Whether a pass was seen near `piece` lately (cheap: one set lookup). False means ``pace(near:now:)`` is nil.
    public func mayHavePace(near piece: RoadPiece) -> Bool {
        blocks.contains(Block(piece))
    }

    /// Seconds per metre across `piece` over the passes of the window before `now`, waits included; or, when nothing
    /// recent crossed the piece itself, across the square beside it (left or right of the direction of travel, in the
    /// same direction) with the most recent metres: GPS wander and a road on the edge of a square. Not the squares
    /// ahead or behind, unlike the learned tables' neighbours (``RoadTimes/entry(near:)``): that would stretch a queue
    /// a piece beyond where anyone drove it. Nil below ``minimumMeters``.
    public func pace(near piece: RoadPiece, now: Double) -> Double? {
        guard mayHavePace(near: piece) else { return nil }
        if let own = sums(of: piece, now: now) { return own.seconds / own.meters }
        var best: (seconds: Double, meters: Double)? = nil
        for neighbour in Self.beside(piece) {
            if let candidate = sums(of: neighbour, now: now), candidate.meters > (best?.meters ?? 0) { best = candidate }
        }
        return best.map { $0.seconds / $0.meters }
    }

    /// The two squares left and right of `piece`'s direction of travel, crossed in the same direction.
    static func beside(_ piece: RoadPiece) -> [RoadPiece] {
        // The direction of travel as steps east and north, by heading (0 north, clockwise in eighths).
        let steps: [(east: Int32, north: Int32)] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
        let step = steps[Int(piece.heading) % steps.count]
        return [RoadPiece(east: piece.east &- step.north, north: piece.north &+ step.east, heading: piece.heading),
                RoadPiece(east: piece.east &+ step.north, north: piece.north &- step.east, heading: piece.heading)]
    }

    private func sums(of piece: RoadPiece, now: Double) -> (seconds: Double, meters: Double)? {
        guard let list = samples[piece] else { return nil }
        let oldest = now - windowSeconds
        var seconds = 0.0, meters = 0.0
        for sample in list where sample.time >= oldest {
            seconds += sample.seconds
            meters += sample.meters
        }
        return meters >= minimumMeters ? (seconds, meters) : nil
    }
}

/// One vehicle's positions cut into passes as they arrive, for ``LiveRoadSpeeds``: the interval from the last fix it
/// moved from (the anchor) to a fix at least one ``DriveLearner/stepMeters`` step away is cut by ``DriveLearner``,
/// through the last fix it stood at, so time spent standing stays where the vehicle stood and takes the direction it
/// then drove in. Fixes closer to the anchor only move the standing fix; a silence over
/// ``DriveLearner/maximumGapSeconds``, or a fix older than the anchor, starts again.
public struct LiveDrive: Sendable, Hashable {
    private var anchor: Fix?
    private var standing: Fix?

    /// A drive that has seen nothing yet.
    public init() {}

    /// The passes completed by `fix` (none until the vehicle has moved a step).
    public mutating func add(_ fix: Fix, learner: DriveLearner) -> [PieceObservation] {
        guard let start = anchor, fix.time > (standing ?? start).time,
              fix.time - (standing ?? start).time <= learner.maximumGapSeconds else {
            anchor = fix
            standing = nil
            return []
        }
        guard Geodesy.distance(start.position, fix.position) >= learner.stepMeters else {
            standing = fix
            return []
        }
        let passes = learner.observations(of: [start] + (standing.map { [$0] } ?? []) + [fix])
        anchor = fix
        standing = nil
        return passes
    }
}

/// Where live traffic counts as slow or jammed: the live speed on a piece as a share of the learned speed for that
/// piece at this time of the week (the learned seconds per metre over the live ones).
///
/// - Below ``slowBelow`` (2/3: the piece takes more than 1.5 times its usual time) the stretch is SLOW;
/// - below ``jamBelow`` (1/3: more than 3 times its usual time) it is TRAFFIC_JAM.
///
/// The SLOW band is centred on one half, the share of the free-flow speed the estimator assumes on a stretch a driver
/// reports as SLOW (``SpeedModel/slowFractionOfFreeFlow``); a third of a town street's usual 25–30 km/h is the 8–10 km/h
/// it assumes in a reported jam (``SpeedModel/trafficJamKilometersPerHour``).
public struct TrafficThresholds: Sendable, Hashable {
    /// Live speed under this share of the learned speed is SLOW.
    public var slowBelow = 2.0 / 3.0
    /// Live speed under this share of the learned speed is TRAFFIC_JAM.
    public var jamBelow = 1.0 / 3.0

    /// The standard thresholds.
    public init() {}

    /// The traffic on a piece taking `liveSecondsPerMeter` now against its learned `learnedSecondsPerMeter`.
    public func speed(live liveSecondsPerMeter: Double, learned learnedSecondsPerMeter: Double) -> TrafficSpeed {
        guard liveSecondsPerMeter > 0 else { return .normal }
        let share = learnedSecondsPerMeter / liveSecondsPerMeter
        if share < jamBelow { return .trafficJam }
        if share < slowBelow { return .slow }
        return .normal
    }
}

/// The slow and jammed stretches of a route, from the fleet's live speeds against its learned times
/// (``RouteTrafficIndex/liveTraffic(from:live:times:now:utcOffsetSeconds:thresholds:)``), with the seconds they add to an
/// ETA over the learned times.
public struct LiveRouteTraffic: Sendable, Hashable {
    /// One slow or jammed stretch: along-route metres, its traffic, and the seconds it takes beyond the learned time
    /// (at the pace vehicles just drove it).
    public struct Stretch: Sendable, Hashable {
        public var startMeters: Double
        public var endMeters: Double
        public var speed: TrafficSpeed
        public var extraSeconds: Double
    }

    /// Slow and jammed stretches in route order, not overlapping; neighbours with the same traffic are one stretch.
    public let stretches: [Stretch]
    /// Extra seconds of the stretches before each, summed.
    private let extraBefore: [Double]

    /// No slow or jammed stretch.
    public static let none = LiveRouteTraffic(stretches: [])

    /// Traffic of `stretches` (in route order, not overlapping).
    public init(stretches: [Stretch]) {
        self.stretches = stretches
        var sum = 0.0
        extraBefore = stretches.map { stretch in
            defer { sum += stretch.extraSeconds }
            return sum
        }
    }

    /// The seconds the slow and jammed stretches add between `from` and `to` metres along the route beyond the
    /// learned times (a stretch partly inside counts in proportion). O(log stretches).
    public func extraSeconds(from: Double, to: Double) -> Double {
        guard to > from else { return 0 }
        return extra(before: to) - extra(before: from)
    }

    private func extra(before meters: Double) -> Double {
        var low = 0, high = stretches.count
        while low < high {
            let middle = (low + high) / 2
            if stretches[middle].startMeters < meters { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return 0 }
        let last = stretches[low - 1]
        let length = last.endMeters - last.startMeters
        let inside = length > 0 ? min(1, (meters - last.startMeters) / length) : 1
        return extraBefore[low - 1] + inside * last.extraSeconds
    }
}

/// A route's stretches grouped by the blocks of road they cross (``LiveRoadSpeeds/Block``), made once per route, so
/// that its live traffic costs the lesser of its blocks ahead and the blocks the fleet drove lately, not a lookup per
/// stretch: a long route in a quiet town is a few set lookups.
public struct RouteTrafficIndex: Sendable {
    /// The route.
    public let route: LearnedRoute
    /// Runs of consecutive stretches in one block, in route order: the block and the stretches' index range.
    private let runs: [(block: LiveRoadSpeeds.Block, stretches: Range<Int>)]
    /// Per block, the runs in it, in route order.
    private let runsInBlock: [LiveRoadSpeeds.Block: [Int]]

    /// The index of `route`'s stretches. O(stretches).
    public init(_ route: LearnedRoute) {
        self.route = route
        var runs: [(block: LiveRoadSpeeds.Block, stretches: Range<Int>)] = []
        for (index, stretch) in route.stretches.enumerated() {
            let block = LiveRoadSpeeds.Block(stretch.piece)
            if let last = runs.last, last.block == block, last.stretches.upperBound == index {
                runs[runs.count - 1].stretches = last.stretches.lowerBound ..< index + 1
            } else {
                runs.append((block, index ..< index + 1))
            }
        }
        var runsInBlock: [LiveRoadSpeeds.Block: [Int]] = [:]
        for (index, run) in runs.enumerated() { runsInBlock[run.block, default: []].append(index) }
        self.runs = runs
        self.runsInBlock = runsInBlock
    }

    /// The route's slow and jammed stretches from `fromMeters` on (the stretch holding it included): each piece with
    /// a live pace (``LiveRoadSpeeds/pace(near:now:)``) and a learned one at `now`'s quarter hour of the week
    /// (``RoadTimes/paceTable(of:)``) is classed by ``TrafficThresholds``; pieces missing either are normal. A slow
    /// or jammed stretch adds the seconds its live pace takes beyond its learned one.
    public func liveTraffic(from fromMeters: Double, live: LiveRoadSpeeds, times: RoadTimes, now: Double,
                            utcOffsetSeconds: Double, thresholds: TrafficThresholds = TrafficThresholds()) -> LiveRouteTraffic {
        let stretches = route.stretches
        guard !stretches.isEmpty, live.pieceCount > 0 else { return .none }
        let first = route.stretchIndex(atMeters: fromMeters)
        // The runs ahead with a recent pass near them: found from the smaller side.
        var firstRun = 0, high = runs.count
        while firstRun < high {
            let middle = (firstRun + high) / 2
            if runs[middle].stretches.upperBound <= first { firstRun = middle + 1 } else { high = middle }
        }
        var candidates: [Int]
        if live.blocks.count < runs.count - firstRun {
            candidates = live.blocks.flatMap { runsInBlock[$0] ?? [] }.filter { $0 >= firstRun }
            candidates.sort()
        } else {
            candidates = (firstRun ..< runs.count).filter { live.blocks.contains(runs[$0].block) }
        }
        let slot = WeekSlot(epochSeconds: now, utcOffsetSeconds: utcOffsetSeconds)
        var result: [LiveRouteTraffic.Stretch] = []
        for run in candidates {
            for index in runs[run].stretches where index >= first {
                let stretch = stretches[index]
                guard let livePace = live.pace(near: stretch.piece, now: now),
                      let learned = times.entry(near: stretch.piece).flatMap(times.paceTable(of:))?.secondsPerMeter(at: slot)
                else { continue }
                let speed = thresholds.speed(live: livePace, learned: learned)
                guard speed == .slow || speed == .trafficJam else { continue }
                let extra = (stretch.endMeters - stretch.startMeters) * (livePace - learned)
                if let last = result.last, last.speed == speed, last.endMeters == stretch.startMeters {
                    result[result.count - 1].endMeters = stretch.endMeters
                    result[result.count - 1].extraSeconds += extra
                } else {
                    result.append(LiveRouteTraffic.Stretch(startMeters: stretch.startMeters, endMeters: stretch.endMeters,
                                                           speed: speed, extraSeconds: extra))
                }
            }
        }
        return LiveRouteTraffic(stretches: result)
    }
}
