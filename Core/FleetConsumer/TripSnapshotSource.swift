import FleetInterface
import FleetModel

/// Where a follower gets snapshots of a trip: by polling `GetTrip`, from a push watch, or (for HTTP)
/// from the server's event stream. The follower's logic — merging, diffing, errors, stopping — is
/// the same whatever the source.
///
/// A source runs until `stop` is given (then it returns) or a call fails (then it throws the
/// `FleetError`); the follower decides whether and when to run it again. A source that ends by
/// itself while not stopped (a stream the server closed) is treated as ABORTED (`STREAM_ABORTED`, as
/// the HTTP client reports a watch the server ended) and restarted.
public protocol TripSnapshotSource: Sendable {
    /// Delivers snapshots of the trip until `stop` is given, or throws the error of a failed call.
    ///
    /// - Parameters:
    ///   - request: the `GetTrip` request to send next, carrying the versions of what the follower
    ///     already holds; ask for it again before each call (a stream asks once, when it opens).
    ///   - clock: the follower's clock, for waiting between calls.
    ///   - stop: given when following should end; waits and blocking calls must return early.
    ///   - deliver: called on the calling thread with each snapshot, in order.
    func snapshots(request: () -> GetTripRequest, clock: any FollowClock, stop: StopSignal,
                   deliver: (Trip) -> Void) throws
}
