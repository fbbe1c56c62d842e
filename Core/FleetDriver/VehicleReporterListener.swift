import FleetErrors
import FleetLocation
import FleetModel

/// Hears what the reporter does, as the Driver SDK's `VehicleReporterListener` hears "update succeeded"
/// and "update failed with error". Called on the reporting thread, after the state is updated; keep it quick.
public protocol VehicleReporterListener: Sendable {
    /// The server acknowledged an update.
    func reporterDidSucceed(_ attempt: UpdateAttempt)
    /// An update failed. `retryInSeconds` is when the next attempt is due (nil when none will be made).
    func reporterDidFail(_ attempt: UpdateAttempt, error: FleetError, retryInSeconds: Double?)
    /// A location was dropped as an impossible jump.
    func reporterDidDropJump(_ sample: LocationSample, metersPerSecond: Double, meters: Double)
    /// The vehicle's waypoints were read from the engine (for navigation); nil error when it worked.
    func reporterDidRefreshWaypoints(_ waypoints: [TripWaypoint], error: FleetError?)
    /// The counters changed (after every update, location and state change).
    func reporterStatisticsDidChange(_ statistics: ReporterStatistics)
}

extension VehicleReporterListener {
    /// Does nothing.
    public func reporterDidDropJump(_ sample: LocationSample, metersPerSecond: Double, meters: Double) {}
    /// Does nothing.
    public func reporterDidRefreshWaypoints(_ waypoints: [TripWaypoint], error: FleetError?) {}
    /// Does nothing.
    public func reporterStatisticsDidChange(_ statistics: ReporterStatistics) {}
}
