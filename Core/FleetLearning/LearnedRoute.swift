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
    /// (``RoadTimes/allWeekPace(_:)``): by then the quarter hour the vehicle gets there is itself uncertain, and a
    /// long route's new plan stays cheap.
    public var planHorizonSeconds = 3600.0

    /// The standard model.
    public init() {}
}

/// A plan of learned times along a ``LearnedRoute``, made once from one stretch at one time of departure and then
/// reused by every location update while the vehicle keeps to it: per stretch ahead, the learned seconds and the
/// metres with nothing learned, summed from the plan's start. An update then costs a binary search and a walk over
/// the few stretches of its live blend, however long the route; a vehicle that falls more than
/// ``LearnedETAModel/replanSeconds`` behind or ahead of the plan, or newer tables, make a new plan.
public struct LearnedTiming: Sendable {
    /// The stretch the plan starts on, and where and when on it.
    let startIndex: Int
    let startMeters: Double
    let departure: Double
    /// Which tables it was made from (``LearnedRoute/plan`` callers' generation number).
    let generation: Int
    /// Per stretch from `startIndex`: learned seconds and unlearned metres from `startMeters` to the stretch's end.
    let learnedSeconds: [Double]
    let unlearnedMeters: [Double]
    /// Whether each stretch from `startIndex` has learned times.
    let isLearned: [Bool]
}

extension LearnedRoute {
    /// A new plan from `fromMeters`, leaving at `now`: each stretch timed at the quarter hour the vehicle reaches it,
    /// stretches with nothing learned at `fallbackSecondsPerMeter`.
    public func plan(from fromMeters: Double, now: Double, times: RoadTimes, model: LearnedETAModel, generation: Int,
                     fallbackSecondsPerMeter: Double) -> LearnedTiming {
        let start = stretchIndex(atMeters: fromMeters)
        var learned: [Double] = [], unlearned: [Double] = [], flags: [Bool] = []
        learned.reserveCapacity(stretches.count - start)
        unlearned.reserveCapacity(stretches.count - start)
        flags.reserveCapacity(stretches.count - start)
        var seconds = 0.0, meters = 0.0
        var position = fromMeters
        for index in start..<stretches.count {
            let stretch = stretches[index]
            let length = max(0, stretch.endMeters - position)
            let elapsed = seconds + meters * fallbackSecondsPerMeter
            let found = elapsed <= model.planHorizonSeconds
                ? times.pace(stretch.piece, slot: WeekSlot(epochSeconds: now + elapsed, utcOffsetSeconds: model.utcOffsetSeconds))
                : times.allWeekPace(stretch.piece)
            if let pace = found {
                seconds += length * pace.secondsPerMeter
                flags.append(true)
            } else {
                meters += length
                flags.append(false)
            }
            learned.append(seconds)
            unlearned.append(meters)
            position = stretch.endMeters
        }
        return LearnedTiming(startIndex: start, startMeters: fromMeters, departure: now, generation: generation,
                             learnedSeconds: learned, unlearnedMeters: unlearned, isLearned: flags)
    }

    /// Seconds from `fromMeters` along the route to each of `targetMeters` (in increasing order; those behind answer
    /// 0), leaving at `now` (epoch seconds).
    ///
    /// Each stretch ahead is timed with the learned pace of its piece at the quarter hour the vehicle will be there
    /// (``RoadTimes/pace(_:slot:)``); a stretch where nothing is learned takes `fallbackSecondsPerMeter` (the
    /// vehicle's own pace, or its category's default). Over the first ``LearnedETAModel/liveMeters`` the vehicle's
    /// live pace (`liveSecondsPerMeter`, nil when unknown) is blended in, at ``LearnedETAModel/liveWeight`` at the
    /// vehicle, fading linearly to nothing. The learned part comes from `timing` while the vehicle keeps to it (made
    /// from the same tables, `generation`), else from a new plan stored back into `timing`. Targets past the route's
    /// end are timed at the fallback pace from its end.
    public func seconds(from fromMeters: Double, to targetMeters: [Double], now: Double, times: RoadTimes, generation: Int,
                        model: LearnedETAModel = LearnedETAModel(), liveSecondsPerMeter: Double?,
                        fallbackSecondsPerMeter: Double, timing: inout LearnedTiming?) -> [Double] {
        guard !stretches.isEmpty else { return targetMeters.map { max(0, $0 - fromMeters) * fallbackSecondsPerMeter } }
        if let plan = timing, plan.generation == generation, fromMeters >= plan.startMeters,
           abs(now - (plan.departure + planned(plan, atMeters: fromMeters, fallback: fallbackSecondsPerMeter))) <= model.replanSeconds {
            // Keeps to the plan.
        } else {
            timing = plan(from: fromMeters, now: now, times: times, model: model, generation: generation,
                          fallbackSecondsPerMeter: fallbackSecondsPerMeter)
        }
        let plan = timing!
        let here = planned(plan, atMeters: fromMeters, fallback: fallbackSecondsPerMeter)
        return targetMeters.map { target in
            guard target > fromMeters else { return 0 }
            let along = min(target, totalMeters)
            let seconds = planned(plan, atMeters: along, fallback: fallbackSecondsPerMeter) - here
                + liveExtra(plan, from: fromMeters, to: along, live: liveSecondsPerMeter, model: model, fallback: fallbackSecondsPerMeter)
            return max(0, seconds) + max(0, target - totalMeters) * fallbackSecondsPerMeter
        }
    }

    /// What blending in the live pace adds between `fromMeters` and `toMeters`: on each stretch within
    /// ``LearnedETAModel/liveMeters`` of the vehicle, the live pace at a weight fading from ``LearnedETAModel/liveWeight``
    /// at the vehicle to nothing, against the planned pace.
    private func liveExtra(_ plan: LearnedTiming, from fromMeters: Double, to toMeters: Double, live: Double?,
                           model: LearnedETAModel, fallback: Double) -> Double {
        guard let live, model.liveWeight > 0 else { return 0 }
        let reach = min(toMeters, fromMeters + model.liveMeters)
        var index = stretchIndex(atMeters: fromMeters)
        var position = fromMeters
        var extra = 0.0
        while index < stretches.count, position < reach {
            let end = min(stretches[index].endMeters, reach)
            let meters = end - position
            if meters > 0 {
                let weight = model.liveWeight * (1 - ((position + end) / 2 - fromMeters) / model.liveMeters)
                extra += meters * weight * (live - paceOf(plan, index: index, fallback: fallback))
            }
            position = end
            index += 1
        }
        return extra
    }

    /// Planned seconds from the plan's start to `meters` along the route.
    private func planned(_ plan: LearnedTiming, atMeters meters: Double, fallback: Double) -> Double {
        let index = stretchIndex(atMeters: meters)
        guard index >= plan.startIndex else { return 0 }
        let offset = index - plan.startIndex
        let stretch = stretches[index]
        let before = offset == 0 ? (0.0, 0.0) : (plan.learnedSeconds[offset - 1], plan.unlearnedMeters[offset - 1])
        let stretchStart = offset == 0 ? plan.startMeters : stretch.startMeters
        let into = max(0, min(meters, stretch.endMeters) - stretchStart)
        let pace = paceOf(plan, index: index, fallback: fallback)
        return before.0 + before.1 * fallback + into * pace
    }

    /// The planned pace on stretch `index`.
    private func paceOf(_ plan: LearnedTiming, index: Int, fallback: Double) -> Double {
        let offset = index - plan.startIndex
        guard offset >= 0, offset < plan.isLearned.count, plan.isLearned[offset] else { return fallback }
        let stretchStart = offset == 0 ? plan.startMeters : stretches[index].startMeters
        let length = stretches[index].endMeters - stretchStart
        let seconds = plan.learnedSeconds[offset] - (offset == 0 ? 0 : plan.learnedSeconds[offset - 1])
        return length > 0 ? seconds / length : fallback
    }
}
