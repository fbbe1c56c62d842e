import FleetInterface
import FleetErrors
import FleetModel
import Synchronization

/// Receives the trip as it changes from a transport that pushes changes (`TripWatching`: the
/// in-process engine of the memory and file transports, or the HTTP client reading the server's
/// `:watch` event stream). Nothing is polled.
///
/// When the server has no watch stream (it answers UNIMPLEMENTED, as Google's does) and a polling
/// interval is given, the source polls `GetTrip` instead, from then on.
public struct WatchSource: TripSnapshotSource {
    /// The watching transport.
    public let watcher: any TripWatching
    /// The polling interval to fall back to when the server cannot watch; nil: report the error.
    public let fallbackIntervalSeconds: Double?
    private let watchUnsupported = WatchSupport()

    /// Watches through `watcher`; polls every `fallbackIntervalSeconds` if the server cannot watch.
    public init(watcher: any TripWatching, fallbackIntervalSeconds: Double? = nil) {
        self.watcher = watcher
        self.fallbackIntervalSeconds = fallbackIntervalSeconds
    }

    /// Opens one watch with the follower's current versions and delivers every trip it pushes,
    /// until stopped or the watch fails.
    public func snapshots(request: () -> GetTripRequest, clock: any FollowClock, stop: StopSignal,
                          deliver: (Trip) -> Void) throws {
        if let interval = fallbackIntervalSeconds, watchUnsupported.isKnown {
            return try PollingSource(api: watcher, intervalSeconds: interval)
                .snapshots(request: request, clock: clock, stop: stop, deliver: deliver)
        }
        do {
            try watcher.watchTrip(request(), cancellation: stop.cancellation) { trip in
                guard !stop.isStopped else { return }
                deliver(trip)
            }
        } catch let error as FleetError where error.code == .unimplemented && fallbackIntervalSeconds != nil {
            watchUnsupported.learn()
            try snapshots(request: request, clock: clock, stop: stop, deliver: deliver)
        }
    }
}

/// Remembers that the server has no watch stream, across runs of one source.
private final class WatchSupport: Sendable {
    private let unsupported = Mutex(false)

    var isKnown: Bool { unsupported.withLock { $0 } }

    func learn() { unsupported.withLock { $0 = true } }
}
