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

    /// The standard model.
    public init() {}
}

extension LearnedRoute {
    /// Seconds from `fromMeters` along the route to each of `targetMeters` (in increasing order; those already
    /// behind answer 0), leaving at `now` (epoch seconds).
    ///
    /// Each stretch ahead is timed with the learned pace of its piece at the quarter hour the vehicle will be there
    /// (``RoadTimes/pace(_:slot:)``); a stretch where nothing is learned takes `fallbackSecondsPerMeter` (the router's
    /// per-road time, else the vehicle's own pace or its category's default), given the distance along the route. For
    /// the first ``LearnedETAModel/liveMeters`` the vehicle's live pace (`liveSecondsPerMeter`, nil when unknown) is
    /// blended in. Also returns how much of the way ahead was timed from learned figures, metres.
    public func seconds(from fromMeters: Double, to targetMeters: [Double], now: Double, times: RoadTimes,
                        model: LearnedETAModel = LearnedETAModel(), liveSecondsPerMeter: Double?,
                        fallbackSecondsPerMeter: (Double) -> Double) -> (seconds: [Double], learnedMeters: Double) {
        var result = [Double](repeating: 0, count: targetMeters.count)
        guard !stretches.isEmpty else { return (result, 0) }
        var target = 0
        while target < targetMeters.count, targetMeters[target] <= fromMeters { target += 1 }
        var elapsed = 0.0
        var learnedMeters = 0.0
        var index = stretchIndex(atMeters: fromMeters)
        var position = fromMeters
        while target < targetMeters.count, index < stretches.count {
            let stretch = stretches[index]
            let end = min(stretch.endMeters, targetMeters[target])
            let meters = end - position
            if meters > 0 {
                var pace: Double
                if let learned = times.pace(stretch.piece, slot: WeekSlot(epochSeconds: now + elapsed, utcOffsetSeconds: model.utcOffsetSeconds)) {
                    pace = learned.secondsPerMeter
                    learnedMeters += meters
                } else {
                    pace = fallbackSecondsPerMeter(position)
                }
                let ahead = (position + end) / 2 - fromMeters
                if let live = liveSecondsPerMeter, ahead < model.liveMeters {
                    let weight = model.liveWeight * (1 - ahead / model.liveMeters)
                    pace = (1 - weight) * pace + weight * live
                }
                elapsed += meters * pace
                position = end
            }
            if end >= targetMeters[target] {
                result[target] = elapsed
                target += 1
            } else {
                index += 1
            }
        }
        // Targets past the route's end (none when the route reaches its waypoints): at the fallback pace.
        while target < targetMeters.count {
            elapsed += max(0, targetMeters[target] - position) * fallbackSecondsPerMeter(position)
            position = max(position, targetMeters[target])
            result[target] = elapsed
            target += 1
        }
        return (result, learnedMeters)
    }
}
