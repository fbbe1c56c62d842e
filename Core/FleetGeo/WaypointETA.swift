/// The remaining distance and time to one waypoint: one element of ``ETAEstimator``'s answers, in waypoint order.
public struct WaypointETA: Sendable, Hashable {
    /// Distance still to drive to the waypoint, metres (0 once reached or passed).
    public var remainingMeters: Double
    /// Time still to drive to the waypoint, seconds (0 once reached or passed).
    public var remainingSeconds: Double
    /// When the vehicle should arrive: `now + remainingSeconds`, in the caller's time base (epoch seconds).
    public var arrivalTime: Double
    /// True when the distance is not along a known route (no route, off route, or beyond the route's end) but a
    /// great-circle distance times the detour factor.
    public var isEstimate: Bool

    /// Creates an ETA.
    public init(remainingMeters: Double, remainingSeconds: Double, arrivalTime: Double, isEstimate: Bool) {
        self.remainingMeters = remainingMeters
        self.remainingSeconds = remainingSeconds
        self.arrivalTime = arrivalTime
        self.isEstimate = isEstimate
    }
}
