import FleetModel

/// The vehicle's last reported position as a follower shows it: where, which way, how fast and how
/// precisely. Read from a trip's `lastLocation` (`VehicleLocation`)
/// or a shipment's `vehicleLocation` (`DeliveryVehicleLocation`), which carry the same fields.
public struct VehicleFix: Sendable, Hashable {
    /// Where the vehicle is.
    public var location: LatLng
    /// Its heading in degrees from north, clockwise (0–359), when reported.
    public var heading: Int32?
    /// Its speed in metres a second, when reported.
    public var speed: Double?
    /// The radius of the position's uncertainty in metres (`latlngAccuracy`, else the older
    /// `horizontalAccuracy`), when reported.
    public var accuracy: Double?

    /// A fix.
    public init(location: LatLng, heading: Int32? = nil, speed: Double? = nil, accuracy: Double? = nil) {
        self.location = location
        self.heading = heading
        self.speed = speed
        self.accuracy = accuracy
    }

    /// The fix of a ride-sharing vehicle location; nil without a position.
    public init?(_ reported: VehicleLocation?) {
        guard let reported, let location = reported.location else { return nil }
        self.init(location: location, heading: reported.heading, speed: reported.speed,
                  accuracy: reported.latlngAccuracy ?? reported.horizontalAccuracy)
    }

    /// The fix of a delivery vehicle location; nil without a position.
    public init?(_ reported: DeliveryVehicleLocation?) {
        guard let reported, let location = reported.location else { return nil }
        self.init(location: location, heading: reported.heading, speed: reported.speed,
                  accuracy: reported.latlngAccuracy ?? reported.horizontalAccuracy)
    }
}
