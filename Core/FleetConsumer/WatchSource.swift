import FleetInterface
import FleetConcurrency
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
    private let support = WatchSupport()

    /// Watches through `watcher`; polls every `fallbackIntervalSeconds` if the server cannot watch.
    public init(watcher: any TripWatching, fallbackIntervalSeconds: Double? = nil) {
        self.watcher = watcher
        self.fallbackIntervalSeconds = fallbackIntervalSeconds
    }

    /// Opens one watch with the follower's current versions and delivers every trip it pushes,
    /// until stopped or the watch fails.
    public func snapshots(request: () -> GetTripRequest, clock: any FollowClock, stop: StopSignal,
                          deliver: (Trip) -> Void) throws {
        let watcher = watcher
        try Self.snapshots(request: request, clock: clock, stop: stop, fallbackIntervalSeconds: fallbackIntervalSeconds, support: support,
                           watch: { try watcher.watchTrip($0, cancellation: $1, onUpdate: $2) },
                           fetch: { try watcher.getTrip($0) }, deliver: deliver)
    }

    /// Opens one watch through `watch` and delivers every snapshot it pushes, until stopped or the
    /// watch fails. When the server has no watch stream (UNIMPLEMENTED) and `fallbackIntervalSeconds`
    /// is given, polls `fetch` every that many seconds instead, from then on (`support` remembers it
    /// across runs of the source). The watching of every follower (trips, shipments).
    static func snapshots<Request, Snapshot>(
        request: () -> Request, clock: any FollowClock, stop: StopSignal, fallbackIntervalSeconds: Double?, support: WatchSupport,
        watch: (Request, Cancellation, (Snapshot) throws -> Void) throws -> Void,
        fetch: (Request) throws -> Snapshot, deliver: (Snapshot) -> Void
    ) throws {
        if let interval = fallbackIntervalSeconds, support.isKnown {
            return try PollingSource.poll(every: interval, clock: clock, stop: stop, fetch: { try fetch(request()) }, deliver: deliver)
        }
        do {
            // The watch calls back on this thread, before it returns: `deliver` does not escape.
            try withoutActuallyEscaping(deliver) { deliver in
                try watch(request(), stop.cancellation) { snapshot in
                    guard !stop.isStopped else { return }
                    deliver(snapshot)
                }
            }
        } catch let error as FleetError where error.code == .unimplemented && fallbackIntervalSeconds != nil {
            support.learn()
            try snapshots(request: request, clock: clock, stop: stop, fallbackIntervalSeconds: fallbackIntervalSeconds, support: support,
                          watch: watch, fetch: fetch, deliver: deliver)
        }
    }
}

/// Remembers that the server has no watch stream, across runs of one source.
final class WatchSupport: Sendable {
    private let unsupported = Mutex(false)

    var isKnown: Bool { unsupported.withLock { $0 } }

    func learn() { unsupported.withLock { $0 = true } }
}
