import FleetErrors
import FleetGeo
import FleetLocation
import FleetModel

/// What became of a delivery vehicle's stop change (`StopProgress`).
public enum StopEvent: Sendable {
    /// The engine acknowledged the change; `remaining` is the stop list it answered with.
    case changed(StopChange, remaining: [VehicleJourneySegment])
    /// Reading or writing the stops failed; the change is decided again after `retryInSeconds`, or
    /// never when nil (the token may not change stops: the reporter leaves them alone from now on).
    case failed(StopChange, error: FleetError, retryInSeconds: Double?)
    /// The list had changed on the server (the provider added, removed or reordered stops, or changed
    /// the stop's state) so the change no longer applied: nothing was written, and `current` (the list as
    /// read) is followed from now on.
    case superseded(StopChange, current: [VehicleJourneySegment])
}

/// Hears what the reporter does, as the Driver SDK's `VehicleReporterListener` hears "update succeeded"
/// and "update failed with error". Called on the reporting thread, after the state is updated; keep it quick.
public protocol VehicleReporterListener: Sendable {
    /// The server acknowledged an update.
    func reporterDidSucceed(_ attempt: UpdateAttempt)
    /// An update failed. `retryInSeconds` is when the next attempt is due (nil when none will be made).
    func reporterDidFail(_ attempt: UpdateAttempt, error: FleetError, retryInSeconds: Double?)
    /// A location was dropped as an impossible jump.
    func reporterDidDropJump(_ sample: LocationSample, metersPerSecond: Double, meters: Double)
    /// The vehicle's waypoints or stops were read from the engine (for navigation); nil error when it worked.
    func reporterDidReadItinerary(_ destinations: [Destination], error: FleetError?)
    /// The navigator planned a new leg (to the next waypoint or stop): a simulated drive follows it.
    func reporterDidPlanLeg(_ leg: PlannedLeg)
    /// A delivery vehicle's stop change was written, failed, or was superseded by the server's list.
    func reporterDidReportStop(_ event: StopEvent)
    /// The counters changed (after every update, location and state change).
    func reporterStatisticsDidChange(_ statistics: ReporterStatistics)
}

extension VehicleReporterListener {
    /// Does nothing.
    public func reporterDidDropJump(_ sample: LocationSample, metersPerSecond: Double, meters: Double) {}
    /// Does nothing.
    public func reporterDidReadItinerary(_ destinations: [Destination], error: FleetError?) {}
    /// Does nothing.
    public func reporterDidPlanLeg(_ leg: PlannedLeg) {}
    /// Does nothing.
    public func reporterDidReportStop(_ event: StopEvent) {}
    /// Does nothing.
    public func reporterStatisticsDidChange(_ statistics: ReporterStatistics) {}
}
