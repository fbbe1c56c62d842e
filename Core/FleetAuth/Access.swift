/// How far a role may use a method: the cells of `Authorizer.matrix`.
public enum Access: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Never (PERMISSION_DENIED).
    case denied
    /// Only on the vehicle the token's `authorization.vehicleid` names (or `*`); on a Deliveries
    /// method, the delivery vehicle `authorization.deliveryvehicleid` names.
    case ownVehicle = "own vehicle"
    /// Only on the trip the token's `authorization.tripid` names (or `*`).
    case ownTrip = "own trip"
    /// Only on the task the token's `authorization.taskid` names (or `*`).
    case ownTask = "own task"
    /// Only on the shipment the token's `authorization.trackingid` names (or `*`).
    case ownTracking = "own shipment"
    /// On any resource of the provider (still narrowed by a specific ID in the token's claim for that
    /// kind of resource).
    case any

    /// The cell text in documentation tables: `denied`, `own vehicle`, `own trip`, `own task`,
    /// `own shipment`, `any`.
    public var description: String { rawValue }

    /// Whether this access allows everything `other` allows (`any` covers the scoped ones; the scoped
    /// ones do not cover each other; everything covers `denied`).
    public func covers(_ other: Access) -> Bool {
        switch (self, other) {
        case (_, .denied), (.any, _): true
        default: self == other
        }
    }
}
