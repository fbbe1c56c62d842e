/// The kind of vehicle, which sets its default speed: Fleet Engine's `Vehicle.VehicleType.Category`.
/// Raw values are the Fleet Engine JSON names.
public enum VehicleCategory: String, Sendable, Hashable, CaseIterable {
    /// Category not given.
    case unknown = "UNKNOWN"
    /// A car.
    case auto = "AUTO"
    /// A licensed taxi.
    case taxi = "TAXI"
    /// A truck or van.
    case truck = "TRUCK"
    /// A motorcycle, moped or scooter.
    case twoWheeler = "TWO_WHEELER"
    /// A bicycle.
    case bicycle = "BICYCLE"
    /// A person on foot.
    case pedestrian = "PEDESTRIAN"
}
