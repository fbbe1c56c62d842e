import FleetErrors
import FleetModel

/// The paths an update may name, per resource, and the check every update goes through.
enum UpdateMask {
    /// Vehicle fields a client may update.
    static let vehicleUpdatable: Set<String> = [
        "vehicleState", "supportedTripTypes", "lastLocation", "pastLocations", "maximumCapacity", "attributes",
        "vehicleType", "licensePlate", "route", "currentRouteSegment", "currentRouteSegmentTraffic",
        "currentRouteSegmentEndPoint", "remainingDistanceMeters", "etaToFirstWaypoint", "remainingTimeSeconds",
        "waypoints", "backToBackEnabled", "navigationStatus", "deviceSettings",
    ]
    /// Vehicle fields the server maintains.
    static let vehicleServerOwned: Set<String> = [
        "name", "currentTrips", "availableCapacity", "currentRouteSegmentVersion", "waypointsVersion",
    ]
    /// Trip fields a client may update.
    static let tripUpdatable: Set<String> = [
        "vehicleId", "tripStatus", "tripType", "pickupPoint", "actualPickupPoint", "actualPickupArrivalPoint",
        "intermediateDestinations", "intermediateDestinationIndex", "actualIntermediateDestinationArrivalPoints",
        "actualIntermediateDestinations", "dropoffPoint", "actualDropoffPoint", "vehicleWaypoints", "attributes",
    ]
    /// Trip fields Fleet Engine maintains ("do not update them using Trip.update").
    static let tripServerOwned: Set<String> = [
        "name", "currentRouteSegment", "currentRouteSegmentEndPoint", "currentRouteSegmentTraffic",
        "currentRouteSegmentTrafficVersion", "currentRouteSegmentVersion", "dropoffTime", "etaToFirstWaypoint",
        "intermediateDestinationsVersion", "lastLocation", "numberOfPassengers", "pickupTime",
        "remainingDistanceMeters", "remainingTimeToFirstWaypoint", "remainingWaypoints",
        "remainingWaypointsVersion", "remainingWaypointsRouteVersion", "route", "lastLocationSnappable", "view",
    ]

    /// The mask's paths, checked: at least one, each a known field the client may change.
    static func paths(_ mask: FieldMask?, updatable: Set<String>, serverOwned: Set<String>, resource: String) throws -> [String] {
        let paths = (mask?.paths ?? []).filter { !$0.isEmpty }
        guard !paths.isEmpty else {
            throw FleetError(.emptyUpdateMask, detail: "name at least one \(resource) field in updateMask", field: "updateMask")
        }
        var seen = Set<String>()
        for path in paths {
            if serverOwned.contains(path) {
                throw FleetError(.badUpdateMaskPath, detail: "'\(path)' is maintained by the server and cannot be updated", field: "updateMask")
            }
            guard updatable.contains(path) else {
                let top = path.split(separator: ".").first.map(String.init) ?? path
                let detail = updatable.contains(top)
                    ? "'\(path)': only whole top-level fields can be updated; use '\(top)'"
                    : "'\(path)' is not a field of \(resource)"
                throw FleetError(.badUpdateMaskPath, detail: detail, field: "updateMask")
            }
            seen.insert(path)
        }
        return paths.filter { seen.remove($0) != nil }
    }
}
