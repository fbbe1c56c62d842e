import FleetInterface
import FleetModel

/// Polls `GetTrip` at a fixed interval: the Consumer SDK's way, and the fallback for transports
/// that cannot push changes.
///
/// Each call sends the versions of the route, traffic and waypoint paths the follower holds, so the
/// server leaves out what has not changed.
public struct PollingSource: TripSnapshotSource {
    /// The Fleet Engine calls.
    public let api: any FleetAPI
    /// Seconds between the start of one wait and the next call.
    public let intervalSeconds: Double

    /// Polls `api` every `intervalSeconds`.
    public init(api: any FleetAPI, intervalSeconds: Double) {
        self.api = api
        self.intervalSeconds = intervalSeconds
    }

    /// Calls `GetTrip`, delivers the trip, waits the interval; again until stopped or a call fails.
    public func snapshots(request: () -> GetTripRequest, clock: any FollowClock, stop: StopSignal,
                          deliver: (Trip) -> Void) throws {
        try Self.poll(every: intervalSeconds, clock: clock, stop: stop, fetch: { try api.getTrip(request()) }, deliver: deliver)
    }

    /// Calls `fetch`, delivers its answer, waits `seconds`; again until stopped or a call fails. The
    /// polling of every follower (GetTrip, GetTaskTrackingInfo).
    static func poll<Snapshot>(every seconds: Double, clock: any FollowClock, stop: StopSignal,
                               fetch: () throws -> Snapshot, deliver: (Snapshot) -> Void) throws {
        while !stop.isStopped {
            let snapshot = try fetch()
            guard !stop.isStopped else { return }
            deliver(snapshot)
            guard !stop.isStopped else { return }
            clock.sleep(seconds: seconds, stop: stop)
        }
    }
}
