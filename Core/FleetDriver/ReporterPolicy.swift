import FleetGeo
import FleetBackoff

/// The reporter's settings; the defaults are the Driver SDK's where it has one.
public struct ReporterPolicy: Sendable, Hashable {
    /// How often updates go out.
    public var interval: ReportingInterval
    /// The waits after retryable failures while tracking: from the interval up to `maximumBackoffSeconds`.
    public var maximumBackoffSeconds: Double
    /// The waits between attempts of the final OFFLINE update (and of one-shot state changes).
    public var finalBackoff: Backoff
    /// Locations implying a speed above this are dropped as jumps, metres per second.
    public var maximumMetersPerSecond: Double
    /// How often the vehicle's waypoints (a delivery vehicle's stops) are read again from the engine while
    /// navigating, seconds (0: only the first read, which comes before any route is sent).
    public var waypointRefreshSeconds: Double
    /// The seed of the backoff jitter (nil: random).
    public var jitterSeed: UInt64?

    /// A policy; every setting has a default.
    public init(interval: ReportingInterval = ReportingInterval(), maximumBackoffSeconds: Double = 60,
                finalBackoff: Backoff = Backoff(initialSeconds: 1, maximumSeconds: 8),
                maximumMetersPerSecond: Double = SpeedModel.standard.maximumPlausibleMetersPerSecond,
                waypointRefreshSeconds: Double = 30, jitterSeed: UInt64? = nil) {
        self.interval = interval
        self.maximumBackoffSeconds = maximumBackoffSeconds
        self.finalBackoff = finalBackoff
        self.maximumMetersPerSecond = maximumMetersPerSecond
        self.waypointRefreshSeconds = waypointRefreshSeconds
        self.jitterSeed = jitterSeed
    }

    /// The backoff while tracking: first retry after one interval, doubling up to `maximumBackoffSeconds`.
    public var trackingBackoff: Backoff {
        Backoff(initialSeconds: interval.seconds, maximumSeconds: maximumBackoffSeconds)
    }
}
