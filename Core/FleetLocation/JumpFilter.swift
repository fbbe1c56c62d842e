import FleetGeo

/// Drops locations that imply an impossible jump: a speed from the last accepted location above
/// `maximumMetersPerSecond` (70 m/s, 252 km/h, by default: FleetGeo's `SpeedModel` bound).
///
/// Time between two locations is their sample times (the receive times when a source gives none), at
/// least one second, so duplicates and jitter within a second are never taken for jumps. A real move the
/// filter could not follow (the receiver was off while the vehicle moved) is accepted once
/// `confirmations` dropped locations in a row agree with one another: the filter then starts again from
/// there instead of dropping every later location.
public struct JumpFilter: Sendable {
    /// The highest believable speed between two locations, metres per second.
    public let maximumMetersPerSecond: Double
    /// How many consecutive dropped locations, each plausible from the one before, re-anchor the filter.
    public let confirmations: Int

    private var anchor: (point: GeoPoint, time: Double)?
    private var candidate: (point: GeoPoint, time: Double, count: Int)?

    /// What the filter decided about one location.
    public enum Verdict: Sendable, Hashable {
        /// Believable: report it.
        case accepted
        /// A jump: drop it. The implied speed and the distance from the last accepted location.
        case dropped(metersPerSecond: Double, meters: Double)
        /// A move confirmed by several locations in a row: report it, the filter restarted from here.
        case reanchored
    }

    /// A filter with the given speed bound.
    public init(maximumMetersPerSecond: Double = SpeedModel.standard.maximumPlausibleMetersPerSecond, confirmations: Int = 3) {
        precondition(maximumMetersPerSecond > 0 && confirmations >= 1, "a jump filter needs a positive bound")
        self.maximumMetersPerSecond = maximumMetersPerSecond
        self.confirmations = confirmations
    }

    /// Judges `sample`, received at `receivedAt` (epoch seconds), and remembers it when accepted.
    public mutating func check(_ sample: LocationSample, receivedAt: Double) -> Verdict {
        let time = sample.time?.timeIntervalSince1970 ?? receivedAt
        guard let anchor else {
            self.anchor = (sample.point, time)
            return .accepted
        }
        let (meters, speed) = Self.motion(from: anchor, to: (sample.point, time))
        if speed <= maximumMetersPerSecond {
            self.anchor = (sample.point, time)
            candidate = nil
            return .accepted
        }
        if let previous = candidate, Self.motion(from: (previous.point, previous.time), to: (sample.point, time)).speed <= maximumMetersPerSecond {
            candidate = (sample.point, time, previous.count + 1)
        } else {
            candidate = (sample.point, time, 1)
        }
        if let confirmed = candidate, confirmed.count >= confirmations {
            self.anchor = (sample.point, time)
            candidate = nil
            return .reanchored
        }
        return .dropped(metersPerSecond: speed, meters: meters)
    }

    private static func motion(from a: (point: GeoPoint, time: Double), to b: (point: GeoPoint, time: Double)) -> (meters: Double, speed: Double) {
        let meters = Geodesy.distance(a.point, b.point)
        let seconds = max(1, b.time - a.time)
        return (meters, meters / seconds)
    }
}
