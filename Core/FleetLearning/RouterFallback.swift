import FleetGeo

/// The router's own time for each stretch of a route where the fleet learned nothing: what an ETA uses there before
/// the vehicle's live pace or its category's default (the router knows a motorway from a lane; the live pace does
/// not). Made once per route and set of learned tables; O(log stretches) per target.
public struct RouterFallback: Sendable {
    /// Per stretch of the ``LearnedRoute``, at its end, from the route's start: metres of stretches with nothing
    /// learned and a router time, and the router's seconds on them.
    private let unlearnedMeters: [Double]
    private let routerSeconds: [Double]
    private let starts: [Double]
    private let ends: [Double]

    /// The fallback for `route` (cut from a route whose points reached `cumulativeSeconds` by the router's plan, one per
    /// point; the segments before point `firstTimedPoint` have no router time: a lead from a yard to the road) against
    /// `times`.
    public init(route learned: LearnedRoute, along route: Route, cumulativeSeconds: [Double], firstTimedPoint: Int = 0,
                times: RoadTimes) {
        let cumulative = route.cumulativeMeters
        let timedFrom = cumulative[min(max(0, firstTimedPoint), cumulative.count - 1)]
        // The router's seconds at `meters` along the route, interpolated between its points.
        func seconds(atMeters meters: Double) -> Double {
            let location = route.location(atMeters: meters)
            let i = location.segmentIndex
            let j = min(i + 1, cumulativeSeconds.count - 1)
            return cumulativeSeconds[i] + location.fraction * (cumulativeSeconds[j] - cumulativeSeconds[i])
        }
        var unlearned: [Double] = [], router: [Double] = []
        unlearned.reserveCapacity(learned.stretches.count)
        router.reserveCapacity(learned.stretches.count)
        var meterSum = 0.0, secondSum = 0.0
        let usable = cumulativeSeconds.count == cumulative.count
        for stretch in learned.stretches {
            if usable, stretch.startMeters >= timedFrom - 1e-6,
               times.paceTable(near: stretch.piece) == nil {
                meterSum += stretch.endMeters - stretch.startMeters
                secondSum += max(0, seconds(atMeters: stretch.endMeters) - seconds(atMeters: stretch.startMeters))
            }
            unlearned.append(meterSum)
            router.append(secondSum)
        }
        unlearnedMeters = unlearned
        routerSeconds = router
        starts = learned.stretches.map(\.startMeters)
        ends = learned.stretches.map(\.endMeters)
    }

    /// Whether any stretch has a router time to use.
    public var isEmpty: Bool { unlearnedMeters.last.map { $0 == 0 } ?? true }

    /// The seconds to add to a time that drove the stretches with nothing learned between `from` and `to` metres at
    /// `fallbackSecondsPerMeter`, so that they take the router's time instead.
    public func extraSeconds(from: Double, to: Double, fallbackSecondsPerMeter: Double) -> Double {
        guard to > from, !isEmpty else { return 0 }
        let a = sums(atMeters: from), b = sums(atMeters: to)
        return (b.seconds - a.seconds) - (b.meters - a.meters) * fallbackSecondsPerMeter
    }

    /// Unlearned metres and their router seconds from the route's start to `meters` (a stretch partly covered in
    /// proportion).
    private func sums(atMeters meters: Double) -> (meters: Double, seconds: Double) {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] < meters { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return (0, 0) }
        let index = low - 1
        let before = index == 0 ? (0.0, 0.0) : (unlearnedMeters[index - 1], routerSeconds[index - 1])
        let length = ends[index] - starts[index]
        let share = length > 0 ? min(1, (meters - starts[index]) / length) : 1
        return (before.0 + share * (unlearnedMeters[index] - before.0), before.1 + share * (routerSeconds[index] - before.1))
    }
}
