import FleetGeo

/// A fix of a drive and how far along the drive's path (the fixes joined by straight segments) it lies from the first,
/// metres.
struct PathPoint {
    var fix: Fix
    var meters: Double
}

/// Where ``DriveLearner`` gathers a drive's points before cutting it.
protocol DrivePath {
    /// The points gathered.
    var count: Int { get }
    /// The point at `index` (0 ..< `count`).
    subscript(index: Int) -> PathPoint { get }
    /// Adds a point after the last.
    mutating func append(_ point: PathPoint)
    /// Forgets every point.
    mutating func clear()
}

/// A history's drives are gathered in one array, kept for the next drive.
extension Array: DrivePath where Element == PathPoint {
    mutating func clear() { removeAll(keepingCapacity: true) }
}

/// A live interval's path: at most three points (the anchor, the standing fix, the new fix) held inline, so cutting it
/// on a location update builds no array.
struct ShortPath: DrivePath {
    private var points = InlineArray<3, PathPoint>(repeating: PathPoint(fix: Fix(time: 0, position: GeoPoint(latitude: 0, longitude: 0)),
                                                                        meters: 0))
    private(set) var count = 0

    subscript(index: Int) -> PathPoint { points[index] }

    mutating func append(_ point: PathPoint) {
        points[count] = point
        count += 1
    }

    mutating func clear() { count = 0 }
}
