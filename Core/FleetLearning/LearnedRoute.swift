import FleetGeo

/// A route cut into the directed pieces of road it crosses, ready to be timed with what the fleet learned
/// (``RoadTimes``). Build one when a route arrives (O(route length ÷ step)); each estimate then walks the pieces
/// ahead of the vehicle, and repeats nothing the route alone decides.
public struct LearnedRoute: Sendable {
    /// One stretch of the route on one piece.
    public struct Stretch: Sendable, Hashable {
        /// The piece.
        public var piece: RoadPiece
        /// Where the stretch begins and ends along the route, metres.
        public var startMeters: Double
        public var endMeters: Double
    }

    /// The route's stretches, in driving order, covering it end to end.
    public let stretches: [Stretch]
    /// The route's length, metres.
    public let totalMeters: Double

    /// Cuts `route` into stretches, piece by piece, with steps of `stepMeters` (as ``DriveLearner`` cuts drives).
    public init(route: Route, stepMeters: Double = DriveLearner().stepMeters) {
        var stretches: [Stretch] = []
        var start = 0.0
        let total = route.totalMeters
        while start < total - 1e-6 {
            let end = min(start + stepMeters, total)
            let middle = route.location(atMeters: (start + end) / 2)
            let segment = middle.segmentIndex
            let piece = RoadPiece(at: route.point(onSegment: segment, fraction: middle.fraction),
                                  bearing: Geodesy.initialBearing(route.points[segment], route.points[min(segment + 1, route.points.count - 1)]))
            if let last = stretches.last, last.piece == piece {
                stretches[stretches.count - 1].endMeters = end
            } else {
                stretches.append(Stretch(piece: piece, startMeters: start, endMeters: end))
            }
            start = end
        }
        self.stretches = stretches
        totalMeters = total
    }

    /// The index of the stretch holding `meters` along the route (clamped to the route). O(log n).
    public func stretchIndex(atMeters meters: Double) -> Int {
        guard !stretches.isEmpty else { return 0 }
        var low = 0, high = stretches.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if stretches[middle].startMeters <= meters { low = middle } else { high = middle - 1 }
        }
        return low
    }
}

/// How a learned estimate blends in what the vehicle does right now, and what it uses where nothing is learned.
public struct LearnedETAModel: Sendable, Hashable {
    /// Over this many metres just ahead of the vehicle its live pace is blended in, fading linearly to nothing.
    public var liveMeters = 250.0
    /// The live pace's weight right at the vehicle (0 ... 1), fading to 0 at ``liveMeters``.
    public var liveWeight = 0.5
    /// The fleet's local time, seconds ahead of UTC, for the slots of the week.
    public var utcOffsetSeconds = 0.0
    /// A vehicle this many seconds behind or ahead of its plan of learned times gets a new one
    /// (``LearnedTiming``): a third of the half-hour over which times of day are smoothed.
    public var replanSeconds = 600.0
    /// Stretches the plan reaches later than this are timed with their all-week figure
    /// (``RoadTimes/allWeekPace(_:)``): by then the quarter hour the vehicle gets there is itself uncertain (the times
    /// of day are smoothed over half an hour), and a long route's new plan stays cheap.
    public var planHorizonSeconds = 1800.0
    /// Live traffic (``RouteTrafficIndex``) counts on the stretches the vehicle reaches within this many seconds by
    /// its plan of learned times (``LearnedRoute/reach(seconds:from:timing:fallbackSecondsPerMeter:)``); beyond,
    /// stretches are normal and timed by the learned tables alone: passes of the last ten minutes say what a road is
    /// like now, not in an hour, when the vehicle gets there.
    public var liveTrafficHorizonSeconds = 1800.0

    /// The standard model.
    public init() {}
}

/// A plan of learned times along a ``LearnedRoute``, kept between a vehicle's location updates so that an update
/// costs a few binary searches however long the route. It has two parts:
/// - what the route reads from one set of tables, made once per route and set of tables: each stretch's smoothed
///   paces (``RoadTimes/PaceTable``, of its piece or the nearest learned neighbour), and the **all-week** figures per
///   stretch from the route's start: learned seconds and metres with nothing learned (``RoadTimes/allWeekPace(_:)``);
/// - the **near** plan, from one stretch at one time of departure up to ``LearnedETAModel/planHorizonSeconds``
///   ahead: each stretch at the quarter hour the vehicle reaches it (``RoadTimes/pace(_:slot:)``, looked up in the
///   stretch's table); made again when the vehicle falls ``LearnedETAModel/replanSeconds`` behind or ahead of it, or
///   nears its end.
/// Stretches beyond the near plan are timed with the all-week figures: by then the quarter hour the vehicle gets
/// there is itself uncertain.
public struct LearnedTiming: Sendable {
    /// Which tables the plan was made from (the caller's generation number).
    let generation: Int
    /// Each stretch's smoothed paces; nil where nothing is learned on its piece or the neighbours.
    let paces: [RoadTimes.PaceTable?]
    /// All-week figures at each stretch's end, from the route's start.
    let weekSeconds: [Double]
    let weekUnlearned: [Double]
    /// The near plan: where and when it starts, and per stretch from `startIndex` the learned seconds and unlearned
    /// metres from `startMeters` to the stretch's end, and whether it has learned times.
    let startIndex: Int
    let startMeters: Double
    let departure: Double
    let learnedSeconds: [Double]
    let unlearnedMeters: [Double]
    let isLearned: [Bool]
}

extension LearnedRoute {
    /// What the route reads from `times`: every stretch's smoothed paces, and the all-week figures from the route's
    /// start.
    func read(_ times: RoadTimes) -> (paces: [RoadTimes.PaceTable?], seconds: [Double], unlearned: [Double]) {
        var paces: [RoadTimes.PaceTable?] = [], seconds: [Double] = [], unlearned: [Double] = []
        paces.reserveCapacity(stretches.count)
        seconds.reserveCapacity(stretches.count)
        unlearned.reserveCapacity(stretches.count)
        var learnedSum = 0.0, unlearnedSum = 0.0
        for stretch in stretches {
            let length = stretch.endMeters - stretch.startMeters
            let table = times.paceTable(near: stretch.piece)
            if let table { learnedSum += length * table.allWeekSecondsPerMeter } else { unlearnedSum += length }
            paces.append(table)
            seconds.append(learnedSum)
            unlearned.append(unlearnedSum)
        }
        return (paces, seconds, unlearned)
    }

    /// A new plan from `fromMeters`, leaving at `now`: the near stretches timed at the quarter hour the vehicle
    /// reaches each, stretches with nothing learned at `fallbackSecondsPerMeter`; what the route reads from the
    /// tables taken from `previous` when it was made from the same tables.
    public func plan(from fromMeters: Double, now: Double, times: RoadTimes, model: LearnedETAModel, generation: Int,
                     fallbackSecondsPerMeter: Double, previous: LearnedTiming? = nil) -> LearnedTiming {
        let readings = previous.flatMap { $0.generation == generation ? (paces: $0.paces, seconds: $0.weekSeconds, unlearned: $0.weekUnlearned) : nil }
            ?? read(times)
        let start = stretchIndex(atMeters: fromMeters)
        var learned: [Double] = [], unlearned: [Double] = [], flags: [Bool] = []
        var seconds = 0.0, meters = 0.0
        var position = fromMeters
        var index = start
        // The quarter hour reached, worked out again only when the time reached leaves it: a branch the processor
        // predicts, so a stretch's lookup need not wait for the last stretch's seconds (the tables are too large for
        // its caches). The quarter hour is the same as computing it at every stretch.
        var slot = WeekSlot(epochSeconds: now, utcOffsetSeconds: model.utcOffsetSeconds)
        var slotEnd = WeekSlot.quarterHours(epochSeconds: now, utcOffsetSeconds: model.utcOffsetSeconds).rounded(.down) + 1
        while index < stretches.count, seconds + meters * fallbackSecondsPerMeter <= model.planHorizonSeconds {
            let stretch = stretches[index]
            let length = max(0, stretch.endMeters - position)
            let reached = now + (seconds + meters * fallbackSecondsPerMeter)
            let quarterHours = WeekSlot.quarterHours(epochSeconds: reached, utcOffsetSeconds: model.utcOffsetSeconds)
            if quarterHours >= slotEnd || quarterHours < slotEnd - 1 {
                slot = WeekSlot(epochSeconds: reached, utcOffsetSeconds: model.utcOffsetSeconds)
                slotEnd = quarterHours.rounded(.down) + 1
            }
            if let table = readings.paces[index] {
                seconds += length * table.secondsPerMeter(at: slot)
                flags.append(true)
            } else {
                meters += length
                flags.append(false)
            }
            learned.append(seconds)
            unlearned.append(meters)
            position = stretch.endMeters
            index += 1
        }
        return LearnedTiming(generation: generation, paces: readings.paces, weekSeconds: readings.seconds, weekUnlearned: readings.unlearned, startIndex: start,
                             startMeters: fromMeters, departure: now, learnedSeconds: learned, unlearnedMeters: unlearned,
                             isLearned: flags)
    }

    /// Seconds from `fromMeters` along the route to each of `targetMeters` (in increasing order; those behind answer
    /// 0), leaving at `now` (epoch seconds).
    ///
    /// Each stretch ahead is timed with the learned pace of its piece at the quarter hour the vehicle will be there
    /// (``RoadTimes/pace(_:slot:)``, looked up in its ``RoadTimes/PaceTable``: call ``RoadTimes/precomputePaces()``
    /// once on tables read for many updates, else each new set of tables computes the route's tables), those beyond the plan's horizon with their all-week pace; a stretch where nothing
    /// is learned takes `fallbackSecondsPerMeter` (the vehicle's own pace, or its category's default). Over the first
    /// ``LearnedETAModel/liveMeters`` the vehicle's live pace (`liveSecondsPerMeter`, nil when unknown) is blended in,
    /// at ``LearnedETAModel/liveWeight`` at the vehicle, fading linearly to nothing. The learned part comes from
    /// `timing` while the vehicle keeps to it (made from the same tables, `generation`), else from a new plan stored
    /// back into `timing`. Targets past the route's end are timed at the fallback pace from its end.
    public func seconds(from fromMeters: Double, to targetMeters: [Double], now: Double, times: RoadTimes, generation: Int,
                        model: LearnedETAModel = LearnedETAModel(), liveSecondsPerMeter: Double?,
                        fallbackSecondsPerMeter: Double, timing: inout LearnedTiming?) -> [Double] {
        guard !stretches.isEmpty else { return targetMeters.map { max(0, $0 - fromMeters) * fallbackSecondsPerMeter } }
        let here = stretchIndex(atMeters: fromMeters)
        var keeps = false
        if let plan = timing, plan.generation == generation, fromMeters >= plan.startMeters,
           here - plan.startIndex < plan.isLearned.count - 1 || plan.startIndex + plan.isLearned.count >= stretches.count {
            let drift = now - (plan.departure + planned(plan, index: here, atMeters: fromMeters, fallback: fallbackSecondsPerMeter))
            keeps = abs(drift) <= model.replanSeconds
        }
        if !keeps {
            timing = plan(from: fromMeters, now: now, times: times, model: model, generation: generation,
                          fallbackSecondsPerMeter: fallbackSecondsPerMeter, previous: timing)
        }
        let plan = timing!
        let start = planned(plan, index: here, atMeters: fromMeters, fallback: fallbackSecondsPerMeter)
        // The live blend just ahead, walked once: its extra seconds up to the end of each stretch it touches.
        var blendEnd = fromMeters, blendExtra = 0.0
        var partial: (start: Double, end: Double, extra: Double)? = nil
        return targetMeters.map { target in
            guard target > fromMeters else { return 0 }
            let along = min(target, totalMeters)
            var seconds = planned(plan, index: stretchIndex(atMeters: along), atMeters: along, fallback: fallbackSecondsPerMeter) - start
            if let live = liveSecondsPerMeter, model.liveWeight > 0 {
                let reach = fromMeters + model.liveMeters
                if blendEnd < min(along, reach) {
                    var index = stretchIndex(atMeters: blendEnd)
                    while blendEnd < min(along, reach), index < stretches.count {
                        let end = min(stretches[index].endMeters, reach)
                        if end > blendEnd {
                            let weight = model.liveWeight * (1 - ((blendEnd + end) / 2 - fromMeters) / model.liveMeters)
                            let extra = (end - blendEnd) * weight * (live - paceOf(plan, index: index, fallback: fallbackSecondsPerMeter))
                            partial = (blendEnd, end, extra)
                            blendExtra += extra
                            blendEnd = end
                        }
                        index += 1
                    }
                }
                seconds += blendExtra
                // A target inside the last stretch walked takes only its share of that stretch's extra.
                if let last = partial, along < last.end, last.end > last.start {
                    seconds -= last.extra * (last.end - along) / (last.end - last.start)
                }
            }
            return max(0, seconds) + max(0, target - totalMeters) * fallbackSecondsPerMeter
        }
    }

    /// How far along the route live traffic counts for a vehicle at `fromMeters`: where its plan `timing` gets it in
    /// `model`'s ``LearnedETAModel/liveTrafficHorizonSeconds`` (``reach(seconds:from:timing:fallbackSecondsPerMeter:)``),
    /// or the route's end while it has no plan.
    public func liveTrafficHorizon(from fromMeters: Double, timing: LearnedTiming?, model: LearnedETAModel,
                                   fallbackSecondsPerMeter: Double) -> Double {
        guard let timing else { return totalMeters }
        return reach(seconds: model.liveTrafficHorizonSeconds, from: fromMeters, timing: timing,
                     fallbackSecondsPerMeter: fallbackSecondsPerMeter)
    }

    /// Where along the route the vehicle gets `seconds` after leaving `fromMeters`, by the plan `timing` (as
    /// ``seconds(from:to:now:times:generation:model:liveSecondsPerMeter:fallbackSecondsPerMeter:timing:)`` last made
    /// or kept it, without the live blend), stretches with nothing learned at `fallbackSecondsPerMeter`: the start of
    /// the stretch it is on then, or the route's end. O(log stretches).
    public func reach(seconds: Double, from fromMeters: Double, timing: LearnedTiming, fallbackSecondsPerMeter: Double) -> Double {
        guard !stretches.isEmpty else { return fromMeters }
        let here = stretchIndex(atMeters: fromMeters)
        let start = planned(timing, index: here, atMeters: fromMeters, fallback: fallbackSecondsPerMeter)
        // The last stretch the vehicle enters within `seconds` (planned seconds only grow along the route).
        var low = here, high = stretches.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            let entered = planned(timing, index: middle, atMeters: stretches[middle].startMeters, fallback: fallbackSecondsPerMeter)
            if entered - start <= seconds { low = middle } else { high = middle - 1 }
        }
        if low == stretches.count - 1,
           planned(timing, index: low, atMeters: totalMeters, fallback: fallbackSecondsPerMeter) - start <= seconds {
            return totalMeters
        }
        return max(fromMeters, stretches[low].startMeters)
    }

    /// Planned seconds from the plan's start to `meters` along the route, on stretch `index`.
    private func planned(_ plan: LearnedTiming, index: Int, atMeters meters: Double, fallback: Double) -> Double {
        guard index >= plan.startIndex else { return 0 }
        let offset = index - plan.startIndex
        let stretch = stretches[index]
        let near = plan.isLearned.count
        if offset < near {
            let before = offset == 0 ? (0.0, 0.0) : (plan.learnedSeconds[offset - 1], plan.unlearnedMeters[offset - 1])
            let stretchStart = offset == 0 ? plan.startMeters : stretch.startMeters
            let into = max(0, min(meters, stretch.endMeters) - stretchStart)
            return before.0 + before.1 * fallback + into * paceOf(plan, index: index, fallback: fallback)
        }
        // Beyond the near plan: its end, then the all-week figures.
        let nearEnd = near == 0 ? 0 : plan.learnedSeconds[near - 1] + plan.unlearnedMeters[near - 1] * fallback
        let boundary = plan.startIndex + near - 1
        let weekAtBoundary = boundary >= 0 ? plan.weekSeconds[boundary] + plan.weekUnlearned[boundary] * fallback : 0
        let weekBefore = plan.weekSeconds[index - 1 < 0 ? 0 : index - 1] + plan.weekUnlearned[index - 1 < 0 ? 0 : index - 1] * fallback
        let into = max(0, min(meters, stretch.endMeters) - stretch.startMeters)
        return nearEnd + (index - 1 >= 0 ? weekBefore : 0) - weekAtBoundary + into * paceOf(plan, index: index, fallback: fallback)
    }

    /// The planned pace on stretch `index`: the near plan's within it, the all-week figure beyond.
    private func paceOf(_ plan: LearnedTiming, index: Int, fallback: Double) -> Double {
        let offset = index - plan.startIndex
        if offset >= 0, offset < plan.isLearned.count {
            guard plan.isLearned[offset] else { return fallback }
            let stretchStart = offset == 0 ? plan.startMeters : stretches[index].startMeters
            let length = stretches[index].endMeters - stretchStart
            let seconds = plan.learnedSeconds[offset] - (offset == 0 ? 0 : plan.learnedSeconds[offset - 1])
            return length > 0 ? seconds / length : fallback
        }
        let previousSeconds = index == 0 ? 0 : plan.weekSeconds[index - 1]
        let previousUnlearned = index == 0 ? 0 : plan.weekUnlearned[index - 1]
        guard plan.weekUnlearned[index] == previousUnlearned else { return fallback }
        let length = stretches[index].endMeters - stretches[index].startMeters
        return length > 0 ? (plan.weekSeconds[index] - previousSeconds) / length : fallback
    }
}
