import FleetErrors
import FleetModel
import Synchronization

/// A trip as a watch delivers it. One snapshot goes to every watcher of the same request, so its
/// JSON is encoded once however many watch.
public final class TripSnapshot: Sendable {
    /// The trip, as `GetTrip` with the watch's request returns it.
    public let trip: Trip
    private let encoded = Mutex<String?>(nil)

    public init(_ trip: Trip) { self.trip = trip }

    /// The trip's proto3 JSON, encoded on first use.
    public var json: String {
        encoded.withLock { text in
            if let text { return text }
            let made = trip.jsonString()
            text = made
            return made
        }
    }
}

/// A watch started by `TripObserving.observeTrip`: cancel it to stop the deliveries.
public final class TripObservation: Sendable {
    package let onUpdate: @Sendable (TripSnapshot) -> Bool
    package let onEnd: @Sendable (FleetError) -> Void
    /// Whether the first snapshot (sent whatever changed) has gone out.
    package let hasInitial = Atomic(false)
    package let isCancelled = Atomic(false)
    private let detach = Mutex<(@Sendable () -> Void)?>(nil)

    public init(onUpdate: @escaping @Sendable (TripSnapshot) -> Bool, onEnd: @escaping @Sendable (FleetError) -> Void) {
        self.onUpdate = onUpdate
        self.onEnd = onEnd
    }

    /// Stops the deliveries (one already under way may still arrive). Safe to call more than once.
    public func cancel() {
        guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        detach.withLock { $0.take() }?()
    }

    /// Ends the watch with an error (its feed failed to read the trip): stops it, then tells the watcher.
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
