import FleetGeo

/// A plain history baseline, for scale: what a per-line average of past drives predicts. At a position, it finds the
/// history drives that passed within ``reachMeters`` of it and later within ``reachMeters`` of the destination, takes
/// the ``nearest`` of them in time of day (when each passed this position, against now), and answers the median of
/// their times from here to the destination. It needs drives over the same way and knows nothing of roads: it is the
/// bar a learned model must clear, not a model.
public struct PlainHistory: Sendable {
    /// One history drive, prepared for lookups.
    struct Past: Sendable {
        var points: [GeoPoint]
        var times: [Double]
    }

    /// How many drives nearest in time of day are taken (0: all that cover the way).
    public var nearest: Int
    /// How far from a history drive a position may be and still count as on its way, metres.
    public var reachMeters = 100.0
    private let past: [Past]

    /// The baseline over `drives`, taking the `nearest` in time of day (0: all).
    public init(drives: [Drive], nearest: Int = 3) {
        self.nearest = nearest
        past = drives.filter { $0.fixes.count >= 2 }.map { Past(points: $0.path, times: $0.fixes.map(\.time)) }
    }

    /// The predicted seconds from `position` at `now` to `destination`; nil when no history drive covers the way.
    public func seconds(from position: GeoPoint, at now: Double, to destination: GeoPoint) -> Double? {
        var candidates: [(offset: Double, seconds: Double)] = []
        for drive in past {
            guard let here = Geodesy.project(position, ontoPolyline: drive.points), here.distanceMeters <= reachMeters
            else { continue }
            let rest = Array(drive.points[here.segmentIndex...])
            guard let there = Geodesy.project(destination, ontoPolyline: rest), there.distanceMeters <= reachMeters
            else { continue }
            let passed = time(drive, segment: here.segmentIndex, fraction: here.fraction)
            let arrived = time(drive, segment: here.segmentIndex + there.segmentIndex, fraction: there.fraction)
            guard arrived >= passed else { continue }
            let dayOffset = abs((passed - now).truncatingRemainder(dividingBy: 86_400))
            candidates.append((min(dayOffset, 86_400 - dayOffset), arrived - passed))
        }
        guard !candidates.isEmpty else { return nil }
        candidates.sort { $0.offset < $1.offset }
        let chosen = (nearest > 0 ? Array(candidates.prefix(nearest)) : candidates).map(\.seconds).sorted()
        let middle = chosen.count / 2
        return chosen.count % 2 == 1 ? chosen[middle] : (chosen[middle - 1] + chosen[middle]) / 2
    }

    private func time(_ drive: Past, segment: Int, fraction: Double) -> Double {
        let index = min(segment, drive.times.count - 2)
        return drive.times[index] + fraction * (drive.times[index + 1] - drive.times[index])
    }
}
