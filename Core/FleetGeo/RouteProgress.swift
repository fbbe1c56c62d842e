#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Follows one vehicle along its current route: snaps each location update onto the route and reports the
/// distance travelled and remaining, the distance off the route and whether the vehicle is off route.
///
/// It remembers the last matched segment, so a normal update only examines the segments just ahead (and one behind,
/// for GPS jitter): the window reaching ``RouteMatchingOptions/windowMeters`` along the route or
/// ``RouteMatchingOptions/windowSegments`` segments, whichever is shorter. That makes an update O(1) amortised
/// whatever the route's length. Only when no segment in the window is within the off-route threshold (first fix far
/// from the start, a skipped stretch, off route) does it search the whole route, O(n). While the vehicle stays off
/// route every update is a full search, until it rejoins the route or the caller installs a new route.
///
/// Choosing between nearby segments: heading (reported, or else the direction moved since the last update) adds
/// ``RouteMatchingOptions/headingPenaltyMeters`` to segments driven the other way; among segments within
/// ``RouteMatchingOptions/preferenceToleranceMeters`` of the best, the one reached first going forward from the last
/// match wins, so a route that crosses or folds back on itself is not jumped along; the match is then refined to the
/// best segment just after it. Create a new value when a new route arrives.
public struct RouteProgress: Sendable {
    /// The route being followed.
    public let route: Route
    /// The matching knobs.
    public let options: RouteMatchingOptions
    /// The last match, nil before the first update.
    public private(set) var lastMatch: RouteMatch?

    /// Segment of the last on-route match (0 before any).
    private var segmentIndex = 0
    /// Fraction along that segment.
    private var fraction = 0.0
    /// Distance along the route of the last on-route match.
    private var travelledMeters = 0.0
    /// The previous reported location, for the direction of movement.
    private var previousLocation: GeoPoint?

    /// Starts following `route` from its beginning, or from `resumingAtMeters` along it: a server that keeps only
    /// the last travelled distance between updates (not this value) resumes the O(1) search where it left off.
    public init(route: Route, options: RouteMatchingOptions = RouteMatchingOptions(), resumingAtMeters: Double = 0) {
        self.route = route
        self.options = options
        if resumingAtMeters > 0 {
            let (segment, fraction) = route.location(atMeters: resumingAtMeters)
            self.segmentIndex = segment
            self.fraction = fraction
            self.travelledMeters = route.meters(onSegment: segment, fraction: fraction)
        }
    }

    /// Matches a new location (with the vehicle's heading in degrees clockwise from north, if known) and moves
    /// the progress forward. O(1) amortised; O(n) when the vehicle is lost or off route.
    public mutating func update(_ location: GeoPoint, heading: Double? = nil) -> RouteMatch {
        let direction = travelDirection(to: location, heading: heading)
        previousLocation = location
        let search = SegmentSearch(location: location, heading: direction, options: options)
        let start = max(0, segmentIndex - 1)
        let windowOutcome = route.frames.withUnsafeBufferPointer { frames in
            route.cumulativeMeters.withUnsafeBufferPointer { cumulative in
                search.run(frames: frames, cumulative: cumulative, first: start..<frames.count,
                           limitMeters: travelledMeters + options.windowMeters,
                           maximumSegments: options.windowSegments, second: 0..<0)
            }
        }
        let match: RouteMatch
        if let chosen = windowOutcome.chosen {
            match = commit(chosen, location: location, usedFullSearch: false)
        } else {
            let outcome = searchWholeRoute(search)
            if let chosen = outcome.chosen {
                match = commit(chosen, location: location, usedFullSearch: true)
            } else {
                match = offRouteMatch(location: location, nearest: outcome.nearest)
            }
        }
        lastMatch = match
        return match
    }

    /// Matches a location against every segment of the route with the same rule as ``update(_:heading:)``,
    /// without moving the progress: the O(n) baseline the incremental search is measured against, and the answer
    /// when the vehicle is lost. Only an explicit `heading` is used (no direction of movement).
    public func fullSearch(_ location: GeoPoint, heading: Double? = nil) -> RouteMatch {
        let search = SegmentSearch(location: location, heading: heading.flatMap(Self.unitVector), options: options)
        let outcome = searchWholeRoute(search)
        if let chosen = outcome.chosen {
            return match(for: chosen, location: location, usedFullSearch: true)
        }
        return offRouteMatch(location: location, nearest: outcome.nearest)
    }

    /// Scans every segment, starting one behind the last match and wrapping around to the route's start, so that
    /// "earliest" means "smallest jump forward".
    private func searchWholeRoute(_ search: SegmentSearch) -> SegmentSearch.Outcome {
        let start = max(0, segmentIndex - 1)
        return route.frames.withUnsafeBufferPointer { frames in
            route.cumulativeMeters.withUnsafeBufferPointer { cumulative in
                search.run(frames: frames, cumulative: cumulative, first: start..<frames.count,
                           limitMeters: .infinity, maximumSegments: Int.max, second: 0..<start)
            }
        }
    }

    /// Records an on-route match as the new progress.
    private mutating func commit(_ chosen: SegmentSearch.Candidate, location: GeoPoint,
                                 usedFullSearch: Bool) -> RouteMatch {
        let result = match(for: chosen, location: location, usedFullSearch: usedFullSearch)
        segmentIndex = chosen.index
        fraction = chosen.fraction
        travelledMeters = result.travelledMeters
        return result
    }

    /// The on-route match for a chosen segment.
    private func match(for chosen: SegmentSearch.Candidate, location: GeoPoint, usedFullSearch: Bool) -> RouteMatch {
        let snapped = route.point(onSegment: chosen.index, fraction: chosen.fraction)
        let travelled = route.meters(onSegment: chosen.index, fraction: chosen.fraction)
        return RouteMatch(location: location, segmentIndex: chosen.index, fraction: chosen.fraction,
                          snappedPoint: snapped, travelledMeters: travelled,
                          remainingMeters: max(0, route.totalMeters - travelled),
                          offRouteMeters: Geodesy.distance(location, snapped),
                          isOffRoute: false, usedFullSearch: usedFullSearch)
    }

    /// The off-route answer: progress kept at the last on-route match, distance to the nearest route point.
    private func offRouteMatch(location: GeoPoint, nearest: SegmentSearch.Candidate?) -> RouteMatch {
        let nearestPoint = nearest.map { route.point(onSegment: $0.index, fraction: $0.fraction) } ?? route.start
        return RouteMatch(location: location, segmentIndex: segmentIndex, fraction: fraction,
                          snappedPoint: route.point(onSegment: segmentIndex, fraction: fraction),
                          travelledMeters: travelledMeters,
                          remainingMeters: max(0, route.totalMeters - travelledMeters),
                          offRouteMeters: Geodesy.distance(location, nearestPoint),
                          isOffRoute: true, usedFullSearch: true)
    }

    /// The direction of travel as a unit vector (east, north): the reported heading, else the direction moved since
    /// the previous update when that move is long enough to mean something, else nil.
    private func travelDirection(to location: GeoPoint, heading: Double?) -> (east: Double, north: Double)? {
        if let heading, heading.isFinite { return Self.unitVector(heading) }
        guard let previous = previousLocation else { return nil }
        let frame = route.frames[min(segmentIndex, route.frames.count - 1)]
        let north = (location.latitude - previous.latitude) * Geodesy.metersPerDegree
        let east = Angles.wrappedLongitudeDelta(location.longitude - previous.longitude)
            * frame.metersPerDegreeLongitude
        let moved = (east * east + north * north).squareRoot()
        guard moved >= options.minimumMovementForHeadingMeters, moved > 0 else { return nil }
        return (east / moved, north / moved)
    }

    /// A heading in degrees as a unit vector (east, north); nil for a non-finite heading.
    private static func unitVector(_ heading: Double) -> (east: Double, north: Double)? {
        guard heading.isFinite else { return nil }
        let radians = Angles.radians(heading)
        return (sin(radians), cos(radians))
    }
}
