/// How fast traffic moves on a stretch of route: Fleet Engine's `SpeedReadingInterval.Speed` (the issue's
/// "TrafficSpeedCategory"). Raw values are the Fleet Engine JSON names.
///
/// The speeds the ETA uses for each are ``SpeedModel``'s constants: normal and unspecified stretches are driven at
/// the vehicle's free-flow speed, slow ones at ``SpeedModel/slowFractionOfFreeFlow`` of it, jams at
/// ``SpeedModel/trafficJamKilometersPerHour``.
public enum TrafficSpeed: String, Sendable, Hashable, CaseIterable {
    /// No reading for the stretch: treated as normal.
    case unspecified = "SPEED_UNSPECIFIED"
    /// "Normal speed, no slowdown detected."
    case normal = "NORMAL"
    /// "Slowdown detected, but no traffic jam formed."
    case slow = "SLOW"
    /// "Traffic jam detected."
    case trafficJam = "TRAFFIC_JAM"
}
