/// The events a follower emits, named after the Consumer SDK's trip model subscriber callbacks.
///
/// The declaration order is the emission order within one update: `trip` first (it lists what
/// changed), then each changed part in the order the SDK's guide lists its callbacks, so the status
/// always comes before the distance, the route, the locations and the ETAs. `error` is never in the
/// same update as the others.
public enum TripEventKind: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// The trip was updated; carries the names of the parts that changed ("trip updated").
    case trip
    /// The trip's status.
    case tripStatus
    /// The driving distance left to the next waypoint, in metres.
    case activeRouteRemainingDistance
    /// The route to the next waypoint.
    case activeRoute
    /// Where the vehicle is.
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

    /// The kinds that describe a part of the trip: every kind but `trip`, `vehicleStale` and `error`.
    public static let tripParts: [TripEventKind] = allCases.filter { $0 != .trip && $0 != .error && $0 != .vehicleStale }

    /// The event's name, as printed and as `--events` takes it.
    public var description: String { rawValue }

    /// Emission order (the declaration order).
    public static func < (lhs: TripEventKind, rhs: TripEventKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Parses a comma-separated list of event names (`tripStatus,pickupETA`); spaces around names
    /// and empty items are ignored.
    ///
    /// - Returns: the kinds, or the first name that is not an event (`.failure(name)`).
    public static func parseList(_ text: String) -> Result<Set<TripEventKind>, UnknownEventName> {
        var kinds: Set<TripEventKind> = []
        for item in text.split(separator: ",") {
            let name = String(item.filter { !$0.isWhitespace })
            guard !name.isEmpty else { continue }
            guard let kind = TripEventKind(rawValue: name) else { return .failure(UnknownEventName(name: name)) }
            kinds.insert(kind)
        }
        return .success(kinds)
    }
}

/// A name given to `--events` that is not one of `TripEventKind`'s.
public struct UnknownEventName: Error, Sendable, Hashable {
    /// The name as given.
    public let name: String
}
