/// One reported position of a drive: where the vehicle was, and when (epoch seconds).
public struct Fix: Sendable, Hashable {
    /// When the position was reported, seconds on the drive's clock (epoch seconds in trace files).
    public var time: Double
    /// Where the vehicle was.
    public var position: GeoPoint

    /// Creates a fix.
    public init(time: Double, position: GeoPoint) {
        self.time = time
        self.position = position
    }
}
