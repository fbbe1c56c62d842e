import FleetErrors
import FleetModel
import Synchronization

/// A message as a watch delivers it: a trip, a task, or a shipment's tracking info, as the matching
/// Get call returns it. One snapshot goes to every watcher of the same request, so its JSON is
/// encoded once however many watch.
public final class WatchSnapshot<Message: ProtoMessage>: Sendable {
    /// The message, as the Get call with the watch's request returns it.
    public let message: Message
    private let encoded = Mutex<String?>(nil)

    public init(_ message: Message) { self.message = message }

    /// The message's proto3 JSON, encoded on first use.
    public var json: String {
        encoded.withLock { text in
            if let text { return text }
            let made = message.jsonString()
            text = made
            return made
        }
    }
}

/// A trip as a trip watch delivers it.
public typealias TripSnapshot = WatchSnapshot<Trip>
/// A task as a task watch delivers it.
public typealias TaskSnapshot = WatchSnapshot<DeliveryTask>
/// A shipment's tracking info as a tracking ID's watch delivers it.
public typealias TaskTrackingInfoSnapshot = WatchSnapshot<TaskTrackingInfo>

extension WatchSnapshot where Message == Trip {
    /// The trip, as `GetTrip` with the watch's request returns it.
    public var trip: Trip { message }
}

/// A watch started by `TripObserving.observeTrip` or `TaskObserving`'s calls: cancel it to stop the
/// deliveries.
public final class WatchObservation<Message: ProtoMessage>: Sendable {
    package let onUpdate: @Sendable (WatchSnapshot<Message>) -> Bool
    package let onEnd: @Sendable (FleetError) -> Void
    /// Whether the first snapshot (sent whatever changed) has gone out.
    package let hasInitial = Atomic(false)
    package let isCancelled = Atomic(false)
    private let detach = Mutex<(@Sendable () -> Void)?>(nil)

    public init(onUpdate: @escaping @Sendable (WatchSnapshot<Message>) -> Bool, onEnd: @escaping @Sendable (FleetError) -> Void) {
        self.onUpdate = onUpdate
        self.onEnd = onEnd
    }

    /// Stops the deliveries (one already under way may still arrive). Safe to call more than once.
    public func cancel() {
        guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        detach.withLock { $0.take() }?()
    }

    /// Ends the watch with an error (its feed failed to read the message): stops it, then tells the watcher.
    package func end(with error: FleetError) {
        guard !isCancelled.load(ordering: .acquiring) else { return }
        cancel()
        onEnd(error)
    }

    /// What `cancel()` runs to take the watch off its feed; at once if already cancelled.
    package func setDetach(_ body: @escaping @Sendable () -> Void) {
        detach.withLock { $0 = body }
        if isCancelled.load(ordering: .acquiring) { detach.withLock { $0.take() }?() }
    }
}

/// A trip watch (`TripObserving.observeTrip`).
public typealias TripObservation = WatchObservation<Trip>
/// A task watch (`TaskObserving.observeTask`).
public typealias TaskObservation = WatchObservation<DeliveryTask>
/// A tracking ID's watch (`TaskObserving.observeTaskTrackingInfo`).
public typealias TaskTrackingInfoObservation = WatchObservation<TaskTrackingInfo>

/// One vehicle as a vehicles watch delivers it: the vehicle as `GetVehicle` returns it, or only its
/// name when it was deleted.
public struct VehicleChange: Sendable {
    /// `providers/{p}/vehicles/{v}`.
    public let name: String
    /// The vehicle; nil when it was deleted.
    public let vehicle: Vehicle?
    /// The vehicle's proto3 JSON, encoded once for every watcher; nil when it was deleted.
    public let json: String?

    public init(name: String, vehicle: Vehicle?, json: String?) {
        self.name = name
        self.vehicle = vehicle
        self.json = json
    }
}

/// A watch started by `VehicleObserving.observeVehicles`: cancel it to stop the deliveries.
public final class VehicleObservation: Sendable {
    package let onUpdate: @Sendable (_ changes: [VehicleChange], _ isInitial: Bool) -> Bool
    package let isCancelled = Atomic(false)
    private let detach = Mutex<(@Sendable () -> Void)?>(nil)

    public init(onUpdate: @escaping @Sendable ([VehicleChange], Bool) -> Bool) {
        self.onUpdate = onUpdate
    }

    /// Stops the deliveries (one already under way may still arrive). Safe to call more than once.
    public func cancel() {
        guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        detach.withLock { $0.take() }?()
    }

    /// What `cancel()` runs to take the watch off its feed; at once if already cancelled.
    package func setDetach(_ body: @escaping @Sendable () -> Void) {
        detach.withLock { $0 = body }
        if isCancelled.load(ordering: .acquiring) { detach.withLock { $0.take() }?() }
    }
}
