import FleetGeo
import FleetModel

/// A simulated vehicle driving a route (the `simulate:` source): where it is, how fast and which way,
/// at any second of the drive, as location samples.
public struct DriveSimulator: Sendable {
    /// The planned drive.
    public let profile: SpeedProfile

    /// A drive along `route` in `style`, with `stops`.
    public init(route: Route, style: DrivingStyle, stops: [SimulatedStop] = []) {
        profile = SpeedProfile(route: route, style: style, stops: stops)
    }

    /// How long the drive takes, seconds.
    public var totalSeconds: Double { profile.totalSeconds }

    /// The sample `seconds` into the drive, stamped `start + seconds`. The heading is the direction of
    /// the route where the vehicle is; the horizontal accuracy is a nominal 5 m.
    public func sample(atSeconds seconds: Double, start: Timestamp) -> LocationSample {
        let state = profile.position(atSeconds: seconds)
        let route = profile.route
        let (segment, fraction) = route.location(atMeters: state.meters)
        let point = route.point(onSegment: segment, fraction: fraction)
        var heading: Double?
        if route.points.count > 1 {
            heading = Geodesy.initialBearing(route.points[segment], route.points[segment + 1])
        }
        return LocationSample(point: point, time: start.adding(seconds: seconds), speed: state.metersPerSecond,
                              heading: heading, horizontalAccuracy: 5, sensor: .customerSuppliedLocation)
    }
}
