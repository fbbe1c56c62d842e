import FleetGeo
import Synchronization

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
        /// One word to hash, not two.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(UInt64(UInt32(bitPattern: east)) << 32 | UInt64(UInt32(bitPattern: north)))
        }
        /// The block with these numbers.
        init(blockEast: Int32, blockNorth: Int32) {
            east = blockEast
            north = blockNorth
        }
        /// The block holding `piece`'s square.
        public init(_ piece: RoadPiece) {
            self.init(east: piece.east, north: piece.north)
        }
    }

    /// Each piece's recent passes (never an empty list).
    private var samples = RoadKeyTable<RoadPiece, [Sample]>()
    /// Every pass's time and piece, in the order they were added, from ``expiriesStart`` on: the sweep forgets passes
    /// from the front, so it costs the passes it forgets, not the table.
    private var expiries: [(time: Double, piece: RoadPiece)] = []
    private var expiriesStart = 0
    /// A block with a recent pass in it or in a square next to it (``blocks``).
    struct BlockState: Sendable {
        /// How many pieces with passes lie in or next to the block (above 0).
        var piecesNear: Int
        /// The number of the last change to the passes its pieces' paces read: a pass added in a square in or next
        /// to the block, or one forgotten there. The numbers are unique across every table of the process, so a
        /// result worked out for a block still holds while the block keeps its number (and none of the passes it
        /// counted has left the window: ``RouteTrafficReadings``).
        var change: UInt64
    }

    /// Blocks with a recent pass in them or in a square next to them (some may be older than the window until the
    /// next sweep): one lookup per block gives both what a route's traffic reads (its change number) and what the
    /// sweep keeps up to date (its count of pieces).
    private(set) var blocks = RoadKeyTable<Block, BlockState>()
    private var sweptAt = -Double.infinity
    /// The latest changes, oldest first: each block whose number changed (or that was dropped) with its new number.
    /// Numbers only grow along it. At most ``changeLogLimit`` entries after a trim, plus what came since.
    private var changeLog: [(change: UInt64, block: Block)] = []
    /// Every change after this number is in ``changeLog`` (0: every change ever).
    private var changeLogCoversAfter: UInt64 = 0
    /// The number of this table's last change (0: none yet).
    public private(set) var lastChange: UInt64 = 0
    /// How many block changes the table lists at least (twice as many at most): a route's traffic worked out again
    /// within this many reads only them, not every block with a recent pass
    /// (``RouteTrafficIndex/liveTraffic(from:live:times:generation:now:utcOffsetSeconds:thresholds:readings:)``).
    public var changeLogLimit = 4096

    /// The last change number handed out, process-wide.
    private static let lastChangeHandedOut = Atomic<UInt64>(0)

    /// A change number no table has used.
    private static func newChange() -> UInt64 {
        lastChangeHandedOut.add(1, ordering: .relaxed).newValue
    }

    /// Records that `blocks` took the number `change` (or were dropped), in the list of changes.
    private mutating func log(_ change: UInt64, _ blocks: some Sequence<Block>) {
        lastChange = change
        for block in blocks { changeLog.append((change, block)) }
        if changeLog.count >= 2 * max(1, changeLogLimit) {
            let cut = changeLog.count - max(1, changeLogLimit)
            // Entries of one change stay together: cut where the number changes.
            var end = cut
            while end < changeLog.count, changeLog[end].change == changeLog[cut - 1].change { end += 1 }
            changeLogCoversAfter = changeLog[end - 1].change
            changeLog.removeFirst(end)
        }
    }

    /// The blocks changed (renumbered or dropped) since this table's change number `seen`, oldest first, with repeats;
    /// nil when the log no longer reaches back that far or `seen` is not a number of this table's history (a reading of
    /// another table, or of a copy of this one that went its own way). O(log log + changes since).
    func changes(since seen: UInt64) -> ArraySlice<(change: UInt64, block: Block)>? {
        if seen == lastChange { return changeLog[changeLog.endIndex...] }
        guard seen >= changeLogCoversAfter else { return nil }
        var low = changeLog.startIndex, high = changeLog.endIndex
        while low < high {
            let middle = (low + high) / 2
            if changeLog[middle].change <= seen { low = middle + 1 } else { high = middle }
        }
        if seen == changeLogCoversAfter { return low == changeLog.startIndex ? changeLog[low...] : nil }
        guard low > changeLog.startIndex, changeLog[low - 1].change == seen else { return nil }
        return changeLog[low...]
    }

    /// The blocks whose pieces' paces may read passes on `piece` (itself or a square beside it): those holding a
    /// square in or next to `piece`'s, one to four blocks.
    private static func blocks(near piece: RoadPiece) -> NearBlocks {
        NearBlocks(low: Block(east: piece.east &- 1, north: piece.north &- 1),
                   high: Block(east: piece.east &+ 1, north: piece.north &+ 1))
    }

    /// The blocks from `low` to `high` (one or two each way), without an array.
    private struct NearBlocks: Sequence, IteratorProtocol {
        let low: Block, high: Block
        private var upcoming: Block?
        init(low: Block, high: Block) {
            self.low = low
            self.high = high
            upcoming = low
        }
        mutating func next() -> Block? {
            guard let block = upcoming else { return nil }
            if block.east != high.east {
                upcoming = Block(blockEast: block.east &+ 1, blockNorth: block.north)
            } else if block.north != high.north {
                upcoming = Block(blockEast: low.east, blockNorth: block.north &+ 1)
            } else {
                upcoming = nil
            }
            return block
        }
    }

    /// An empty table.
    public init() {}

    /// Pieces with a recent pass (some may be older than the window until the next sweep).
    public var pieceCount: Int { samples.count }

    /// Adds `seconds` spent driving `meters` across `piece`, seen at `time` (epoch seconds). Forgets passes older than
    /// the window once per window's tenth.
    public mutating func add(_ piece: RoadPiece, seconds: Double, meters: Double, at time: Double) {
        guard seconds >= 0, meters > 0, seconds.isFinite, meters.isFinite else { return }
        if time - sweptAt >= windowSeconds / 10 { sweep(now: time) }
        let near = Self.blocks(near: piece)
        let sample = Sample(time: time, seconds: seconds, meters: meters)
        // A piece's list is never empty, so a list of one is a piece that had no passes.
        let newPiece = samples.update(piece, default: []) { list in
            list.append(sample)
            return list.count == 1
        }
        expiries.append((time, piece))
        let change = Self.newChange()
        for block in near {
            blocks.update(block, default: BlockState(piecesNear: 0, change: change)) { state in
                if newPiece { state.piecesNear += 1 }
                state.change = change
            }
        }
        log(change, near)
    }

    /// Forgets passes older than the window before `now`: those of the pieces whose passes, in the order they were
    /// added, are older than that from the first on. A pass added after a newer one may stay until that one goes
    /// (a pace never counts it: ``pace(near:now:)`` reads only the window). O(passes forgotten).
    public mutating func sweep(now: Double) {
        sweptAt = now
        let oldest = now - windowSeconds
        // The sweep's change number, taken at the first pass it forgets, and the blocks near a forgotten pass, each
        // once (given the number as they are listed; all are in the table then, as a piece with passes is near them).
        var change: UInt64? = nil
        var changed: [Block] = []
        while expiriesStart < expiries.count, expiries[expiriesStart].time < oldest {
            let piece = expiries[expiriesStart].piece
            expiriesStart += 1
            // Nil when the piece has no pass older than the window; else whether it has none left.
            let emptied: Bool? = samples.updateIfPresent(piece) { list in
                guard list.contains(where: { !($0.time >= oldest) }) else { return nil }
                list.removeAll { !($0.time >= oldest) }
                return list.isEmpty
            } ?? nil
            guard let emptied else { continue }
            let sweepChange = change ?? Self.newChange()
            change = sweepChange
            let near = Self.blocks(near: piece)
            for block in near {
                blocks.updateIfPresent(block) { state in
                    guard state.change != sweepChange else { return }
                    state.change = sweepChange
                    changed.append(block)
                }
            }
            guard emptied else { continue }
            samples.removeValue(forKey: piece)
            for block in near {
                let left = blocks.updateIfPresent(block) { state in
                    state.piecesNear -= 1
                    return state.piecesNear
                }
                if let left, left <= 0 { blocks.removeValue(forKey: block) }
            }
        }
        if expiriesStart > 1024, expiriesStart * 2 > expiries.count {
            expiries.removeFirst(expiriesStart)
            expiriesStart = 0
        }
        if let change { log(change, changed) }
    }

    /// Whether a pass was seen near `piece` lately (cheap: one set lookup). False means ``pace(near:now:)`` is nil.
    public func mayHavePace(near piece: RoadPiece) -> Bool {
        blocks[Block(piece)] != nil
    }

    /// Seconds per metre across `piece` over the passes of the window before `now`, waits included; or, when nothing
    /// recent crossed the piece itself, across the square beside it (left or right of the direction of travel, in the
    /// same direction) with the most recent metres: GPS wander and a road on the edge of a square. Not the squares
    /// ahead or behind, unlike the learned tables' neighbours (``RoadTimes/entry(near:)``): that would stretch a queue
    /// a piece beyond where anyone drove it. Nil below ``minimumMeters``.
    public func pace(near piece: RoadPiece, now: Double) -> Double? {
        reading(near: piece, now: now).pace
    }

    /// ``pace(near:now:)``, with the time of the oldest pass its answer rests on: until that pass leaves the window,
    /// and while no pass is added or forgotten near `piece`, the answer stays the same at any later `now` (+∞ when it
    /// rests on none that can leave: passes only ever leave, so a piece without enough metres keeps not having them).
    /// Without `countsOldest`, the time is +∞ (a one-off answer spares counting it).
    @inline(__always)
    func reading(near piece: RoadPiece, now: Double, countsOldest: Bool = true) -> (pace: Double?, oldestCounted: Double) {
        guard mayHavePace(near: piece) else { return (nil, .infinity) }
        return reading(inBlockWithPasses: piece, now: now, countsOldest: countsOldest)
    }

    /// ``reading(near:now:countsOldest:)`` for a piece whose block the caller knows to be in ``blocks``.
    @inline(__always)
    func reading(inBlockWithPasses piece: RoadPiece, now: Double, countsOldest: Bool) -> (pace: Double?, oldestCounted: Double) {
        if let own = sums(of: piece, now: now, countsOldest: countsOldest) { return (own.seconds / own.meters, own.oldest) }
        var best: (seconds: Double, meters: Double, oldest: Double)? = nil
        var oldest = Double.infinity
        func weigh(_ neighbour: RoadPiece) {
            guard let candidate = sums(of: neighbour, now: now, countsOldest: countsOldest) else { return }
            // Any neighbour with enough metres weighs in the choice, so its passes leaving may change it.
            oldest = min(oldest, candidate.oldest)
            if candidate.meters > (best?.meters ?? 0) { best = candidate }
        }
        let beside = Self.beside(piece)
        weigh(beside.left)
        weigh(beside.right)
        return (best.map { $0.seconds / $0.meters }, oldest)
    }

    /// The direction of travel as steps east and north, by heading (0 north, clockwise in eighths).
    private static let headingSteps: [(east: Int32, north: Int32)] =
        [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]

    /// The two squares left and right of `piece`'s direction of travel, crossed in the same direction.
    static func beside(_ piece: RoadPiece) -> (left: RoadPiece, right: RoadPiece) {
        let step = headingSteps[Int(piece.heading) % headingSteps.count]
        return (RoadPiece(east: piece.east &- step.north, north: piece.north &+ step.east, heading: piece.heading),
                RoadPiece(east: piece.east &+ step.north, north: piece.north &- step.east, heading: piece.heading))
    }

    /// The seconds and metres of `piece`'s passes within the window before `now`, and when `countsOldest` the oldest
    /// of their times (else +∞); nil below ``minimumMeters``.
    @inline(__always)
    private func sums(of piece: RoadPiece, now: Double, countsOldest: Bool) -> (seconds: Double, meters: Double, oldest: Double)? {
        guard let list = samples[piece] else { return nil }
        let windowStart = now - windowSeconds
        var seconds = 0.0, meters = 0.0, oldest = Double.infinity
        for sample in list where sample.time >= windowStart {
            seconds += sample.seconds
            meters += sample.meters
            if countsOldest { oldest = min(oldest, sample.time) }
        }
        return meters >= minimumMeters ? (seconds, meters, oldest) : nil
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

    /// Hands `pass` the passes completed by `fix` (none until the vehicle has moved a step), in driving order.
    public mutating func add(_ fix: Fix, learner: DriveLearner, _ pass: (PieceObservation) -> Void) {
        guard let start = anchor, fix.time > (standing ?? start).time,
              fix.time - (standing ?? start).time <= learner.maximumGapSeconds else {
            anchor = fix
            standing = nil
            return
        }
        let meters = Geodesy.distance(start.position, fix.position)
        guard meters >= learner.stepMeters else {
            standing = fix
            return
        }
        learner.passes(from: start, through: standing, to: fix, startToEndMeters: meters, pass)
        anchor = fix
        standing = nil
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
    private let runsInBlock: RoadKeyTable<LiveRoadSpeeds.Block, [Int]>

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
        var runsInBlock = RoadKeyTable<LiveRoadSpeeds.Block, [Int]>()
        for (index, run) in runs.enumerated() { runsInBlock.update(run.block, default: []) { $0.append(index) } }
        self.runs = runs
        self.runsInBlock = runsInBlock
    }

    /// The route's slow and jammed stretches from `fromMeters` through `throughMeters` (the stretches holding them
    /// included; `throughMeters` is the live traffic's horizon, ``LearnedTiming/reach(seconds:from:fallbackSecondsPerMeter:)``):
    /// each piece with a live pace (``LiveRoadSpeeds/pace(near:now:)``) and a learned one at `now`'s quarter hour of
    /// the week (``RoadTimes/paceTable(of:)``) is classed by ``TrafficThresholds``; pieces missing either, and every
    /// piece beyond the horizon, are normal. A slow or jammed stretch adds the seconds its live pace takes beyond its
    /// learned one. Works everything out; a caller that asks again for the same route keeps a
    /// ``RouteTrafficReadings`` and passes it to
    /// ``liveTraffic(from:through:live:times:generation:now:utcOffsetSeconds:thresholds:readings:)`` instead.
    public func liveTraffic(from fromMeters: Double, through throughMeters: Double = .infinity, live: LiveRoadSpeeds,
                            times: RoadTimes, now: Double, utcOffsetSeconds: Double,
                            thresholds: TrafficThresholds = TrafficThresholds()) -> LiveRouteTraffic {
        var readings = RouteTrafficReadings(keeping: false)
        return liveTraffic(from: fromMeters, through: throughMeters, live: live, times: times, generation: 0, now: now,
                           utcOffsetSeconds: utcOffsetSeconds, thresholds: thresholds, readings: &readings)
    }

    /// The same as ``liveTraffic(from:through:live:times:now:utcOffsetSeconds:thresholds:)``, reusing what `readings`
    /// kept from earlier calls on this route: a run of stretches in one block (``LiveRoadSpeeds/Block``) is classed
    /// again only when a pass landed in or next to its block since (or was forgotten there:
    /// ``LiveRoadSpeeds/blocks``), a pass it counted has left the window, `now` went back, or the learned tables
    /// (`generation`, the caller's number for them: a new number for new tables), the quarter hour of the week, or the
    /// thresholds changed. The answer is the same, to the last bit, as working it all out.
    ///
    /// `timing`, the vehicle's plan on this same route (``LearnedRoute/seconds(from:to:now:times:generation:model:liveSecondsPerMeter:fallbackSecondsPerMeter:timing:)``),
    /// when made from the same tables (`generation`), lends its stretches' learned paces, which are then not looked
    /// up again in `times`.
    public func liveTraffic(from fromMeters: Double, through throughMeters: Double = .infinity, live: LiveRoadSpeeds,
                            times: RoadTimes, generation: Int, now: Double, utcOffsetSeconds: Double,
                            thresholds: TrafficThresholds = TrafficThresholds(), timing: LearnedTiming? = nil,
                            readings: inout RouteTrafficReadings) -> LiveRouteTraffic {
        let stretches = route.stretches
        guard !stretches.isEmpty, live.pieceCount > 0 else { return .none }
        let plannedPaces = timing.flatMap { $0.generation == generation && $0.paces.count == stretches.count ? $0.paces : nil }
        // A stretch's learned paces: the plan's (read from the same tables, the same way), else looked up.
        func learned(_ index: Int) -> RoadTimes.PaceTable? {
            if let plannedPaces { return plannedPaces[index] }
            return times.paceTable(near: stretches[index].piece)
        }
        let first = route.stretchIndex(atMeters: fromMeters)
        let last = max(first, route.stretchIndex(atMeters: throughMeters))
        // The runs from the one holding the first stretch to the one holding the last.
        let firstRun = runIndex(holding: first), endRun = runIndex(holding: last) + 1
        let slot = WeekSlot(epochSeconds: now, utcOffsetSeconds: utcOffsetSeconds)
        readings.prepare(for: RouteTrafficReadings.Basis(generation: generation, slot: slot, thresholds: thresholds,
                                                        windowSeconds: live.windowSeconds, minimumMeters: live.minimumMeters))
        let windowStart = now - live.windowSeconds
        let blocks = live.blocks
        // Taken out of `readings` while worked on, so that writing a result does not copy them.
        var candidates: [RouteTrafficReadings.Candidate]
        // A refresh reads the blocks changed since the last one, when the table still lists them and they are fewer
        // than its blocks and the runs within the horizon; the same runs ahead, nothing changed and nothing counted
        // gone: the last answer, cut.
        let changes = readings.keeping && firstRun >= readings.candidatesFrom ? readings.seenChange.flatMap(live.changes(since:)) : nil
        if let changes, changes.count <= min(blocks.count, endRun - firstRun) {
            candidates = readings.takeCandidates()
            RouteTrafficReadings.drop(&candidates, before: firstRun, from: endRun)
            let trackedEnd = min(readings.candidatesTo, endRun)
            for entry in changes {
                for run in runsInBlock[entry.block] ?? [] where run >= firstRun && run < trackedEnd {
                    RouteTrafficReadings.set(&candidates, run: run, change: blocks[entry.block]?.change)
                }
            }
            // Runs the horizon reached since: looked up one by one (in route order, after every kept one).
            var reached = false
            for run in max(readings.candidatesTo, firstRun) ..< max(readings.candidatesTo, firstRun, endRun) {
                if let change = blocks[runs[run].block]?.change {
                    candidates.append(RouteTrafficReadings.Candidate(run: run, change: change))
                    reached = true
                }
            }
            readings.seenChange = live.lastChange
            readings.candidatesFrom = firstRun
            readings.candidatesTo = endRun
            readings.callsReadingChanges += 1
            if changes.isEmpty, !reached, let ahead = readings.ahead, now >= ahead.computedAt, ahead.oldestCounted >= windowStart {
                readings.runsReused += candidates.count
                readings.callsUnchanged += 1
                readings.putBack(candidates)
                return assemble(ahead.stretches, from: first, through: last)
            }
        } else {
            if blocks.count < endRun - firstRun {
                candidates = blocks.entries.flatMap { block, state in
                    (runsInBlock[block] ?? []).lazy.filter { $0 >= firstRun && $0 < endRun }
                        .map { RouteTrafficReadings.Candidate(run: $0, change: state.change) }
                }
                candidates.sort { $0.run < $1.run }
            } else {
                candidates = (firstRun ..< endRun).compactMap { run in
                    blocks[runs[run].block].map { RouteTrafficReadings.Candidate(run: run, change: $0.change) }
                }
            }
            if readings.keeping {
                // Results kept for the same runs still hold while their blocks keep their numbers.
                RouteTrafficReadings.carry(readings.takeCandidates(), into: &candidates)
                readings.seenChange = live.lastChange
                readings.candidatesFrom = firstRun
                readings.candidatesTo = endRun
            }
        }
        var ahead: [RouteTrafficReadings.Classed] = []
        var oldestCounted = Double.infinity
        for position in candidates.indices {
            let candidate = candidates[position]
            if let kept = candidate.result, kept.change == candidate.change, now >= kept.computedAt,
               kept.oldestCounted >= windowStart {
                ahead.append(contentsOf: kept.stretches)
                oldestCounted = min(oldestCounted, kept.oldestCounted)
                readings.runsReused += 1
                continue
            }
            let range = runs[candidate.run].stretches
            if readings.keeping {
                let worked = classify(range, live: live, learned: learned, slot: slot, now: now, thresholds: thresholds,
                                      countsOldest: true)
                candidates[position].result = RouteTrafficReadings.Run(change: candidate.change, computedAt: now,
                                                                       oldestCounted: worked.oldestCounted,
                                                                       stretches: worked.stretches)
                ahead.append(contentsOf: worked.stretches)
                oldestCounted = min(oldestCounted, worked.oldestCounted)
            } else {
                ahead.append(contentsOf: classify(range, live: live, learned: learned, slot: slot, now: now,
                                                  thresholds: thresholds, countsOldest: false).stretches)
            }
            readings.runsWorkedOut += 1
        }
        if readings.keeping {
            readings.putBack(candidates)
            readings.ahead = RouteTrafficReadings.Ahead(computedAt: now, oldestCounted: oldestCounted, stretches: ahead)
        }
        return assemble(ahead, from: first, through: last)
    }

    /// The index of the run holding stretch `index`. O(log runs).
    private func runIndex(holding index: Int) -> Int {
        var low = 0, high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].stretches.upperBound <= index { low = middle + 1 } else { high = middle }
        }
        return min(low, runs.count - 1)
    }

    /// The traffic of the slow and jammed stretches `classed` (in route order) from stretch `first` through `last`,
    /// neighbours with the same traffic joined.
    private func assemble(_ classed: [RouteTrafficReadings.Classed], from first: Int, through last: Int) -> LiveRouteTraffic {
        var result: [LiveRouteTraffic.Stretch] = []
        for item in classed where item.index >= first {
            guard item.index <= last else { break }
            let stretch = route.stretches[item.index]
            if let previous = result.last, previous.speed == item.speed, previous.endMeters == stretch.startMeters {
                result[result.count - 1].endMeters = stretch.endMeters
                result[result.count - 1].extraSeconds += item.extraSeconds
            } else {
                result.append(LiveRouteTraffic.Stretch(startMeters: stretch.startMeters, endMeters: stretch.endMeters,
                                                       speed: item.speed, extraSeconds: item.extraSeconds))
            }
        }
        return LiveRouteTraffic(stretches: result)
    }

    /// The slow and jammed stretches among `indexes`, and, when `countsOldest`, the time of the oldest pass their live
    /// paces rest on (+∞ otherwise); `learned` gives a stretch's learned paces by its index.
    @inline(__always)
    private func classify(_ indexes: Range<Int>, live: LiveRoadSpeeds, learned: (Int) -> RoadTimes.PaceTable?,
                          slot: WeekSlot, now: Double,
                          thresholds: TrafficThresholds, countsOldest: Bool)
        -> (stretches: [RouteTrafficReadings.Classed], oldestCounted: Double) {
        var classed: [RouteTrafficReadings.Classed] = []
        var oldestCounted = Double.infinity
        for index in indexes {
            let stretch = route.stretches[index]
            // A run is a candidate only while its block has passes, and its stretches all lie in that block.
            let reading = live.reading(inBlockWithPasses: stretch.piece, now: now, countsOldest: countsOldest)
            oldestCounted = min(oldestCounted, reading.oldestCounted)
            guard let livePace = reading.pace, let learned = learned(index)?.secondsPerMeter(at: slot) else { continue }
            let speed = thresholds.speed(live: livePace, learned: learned)
            guard speed == .slow || speed == .trafficJam else { continue }
            classed.append(RouteTrafficReadings.Classed(index: index, speed: speed,
                                                        extraSeconds: (stretch.endMeters - stretch.startMeters) * (livePace - learned)))
        }
        return (classed, oldestCounted)
    }
}

/// A route's live traffic as last worked out, run by run (the route's stretches in one block of road,
/// ``RouteTrafficIndex``), kept by the caller between calls of
/// ``RouteTrafficIndex/liveTraffic(from:live:times:generation:now:utcOffsetSeconds:thresholds:readings:)`` so that a
/// call finding nothing changed near a run reuses its result. One per route and table of live speeds; start empty.
public struct RouteTrafficReadings: Sendable {
    /// What every kept result was worked out against; when it changes, nothing kept holds.
    struct Basis: Equatable {
        var generation: Int
        var slot: WeekSlot
        var thresholds: TrafficThresholds
        var windowSeconds: Double
        var minimumMeters: Double
    }

    /// A slow or jammed stretch of the route: its index, traffic and extra seconds.
    struct Classed: Sendable {
        var index: Int
        var speed: TrafficSpeed
        var extraSeconds: Double
    }

    /// One run's result: its block's change number then, when it was worked out, the oldest pass it rests on, and its
    /// slow and jammed stretches (all of the run's, in route order).
    struct Run: Sendable {
        var change: UInt64
        var computedAt: Double
        var oldestCounted: Double
        var stretches: [Classed]
    }

    /// The last call's slow and jammed stretches of every run from its first on, in route order: the time it was
    /// worked out at, and the oldest pass it rests on.
    struct Ahead: Sendable {
        var computedAt: Double
        var oldestCounted: Double
        var stretches: [Classed]
    }

    /// A run from ``candidatesFrom`` up to ``candidatesTo`` whose block had a recent pass at the last call: the block's
    /// change number then, and the run's result when one was worked out (it holds while the number is the same).
    struct Candidate: Sendable {
        var run: Int
        var change: UInt64
        var result: Run? = nil
    }

    private var basis: Basis? = nil
    /// The table's change number (``LiveRoadSpeeds/lastChange``) at the last call; nil before any.
    var seenChange: UInt64? = nil
    /// The runs from ``candidatesFrom`` up to ``candidatesTo`` with a recent pass near them at the last call, in route
    /// order; runs behind the vehicle or beyond the horizon are dropped.
    private var candidates: [Candidate] = []
    var candidatesFrom = 0
    var candidatesTo = 0
    /// The last call's answer, before cutting at its start and horizon; nil when the basis changed since.
    var ahead: Ahead? = nil

    /// Runs classed afresh, over every call so far.
    public internal(set) var runsWorkedOut = 0
    /// Runs whose kept result was reused, over every call so far.
    public internal(set) var runsReused = 0
    /// Calls that read only the blocks changed since the call before (``LiveRoadSpeeds/changeLogLimit``), not every
    /// block with a recent pass.
    public internal(set) var callsReadingChanges = 0
    /// Calls that found nothing changed since the call before and answered from its answer alone.
    public internal(set) var callsUnchanged = 0

    /// Whether results are kept (not by a one-off call, which would only pay for storing them).
    let keeping: Bool

    /// Nothing kept yet.
    public init() {
        keeping = true
    }

    /// Readings that keep nothing, for one call.
    init(keeping: Bool) {
        self.keeping = keeping
    }

    /// Forgets everything kept when `basis` differs from the last call's.
    mutating func prepare(for basis: Basis) {
        guard self.basis != basis else { return }
        self.basis = basis
        candidates.removeAll(keepingCapacity: true)
        seenChange = nil
        ahead = nil
    }

    /// The kept candidates, leaving none (see ``putBack(_:)``).
    mutating func takeCandidates() -> [Candidate] {
        defer { candidates = [] }
        return candidates
    }

    /// Keeps `candidates` (in route order).
    mutating func putBack(_ candidates: [Candidate]) {
        self.candidates = candidates
    }

    /// The index of the first of `candidates` whose run is not before `run`.
    private static func index(of run: Int, in candidates: [Candidate]) -> Int {
        var low = 0, high = candidates.count
        while low < high {
            let middle = (low + high) / 2
            if candidates[middle].run < run { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Drops the candidates before `firstRun` and from `endRun` on.
    static func drop(_ candidates: inout [Candidate], before firstRun: Int, from endRun: Int) {
        let end = index(of: endRun, in: candidates)
        if end < candidates.count { candidates.removeSubrange(end...) }
        let start = index(of: firstRun, in: candidates)
        if start > 0 { candidates.removeFirst(start) }
    }

    /// Makes `run` a candidate with its block's `change` number, or no candidate when its block has none.
    static func set(_ candidates: inout [Candidate], run: Int, change: UInt64?) {
        let index = index(of: run, in: candidates)
        let present = index < candidates.count && candidates[index].run == run
        switch (change, present) {
        case (let change?, true): candidates[index].change = change
        case (let change?, false): candidates.insert(Candidate(run: run, change: change), at: index)
        case (nil, true): candidates.remove(at: index)
        case (nil, false): break
        }
    }

    /// Gives each of `candidates` the result `kept` holds for its run (both in route order).
    static func carry(_ kept: [Candidate], into candidates: inout [Candidate]) {
        var position = 0
        for index in candidates.indices {
            while position < kept.count, kept[position].run < candidates[index].run { position += 1 }
            guard position < kept.count else { break }
            if kept[position].run == candidates[index].run { candidates[index].result = kept[position].result }
        }
    }
}

