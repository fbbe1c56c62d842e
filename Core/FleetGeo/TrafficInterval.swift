/// The traffic on a stretch of route given by route point indices: Fleet Engine's `SpeedReadingInterval`.
public struct TrafficInterval: Sendable, Hashable {
    /// Index of the route point where the stretch starts (`startPolylinePointIndex`).
    public var startPointIndex: Int
    /// Index of the route point where the stretch ends (`endPolylinePointIndex`); the stretch covers the segments
    /// between the two points.
    public var endPointIndex: Int
    /// How fast traffic moves on it.
    public var speed: TrafficSpeed

    /// Creates an interval.
    public init(startPointIndex: Int, endPointIndex: Int, speed: TrafficSpeed) {
        self.startPointIndex = startPointIndex
        self.endPointIndex = endPointIndex
        self.speed = speed
    }
}
