/// A route the vehicle is expected to drive (its current route segment), prepared once so that matching
/// locations onto it is cheap: segment frames for projection and prefix sums of haversine segment lengths.
///
/// Build one each time a new route arrives (O(n)); it is immutable afterwards and cheap to copy (arrays are shared).
public struct Route: Sendable {
    /// The route's points, in driving order.
    public let points: [GeoPoint]
    /// Distance along the route from its first point to each point, metres (`cumulativeMeters[0] == 0`).
    public let cumulativeMeters: [Double]
    /// One frame per segment; a one-point route has one zero-length segment.
    let frames: [SegmentFrame]

    /// Prepares a route from its points. Returns nil for an empty list (no route); a single point is a route of
    /// length zero. Repeated consecutive points are allowed (zero-length segments).
    public init?(points: [GeoPoint]) {
        guard let first = points.first else { return nil }
        self.points = points
        var cumulative = [Double](repeating: 0, count: points.count)
        var frames: [SegmentFrame] = []
        frames.reserveCapacity(max(1, points.count - 1))
        if points.count == 1 {
            frames.append(SegmentFrame(from: first, to: first))
        } else {
            for index in 1..<points.count {
                cumulative[index] = cumulative[index - 1] + Geodesy.distance(points[index - 1], points[index])
                frames.append(SegmentFrame(from: points[index - 1], to: points[index]))
            }
        }
        self.cumulativeMeters = cumulative
        self.frames = frames
    }

    /// Total length of the route in metres.
    public var totalMeters: Double { cumulativeMeters[cumulativeMeters.count - 1] }

    /// Number of segments (`points.count - 1`, or 1 for a one-point route).
    public var segmentCount: Int { frames.count }

    /// The route's first point.
    public var start: GeoPoint { points[0] }

    /// The route's last point.
    public var end: GeoPoint { points[points.count - 1] }

    /// Length of segment `index` in metres.
    public func segmentLength(_ index: Int) -> Double {
        points.count == 1 ? 0 : cumulativeMeters[index + 1] - cumulativeMeters[index]
    }

    /// The point on segment `index` at `fraction` (0...1) of its length.
    public func point(onSegment index: Int, fraction: Double) -> GeoPoint {
        if points.count == 1 { return points[0] }
        return Geodesy.interpolate(points[index], points[index + 1], fraction: fraction)
    }

    /// The segment holding the point `meters` along the route (clamped to the route) and the fraction within it.
    /// O(log n).
    public func location(atMeters meters: Double) -> (segmentIndex: Int, fraction: Double) {
        if points.count == 1 || meters <= 0 { return (0, 0) }
        if meters >= totalMeters { return (segmentCount - 1, 1) }
        // Last point whose cumulative distance is <= meters.
        var low = 0
        var high = cumulativeMeters.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if cumulativeMeters[middle] <= meters { low = middle } else { high = middle }
        }
        let length = segmentLength(low)
        return (low, length > 0 ? (meters - cumulativeMeters[low]) / length : 0)
    }

    /// The point `meters` along the route (clamped to its ends).
    public func point(atMeters meters: Double) -> GeoPoint {
        let (segment, fraction) = location(atMeters: meters)
        return point(onSegment: segment, fraction: fraction)
    }

    /// Distance along the route of the point at `fraction` of segment `index`, metres.
    public func meters(onSegment index: Int, fraction: Double) -> Double {
        cumulativeMeters[min(index, cumulativeMeters.count - 1)] + fraction * segmentLength(index)
    }
}
