import FleetModel

/// Builds the `UpdateVehicleRequest` that takes the server from what it acknowledged to what the
/// reporter wants: only the fields that changed, each named in the update mask, so the mask is never
/// empty. When nothing changed there is no request at all.
///
/// Mask paths, in this order: `vehicleState`, `lastLocation`, `currentRouteSegment` with
/// `currentRouteSegmentEndPoint` (Fleet Engine reads the end point only together with the segment),
/// `remainingDistanceMeters`, `remainingTimeSeconds`. When navigation ends, the segment is cleared by
/// sending `currentRouteSegment` empty. These are the fields the Driver SDK sends, and all a driver token
/// may change; the waypoints belong to the provider (its trips), so the driver never sends them.
public enum UpdatePlanner {
    /// The request for `vehicle`, or nil when `desired` changes nothing over `acknowledged`.
    /// `forceState` puts `vehicleState` in the mask even when unchanged (the final OFFLINE update).
    public static func request(for vehicle: VehicleName, desired: VehicleReport, acknowledged: VehicleReport,
                               forceState: Bool = false) -> UpdateVehicleRequest? {
        var paths: [Vehicle.FieldPath] = []
        var body = Vehicle()
        if let state = desired.state, forceState || state != acknowledged.state {
            paths.append(.vehicleState)
            body.vehicleState = state
        }
        if let location = desired.location, location != acknowledged.location {
            paths.append(.lastLocation)
            body.lastLocation = location
        }
        if let navigation = desired.navigation {
            let previous = acknowledged.navigation
            if navigation.routeSegment != previous?.routeSegment || navigation.endPoint != previous?.endPoint {
                paths.append(.currentRouteSegment)
                body.currentRouteSegment = navigation.routeSegment
                if let endPoint = navigation.endPoint {
                    paths.append(.currentRouteSegmentEndPoint)
                    body.currentRouteSegmentEndPoint = endPoint
                }
            }
            if let meters = navigation.remainingDistanceMeters, meters != previous?.remainingDistanceMeters {
                paths.append(.remainingDistanceMeters)
                body.remainingDistanceMeters = meters
            }
            if let seconds = navigation.remainingTimeSeconds, seconds != previous?.remainingTimeSeconds {
                paths.append(.remainingTimeSeconds)
                body.remainingTimeSeconds = seconds
            }
        } else if acknowledged.navigation != nil {
            paths.append(.currentRouteSegment)
            body.currentRouteSegment = ""
        }
        guard !paths.isEmpty else { return nil }
        return UpdateVehicleRequest(name: vehicle.description, vehicle: body, updateMask: FieldMask(fields: paths))
    }
}
