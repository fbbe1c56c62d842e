import FleetGeo
import FleetModel

/// One position fix from a location source (GPS receiver, gpsd, a recorded file, a simulation), before it
/// is reported: the value every parser produces and the reporter consumes.
///
/// Units are SI: metres, metres per second, degrees clockwise from true north. Only the point is required;
/// a source leaves out what it does not know.
public struct LocationSample: Sendable, Hashable {
    /// Where the vehicle is (WGS 84).
    public var point: GeoPoint
    /// When the sensor took the fix, when the source says; nil means "when it was received".
    public var time: Timestamp?
    /// Altitude above the WGS 84 ellipsoid, metres.
    public var altitude: Double?
    /// Ground speed, metres per second.
    public var speed: Double?
    /// Course over ground, degrees clockwise from true north, 0 ..< 360.
    public var heading: Double?
    /// Radius of the horizontal position's uncertainty, metres.
    public var horizontalAccuracy: Double?
    /// Uncertainty of the altitude, metres.
    public var verticalAccuracy: Double?
    /// Uncertainty of the speed, metres per second.
    public var speedAccuracy: Double?
    /// Uncertainty of the heading, degrees.
    public var headingAccuracy: Double?
    /// Which kind of sensor produced the fix (`GPS` for receivers, `CUSTOMER_SUPPLIED_LOCATION` for files
    /// and simulations unless they say otherwise).
    public var sensor: LocationSensor

    /// A sample; every field but the point is optional.
    public init(point: GeoPoint, time: Timestamp? = nil, altitude: Double? = nil, speed: Double? = nil,
                heading: Double? = nil, horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
                speedAccuracy: Double? = nil, headingAccuracy: Double? = nil, sensor: LocationSensor = .gps) {
        self.point = point
        self.time = time
        self.altitude = altitude
        self.speed = speed
        self.heading = heading
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speedAccuracy = speedAccuracy
        self.headingAccuracy = headingAccuracy
        self.sensor = sensor
    }

    /// Whether the coordinates are finite and in range (latitude −90…90, longitude −180…180) and the
    /// optional figures are finite and not negative where they cannot be. Parsers drop samples that are not.
    public var isPlausible: Bool {
        guard point.latitude.isFinite, point.longitude.isFinite,
              (-90...90).contains(point.latitude), (-180...180).contains(point.longitude) else { return false }
        let nonNegative = [speed, horizontalAccuracy, verticalAccuracy, speedAccuracy, headingAccuracy]
        for value in nonNegative {
            if let value, !(value.isFinite && value >= 0) { return false }
        }
        if let altitude, !altitude.isFinite { return false }
        if let heading, !heading.isFinite { return false }
        return true
    }

    /// The Fleet Engine `VehicleLocation` for this sample: `updateTime` is the fix time, or `receivedAt`
    /// when the source gave none; the heading is rounded to whole degrees in 0 ..< 360.
    public func vehicleLocation(receivedAt: Timestamp) -> VehicleLocation {
        var location = VehicleLocation(
            location: LatLng(latitude: point.latitude, longitude: point.longitude),
            updateTime: time ?? receivedAt,
            locationSensor: sensor)
        location.latlngAccuracy = horizontalAccuracy
        location.altitude = altitude
        location.altitudeAccuracy = verticalAccuracy
        location.speed = speed
        location.speedAccuracy = speedAccuracy
        if let heading, heading.isFinite {
            var degrees = heading.truncatingRemainder(dividingBy: 360)
            if degrees < 0 { degrees += 360 }
            let rounded = Int32(degrees.rounded()) % 360
            location.heading = rounded
        }
        location.headingAccuracy = headingAccuracy
        return location
    }
}
