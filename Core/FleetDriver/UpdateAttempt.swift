import FleetModel

/// One update call (UpdateVehicle, or UpdateDeliveryVehicle with the location) as the listener hears of it.
public struct UpdateAttempt: Sendable, Hashable {
    /// The fields sent (the update mask).
    public var mask: FieldMask
    /// The state sent, if the mask names it.
    public var state: VehicleState?
    /// The location sent, if the mask names it.
    public var location: VehicleLocation?
    /// Whether this is the final update (OFFLINE, a delivery vehicle's last location, or a one-shot `--state`).
    public var isFinal: Bool
    /// Failures in a row before this attempt.
    public var previousFailures: Int

    /// An attempt.
    public init(mask: FieldMask, state: VehicleState?, location: VehicleLocation?, isFinal: Bool, previousFailures: Int) {
        self.mask = mask
        self.state = state
        self.location = location
        self.isFinal = isFinal
        self.previousFailures = previousFailures
    }
}
