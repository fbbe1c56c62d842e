import Foundation
import FleetConcurrency
import FleetErrors
import FleetInterface
import FleetModel
import FleetStore

extension Engine: TripWatching {
    /// How often feeds re-read the store when nothing in this process signalled: other processes
    /// sharing the store (SQLite) cannot wake them.
    static let watchPollSeconds = 1.0

    /// Starts watching a trip without holding a thread: `onUpdate` gets the trip (as `GetTrip` with
    /// `request` returns it) once soon after the call and then after every change, on a shared queue,
    /// in order, until it returns false or the observation is cancelled. If the trip can no longer be
    /// read (deleted, store failure) `onEnd` gets the error and the deliveries stop.
    ///
    /// Watches of the same request share one feed: one read and one snapshot per change for all.
    /// - Throws: what `GetTrip` would (a bad name, NOT_FOUND), before anything is delivered.
    public func observeTrip(_ request: GetTripRequest,
                            onUpdate: @escaping @Sendable (TripSnapshot) -> Bool,
                            onEnd: @escaping @Sendable (FleetError) -> Void) throws -> TripObservation {
        try Validate.values(of: request)
        let name = try TripName(parsing: request.name ?? "", field: "name")
        _ = try requireTrip(tripKey(name))
        let observation = TripObservation(onUpdate: onUpdate, onEnd: onEnd)
        feeds.attach(observation, request: request, tripKey: tripKey(name), engine: self)
        return observation
    }

    /// Blocks, calling `onUpdate` with each new state of the trip, until `cancellation` is cancelled
    /// or the trip can no longer be read (thrown). Built on `observeTrip`.
    public func watchTrip(_ request: GetTripRequest, cancellation: Cancellation, onUpdate: (Trip) throws -> Void) throws {
        let mailbox = Mailbox<TripMailboxItem>()
        let observation = try observeTrip(request,
                                          onUpdate: { snapshot in mailbox.put(.trip(snapshot.trip)) },
                                          onEnd: { error in _ = mailbox.put(.end(error)) })
        defer { observation.cancel() }
        cancellation.onCancel { mailbox.close() }
        while let item = mailbox.take() {
            switch item {
            case .trip(let trip): try onUpdate(trip)
            case .end(let error): throw error
            }
        }
    }
}

/// What a blocking watcher's mailbox (`Mailbox`, bounded: a watcher that falls behind skips to the
/// newest state) holds: each delivery is a whole trip, or the error that ended the feed.
enum TripMailboxItem: Sendable {
    case trip(Trip)
    case end(FleetError)
}
