/// The events a trip follower emits, named after the Consumer SDK's trip model subscriber callbacks.
///
/// The declaration order is the emission order within one update: `trip` first (it lists what
/// changed), then each changed part in the order the SDK's guide lists its callbacks, so the status
/// always comes before the distance, the route, the locations and the ETAs. `error` is never in the
/// same update as the others.
public enum TripEventKind: String, FollowEventKind {
    /// The trip was updated; carries the changed parts with their values, and the trip ("trip updated").
    case trip
    /// The trip's status.
    case tripStatus
    /// The driving distance left to the next waypoint, in metres.
    case activeRouteRemainingDistance
    /// The route to the next waypoint.
    case activeRoute
    /// Where the vehicle is, its heading, speed and accuracy.
    case vehicleLocation
    /// Where the rider is picked up.
    case pickupLocation
    /// Where the rider is dropped off.
    case dropoffLocation
    /// When the vehicle reaches the pickup (or reached it).
    case pickupETA
    /// When the vehicle reaches the dropoff (or reached it).
    case dropoffETA
    /// The waypoints ahead of the vehicle up to this trip's dropoff.
    case remainingWaypoints
    /// The trip's intermediate destinations.
    case intermediateDestinations
    /// The traffic along the route to the next waypoint.
    case activeRouteTraffic
    /// The vehicle's position became stale (older than the threshold) or fresh again; not one of
    /// the SDK's callbacks: told by the clock, not by a snapshot.
    case vehicleStale
    /// A refresh failed ("update failed with error").
    case error

    /// `trip`.
    public static var update: TripEventKind { .trip }
    /// Events name the trip under `"trip"`.
    public static let subjectKey = "trip"
    /// The kinds that describe a part of the trip: every kind but `trip`, `vehicleStale` and `error`.
    public static let tripParts: [TripEventKind] = parts
}
