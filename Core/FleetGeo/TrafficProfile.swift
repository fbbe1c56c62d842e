/// The traffic along one route, turned into along-route stretches so that the distance in slow traffic and in
/// jams between any two route positions costs O(log k) for k stretches.
///
/// Build it from the route and its `SpeedReadingInterval`s each time either changes. Indices are clamped to the
/// route; empty or reversed intervals are ignored; where intervals overlap, the one starting first keeps the
/// overlap. Stretches without an interval, and NORMAL or unspecified ones, are normal traffic.
public struct TrafficProfile: Sendable {
    /// Slow and jammed stretches: along-route start and end metres, in order, not overlapping.
    private let starts: [Double]
    private let ends: [Double]
    private let speeds: [TrafficSpeed]
    /// Slow and jam metres before each stretch.
    private let slowBefore: [Double]
    private let jamBefore: [Double]

    /// No traffic data: every stretch normal.
    public static let none = TrafficProfile(stretches: [])

    /// The profile of `intervals` on `route`.
    public init(route: Route, intervals: [TrafficInterval]) {
        let lastPoint = route.points.count - 1
        let sorted = intervals
            .map { interval -> TrafficInterval in
                var clamped = interval
                clamped.startPointIndex = min(max(0, interval.startPointIndex), lastPoint)
                clamped.endPointIndex = min(max(0, interval.endPointIndex), lastPoint)
                return clamped
            }
            .filter { $0.endPointIndex > $0.startPointIndex }
            .sorted { $0.startPointIndex < $1.startPointIndex }
        var stretches: [(start: Double, end: Double, speed: TrafficSpeed)] = []
        var coveredUpTo = -Double.infinity
        for interval in sorted {
            let start = max(route.cumulativeMeters[interval.startPointIndex], coveredUpTo)
            let end = route.cumulativeMeters[interval.endPointIndex]
            guard end > start else { continue }
            coveredUpTo = end
            if interval.speed == .slow || interval.speed == .trafficJam {
                stretches.append((start, end, interval.speed))
            }
        }
        self.init(stretches: stretches)
    }

    private init(stretches: [(start: Double, end: Double, speed: TrafficSpeed)]) {
        starts = stretches.map(\.start)
        ends = stretches.map(\.end)
        speeds = stretches.map(\.speed)
        var slow = 0.0
        var jam = 0.0
        var slowBefore: [Double] = []
        var jamBefore: [Double] = []
        for stretch in stretches {
            slowBefore.append(slow)
            jamBefore.append(jam)
            let length = stretch.end - stretch.start
            if stretch.speed == .slow { slow += length } else { jam += length }
        }
        self.slowBefore = slowBefore
        self.jamBefore = jamBefore
    }

    /// True when the profile has no slow or jammed stretch.
    public var isEmpty: Bool { starts.isEmpty }

    /// The traffic at `meters` along the route.
    public func speed(atMeters meters: Double) -> TrafficSpeed {
        guard let index = lastStretch(startingAtOrBefore: meters), meters < ends[index] else { return .normal }
        return speeds[index]
    }

    /// The distance from `from` to `to` metres along the route (0 if `to <= from`), split by traffic.
    public func meters(from: Double, to: Double) -> TrafficMeters {
        guard to > from else { return TrafficMeters(normal: 0, slow: 0, trafficJam: 0) }
        let (slowTo, jamTo) = congestedMeters(before: to)
        let (slowFrom, jamFrom) = congestedMeters(before: from)
        let slow = max(0, slowTo - slowFrom)
        let jam = max(0, jamTo - jamFrom)
        return TrafficMeters(normal: max(0, (to - from) - slow - jam), slow: slow, trafficJam: jam)
    }

    /// Slow and jam metres between the route's start and `meters`.
    private func congestedMeters(before meters: Double) -> (slow: Double, jam: Double) {
        guard let index = lastStretch(startingAtOrBefore: meters) else { return (0, 0) }
        let inside = min(meters, ends[index]) - starts[index]
        if speeds[index] == .slow { return (slowBefore[index] + inside, jamBefore[index]) }
        return (slowBefore[index], jamBefore[index] + inside)
    }

    /// The last stretch whose start is at or before `meters`, by binary search.
    private func lastStretch(startingAtOrBefore meters: Double) -> Int? {
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= meters { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}
