import FleetGeo

/// How a simulated vehicle drives: its cruise speed, how hard it accelerates and brakes, and how much
/// it slows for sharp turns. `standard(for:)` gives each vehicle category a plausible urban style.
public struct DrivingStyle: Sendable, Hashable {
    /// The speed held on straight road, metres per second.
    public var cruiseMetersPerSecond: Double
    /// Acceleration from a stop or a turn, m/s².
    public var acceleration: Double
    /// Braking before a stop or a turn, m/s².
    public var deceleration: Double
    /// Turns sharper than this (degrees of change of direction) are taken slower; gentler bends at cruise.
    public var sharpTurnDegrees: Double
    /// The slowest a vehicle takes any turn, metres per second (a U-turn).
    public var slowestTurnMetersPerSecond: Double

    /// A style; speeds in metres per second.
    public init(cruiseMetersPerSecond: Double, acceleration: Double, deceleration: Double,
                sharpTurnDegrees: Double = 30, slowestTurnMetersPerSecond: Double = 2) {
        precondition(cruiseMetersPerSecond > 0 && acceleration > 0 && deceleration > 0, "a driving style needs positive speeds")
        self.cruiseMetersPerSecond = cruiseMetersPerSecond
        self.acceleration = acceleration
        self.deceleration = deceleration
        self.sharpTurnDegrees = sharpTurnDegrees
        self.slowestTurnMetersPerSecond = min(slowestTurnMetersPerSecond, cruiseMetersPerSecond)
    }

    /// The style of a category in town: cruise AUTO/UNKNOWN 50 km/h, TAXI, TRUCK and TWO_WHEELER
    /// 45 km/h, BICYCLE 18 km/h, PEDESTRIAN 5 km/h; a truck accelerates at 0.8 m/s² and a car at 1.5 m/s².
    public static func standard(for category: VehicleCategory) -> DrivingStyle {
        switch category {
        case .auto, .unknown: DrivingStyle(cruiseMetersPerSecond: 50 / 3.6, acceleration: 1.5, deceleration: 2.0)
        case .taxi: DrivingStyle(cruiseMetersPerSecond: 45 / 3.6, acceleration: 1.5, deceleration: 2.0)
        case .truck: DrivingStyle(cruiseMetersPerSecond: 45 / 3.6, acceleration: 0.8, deceleration: 1.5)
        case .twoWheeler: DrivingStyle(cruiseMetersPerSecond: 45 / 3.6, acceleration: 2.0, deceleration: 2.5)
        case .bicycle: DrivingStyle(cruiseMetersPerSecond: 18 / 3.6, acceleration: 0.8, deceleration: 1.5, slowestTurnMetersPerSecond: 1.5)
        case .pedestrian: DrivingStyle(cruiseMetersPerSecond: 5 / 3.6, acceleration: 0.5, deceleration: 1.0, slowestTurnMetersPerSecond: 1)
        }
    }

    /// The style with another cruise speed (`--speed`), in km/h.
    public func cruising(atKilometersPerHour speed: Double) -> DrivingStyle {
        var style = self
        style.cruiseMetersPerSecond = speed / 3.6
        style.slowestTurnMetersPerSecond = min(slowestTurnMetersPerSecond, style.cruiseMetersPerSecond)
        return style
    }

    /// The highest speed through a corner that turns by `degrees` (0 straight on, 180 a U-turn): cruise
    /// below `sharpTurnDegrees`, then `cruise × (1 − degrees/180)^1.5` but never below the slowest turn.
    public func turnSpeed(degrees: Double) -> Double {
        guard degrees >= sharpTurnDegrees else { return cruiseMetersPerSecond }
        let factor = Swift.max(0, 1 - Swift.min(degrees, 180) / 180)
        return Swift.max(slowestTurnMetersPerSecond, cruiseMetersPerSecond * factor * factor.squareRoot())
    }
}
