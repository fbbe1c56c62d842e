import Foundation
import FleetConcurrency
import FleetErrors
import FleetInterface
import FleetModel
import FleetStore

extension Engine: TripWatching, TaskObserving, TaskWatching {
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
        try observe(request, onUpdate: onUpdate, onEnd: onEnd)
    }

    /// Starts watching a task without holding a thread: `onUpdate` gets the task (as `GetTask` with
    /// `request` returns it) once soon after the call and then after every change of it — its own
    /// fields, its assignment, and its vehicle's location and stops up to the task's — on a shared
    /// queue, in order, until it returns false or the observation is cancelled. If the task can no
    /// longer be read (deleted, store failure) `onEnd` gets the error and the deliveries stop.
    ///
    /// Watches of the same task share one feed: one read and one snapshot per change for all.
    /// - Throws: what `GetTask` would (a bad name, NOT_FOUND), before anything is delivered.
    public func observeTask(_ request: GetTaskRequest,
                            onUpdate: @escaping @Sendable (TaskSnapshot) -> Bool,
                            onEnd: @escaping @Sendable (FleetError) -> Void) throws -> TaskObservation {
        try observe(request, onUpdate: onUpdate, onEnd: onEnd)
    }

    /// Starts watching a shipment by its tracking ID without holding a thread: `onUpdate` gets its
    /// tracking info (as `GetTaskTrackingInfo` with `request` returns it) once soon after the call and
    /// then after every change of what it shows — a task of the tracking ID changing, added or removed,
    /// the vehicle of an open one moving or changing its stops — on a shared queue, in order, until it
    /// returns false or the observation is cancelled. Arrival and completion times moving with the
    /// clock alone are no change. If no task carries the tracking ID any more `onEnd` gets NOT_FOUND
    /// and the deliveries stop.
    ///
    /// Watches of the same tracking ID share one feed: one read and one snapshot per change for all.
    /// - Throws: what `GetTaskTrackingInfo` would (a bad name, NOT_FOUND), before anything is delivered.
    public func observeTaskTrackingInfo(_ request: GetTaskTrackingInfoRequest,
                                        onUpdate: @escaping @Sendable (TaskTrackingInfoSnapshot) -> Bool,
                                        onEnd: @escaping @Sendable (FleetError) -> Void) throws -> TaskTrackingInfoObservation {
        try observe(request, onUpdate: onUpdate, onEnd: onEnd)
    }

    /// Blocks, calling `onUpdate` with each new state of the trip, until `cancellation` is cancelled
    /// or the trip can no longer be read (thrown). Built on `observeTrip`.
    public func watchTrip(_ request: GetTripRequest, cancellation: Cancellation, onUpdate: (Trip) throws -> Void) throws {
        try watch(request, cancellation: cancellation, onUpdate: onUpdate)
    }

    /// Blocks, calling `onUpdate` with each new state of the task, until `cancellation` is cancelled
    /// or the task can no longer be read (thrown). Built on `observeTask`.
    public func watchTask(_ request: GetTaskRequest, cancellation: Cancellation, onUpdate: (DeliveryTask) throws -> Void) throws {
        try watch(request, cancellation: cancellation, onUpdate: onUpdate)
    }

    /// Blocks, calling `onUpdate` with each new tracking info of the shipment, until `cancellation` is
    /// cancelled or no task carries the tracking ID any more (thrown). Built on `observeTaskTrackingInfo`.
    public func watchTaskTrackingInfo(_ request: GetTaskTrackingInfoRequest, cancellation: Cancellation,
                                      onUpdate: (TaskTrackingInfo) throws -> Void) throws {
        try watch(request, cancellation: cancellation, onUpdate: onUpdate)
    }

    /// Opens (or joins) the feed of `request` for a new watcher.
    func observe<Request: WatchedRequest>(_ request: Request,
                                          onUpdate: @escaping @Sendable (WatchSnapshot<Request.Message>) -> Bool,
                                          onEnd: @escaping @Sendable (FleetError) -> Void) throws -> WatchObservation<Request.Message> {
        let key = try request.watchedKey(in: self)
        let observation = WatchObservation(onUpdate: onUpdate, onEnd: onEnd)
        feeds.attach(observation, request: request, key: key, engine: self)
        return observation
    }

    /// A blocking watch over `observe`: the feed's deliveries go through a mailbox to this thread.
    func watch<Request: WatchedRequest>(_ request: Request, cancellation: Cancellation,
                                        onUpdate: (Request.Message) throws -> Void) throws {
        let mailbox = Mailbox<WatchMailboxItem<Request.Message>>()
        let observation = try observe(request,
                                      onUpdate: { snapshot in mailbox.put(.message(snapshot.message)) },
                                      onEnd: { error in _ = mailbox.put(.end(error)) })
        defer { observation.cancel() }
        cancellation.onCancel { mailbox.close() }
        while let item = mailbox.take() {
            switch item {
            case .message(let message): try onUpdate(message)
            case .end(let error): throw error
            }
        }
    }
}

/// What a blocking watcher's mailbox (`Mailbox`, bounded: a watcher that falls behind skips to the
/// newest state) holds: each delivery is a whole message, or the error that ended the feed.
enum WatchMailboxItem<Message: Sendable>: Sendable {
    case message(Message)
    case end(FleetError)
}
