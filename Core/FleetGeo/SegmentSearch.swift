/// Chooses the segment a location belongs to among a run of route segments: the rule shared by the incremental
/// window and the full search of ``RouteProgress``.
///
/// Every segment gets a cost: its local-frame distance to the location, plus the heading penalty when it points
/// against the direction of travel. Segments farther than the off-route threshold are not candidates. Among
/// candidates, the first one in scan order whose cost is within the preference tolerance of the best cost is
/// chosen (scan order starts at the last match, so that is the smallest forward jump), then refined to the cheapest
/// candidate within the refinement distance after it.
struct SegmentSearch {
    /// A segment chosen by the search, in the local frame.
    struct Candidate {
        /// Segment index.
        var index: Int
        /// Fraction along the segment of the nearest point.
        var fraction: Double
        /// Local-frame distance from the location, metres.
        var distance: Double
        /// Distance plus any heading penalty, metres.
        var cost: Double
    }

    /// What a search found.
    struct Outcome {
        /// The chosen segment, or nil when no segment scanned is within the off-route threshold.
        var chosen: Candidate?
        /// The segment nearest to the location among those scanned (for the off-route distance).
        var nearest: Candidate?
        /// One past the last segment index the first run examined (the window's end).
        var firstRunEnd: Int
    }

    let location: GeoPoint
    let headingEast: Double
    let headingNorth: Double
    let hasHeading: Bool
    let threshold: Double
    let penalty: Double
    let tolerance: Double
    let refinement: Double

    init(location: GeoPoint, heading: (east: Double, north: Double)?, options: RouteMatchingOptions) {
        self.location = location
        self.headingEast = heading?.east ?? 0
        self.headingNorth = heading?.north ?? 0
        self.hasHeading = heading != nil
        self.threshold = options.offRouteThresholdMeters
        self.penalty = options.headingPenaltyMeters
        self.tolerance = options.preferenceToleranceMeters
        self.refinement = options.refinementMeters
    }

    /// Distance and cost of one segment.
    @inline(__always)
    private func evaluate(_ frame: SegmentFrame) -> (fraction: Double, distance: Double, cost: Double) {
        let (fraction, distance) = frame.nearest(to: location)
        var cost = distance
        if hasHeading && frame.opposes(headingEast: headingEast, headingNorth: headingNorth) { cost += penalty }
        return (fraction, distance, cost)
    }

    /// Searches `first` (stopping early at `maximumSegments` segments or at the first segment starting beyond
    /// `limitMeters` along the route), then `second` in full. Pass an empty `second` for a single run.
    func run(frames: UnsafeBufferPointer<SegmentFrame>, cumulative: UnsafeBufferPointer<Double>,
             first: Range<Int>, limitMeters: Double, maximumSegments: Int, second: Range<Int>) -> Outcome {
        // Pass 1: the best cost among candidates, the nearest segment, and where the first run stops.
        var bestCost = Double.infinity
        var nearest: Candidate? = nil
        var nearestDistance = Double.infinity
        var firstEnd = first.lowerBound
        let firstLimit = maximumSegments >= first.count ? first.upperBound : first.lowerBound + maximumSegments
        while firstEnd < firstLimit && cumulative[firstEnd] <= limitMeters {
            let (fraction, distance, cost) = evaluate(frames[firstEnd])
            if distance < nearestDistance {
                nearestDistance = distance
                nearest = Candidate(index: firstEnd, fraction: fraction, distance: distance, cost: cost)
            }
            if distance <= threshold && cost < bestCost { bestCost = cost }
            firstEnd += 1
        }
        for index in second {
            let (fraction, distance, cost) = evaluate(frames[index])
            if distance < nearestDistance {
                nearestDistance = distance
                nearest = Candidate(index: index, fraction: fraction, distance: distance, cost: cost)
            }
            if distance <= threshold && cost < bestCost { bestCost = cost }
        }
        guard bestCost.isFinite else { return Outcome(chosen: nil, nearest: nearest, firstRunEnd: firstEnd) }

        // Pass 2: the first good-enough candidate in scan order, refined within the refinement distance after it.
        let acceptable = bestCost + tolerance
        let chosen = firstAcceptable(in: first.lowerBound..<firstEnd, acceptable: acceptable,
                                     frames: frames, cumulative: cumulative)
            ?? firstAcceptable(in: second, acceptable: acceptable, frames: frames, cumulative: cumulative)
        return Outcome(chosen: chosen, nearest: nearest, firstRunEnd: firstEnd)
    }

    /// The first candidate in `run` whose cost is at most `acceptable`, replaced by the cheapest candidate that
    /// starts within the refinement distance after it in the same run.
    private func firstAcceptable(in run: Range<Int>, acceptable: Double, frames: UnsafeBufferPointer<SegmentFrame>,
                                 cumulative: UnsafeBufferPointer<Double>) -> Candidate? {
        var index = run.lowerBound
        while index < run.upperBound {
            let (fraction, distance, cost) = evaluate(frames[index])
            if distance <= threshold && cost <= acceptable {
                var chosen = Candidate(index: index, fraction: fraction, distance: distance, cost: cost)
                let refinementEnd = cumulative[index] + refinement
                var next = index + 1
                while next < run.upperBound && cumulative[next] <= refinementEnd {
                    let (f, d, c) = evaluate(frames[next])
                    if d <= threshold && c < chosen.cost {
                        chosen = Candidate(index: next, fraction: f, distance: d, cost: c)
                    }
                    next += 1
                }
                return chosen
            }
            index += 1
        }
        return nil
    }
}
