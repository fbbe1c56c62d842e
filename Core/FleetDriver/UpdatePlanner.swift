import FleetModel

/// A field of the report an update carries; each kind of vehicle names it in its own update mask.
public enum ReportField: Sendable, Hashable, CaseIterable {
    /// `vehicleState` (rides vehicles only: delivery vehicles have no state).
    case state
    /// `lastLocation`.
    case location
    /// `currentRouteSegment` (sent empty to clear the route when navigation ends).
    case routeSegment
    /// `currentRouteSegmentEndPoint`, only ever beside the segment (Fleet Engine reads it only then).
    case endPoint
    /// `remainingDistanceMeters`.
    case remainingDistance
    /// `remainingTimeSeconds` (a delivery vehicle's `remainingDuration`).
    case remainingTime
}

/// Builds the update that takes the server from what it acknowledged to what the reporter wants: only
/// the fields that changed, each named in the update mask, so the mask is never empty. When nothing
/// changed there is no request at all.
///
/// Mask paths, in this order: `vehicleState`, `lastLocation`, `currentRouteSegment` with
/// `currentRouteSegmentEndPoint` (Fleet Engine reads the end point only together with the segment),
/// `remainingDistanceMeters`, `remainingTimeSeconds` (`remainingDuration` for a delivery vehicle). When
/// navigation ends, the segment is cleared by sending `currentRouteSegment` empty. These are the fields
/// the Driver SDK sends with each location, and all a driver token may change: a rides vehicle's
/// waypoints belong to the provider's trips, so the reporter never sends them; a delivery vehicle's
/// stops go in updates of their own (`StopProgress`), never with the location.
public enum UpdatePlanner {
    /// The fields of `desired` that differ from `acknowledged`, in mask order; empty when nothing
    /// changes. `forceState` includes the state even when unchanged (the final OFFLINE update).
    public static func changes(desired: VehicleReport, acknowledged: VehicleReport, forceState: Bool = false) -> [ReportField] {
        var fields: [ReportField] = []
        if let state = desired.state, forceState || state != acknowledged.state { fields.append(.state) }
        if let location = desired.location, location != acknowledged.location { fields.append(.location) }
        if let navigation = desired.navigation {
            let previous = acknowledged.navigation
            if navigation.routeSegment != previous?.routeSegment || navigation.endPoint != previous?.endPoint {
                fields.append(.routeSegment)
                if navigation.endPoint != nil { fields.append(.endPoint) }
            }
            if let meters = navigation.remainingDistanceMeters, meters != previous?.remainingDistanceMeters {
                fields.append(.remainingDistance)
            }
            if let seconds = navigation.remainingTimeSeconds, seconds != previous?.remainingTimeSeconds {
                fields.append(.remainingTime)
            }
        } else if acknowledged.navigation != nil {
            fields.append(.routeSegment)
        }
        return fields
    }

    /// The UpdateVehicle request for a rides vehicle, or nil when `desired` changes nothing over
    /// `acknowledged`. `forceState` puts `vehicleState` in the mask even when unchanged.
    public static func request(for vehicle: VehicleName, desired: VehicleReport, acknowledged: VehicleReport,
                               forceState: Bool = false) -> UpdateVehicleRequest? {
        let fields = changes(desired: desired, acknowledged: acknowledged, forceState: forceState)
        guard !fields.isEmpty else { return nil }
        var body = Vehicle()
        let paths: [Vehicle.FieldPath] = fields.map { field in
            switch field {
            case .state:
                body.vehicleState = desired.state
                return .vehicleState
            case .location:
                body.lastLocation = desired.location
                return .lastLocation
            case .routeSegment:
                body.currentRouteSegment = desired.navigation?.routeSegment ?? ""
                return .currentRouteSegment
            case .endPoint:
                body.currentRouteSegmentEndPoint = desired.navigation?.endPoint?.tripWaypoint
                return .currentRouteSegmentEndPoint
            case .remainingDistance:
                body.remainingDistanceMeters = desired.navigation?.remainingDistanceMeters
                return .remainingDistanceMeters
            case .remainingTime:
                body.remainingTimeSeconds = desired.navigation?.remainingTimeSeconds
                return .remainingTimeSeconds
            }
        }
        return UpdateVehicleRequest(name: vehicle.description, vehicle: body, updateMask: FieldMask(fields: paths))
    }

    /// The UpdateDeliveryVehicle request for a delivery vehicle, or nil when `desired` changes nothing
    /// over `acknowledged` (a delivery vehicle has no state: `desired.state` is not sent). The route
    /// segment goes as the bytes of its encoded polyline; the end point is the next stop's place.
    public static func request(for vehicle: DeliveryVehicleName, desired: VehicleReport,
                               acknowledged: VehicleReport) -> UpdateDeliveryVehicleRequest? {
        let fields = changes(desired: desired, acknowledged: acknowledged).filter { $0 != .state }
        guard !fields.isEmpty else { return nil }
        var body = DeliveryVehicle(name: vehicle.description)
        let paths: [DeliveryVehicle.FieldPath] = fields.map { field in
            switch field {
            case .state:
                preconditionFailure("a delivery vehicle has no state")
            case .location:
                body.lastLocation = desired.location.map(DeliveryVehicleLocation.init(reported:))
                return .lastLocation
            case .routeSegment:
                body.currentRouteSegment = ProtoBytes(Array((desired.navigation?.routeSegment ?? "").utf8))
                return .currentRouteSegment
            case .endPoint:
                body.currentRouteSegmentEndPoint = desired.navigation?.endPoint?.latLng
                return .currentRouteSegmentEndPoint
            case .remainingDistance:
                body.remainingDistanceMeters = desired.navigation?.remainingDistanceMeters
                return .remainingDistanceMeters
            case .remainingTime:
                body.remainingDuration = desired.navigation?.remainingTimeSeconds.map { ProtoDuration(seconds: Int64($0)) }
                return .remainingDuration
            }
        }
        return UpdateDeliveryVehicleRequest(deliveryVehicle: body, updateMask: FieldMask(fields: paths))
    }
}

extension DeliveryVehicleLocation {
    /// The same fix as a delivery vehicle reports it (the two messages have the same fields; the
    /// sensors have the same names).
    init(reported location: VehicleLocation) {
        self.init(
            location: location.location, horizontalAccuracy: location.horizontalAccuracy,
            latlngAccuracy: location.latlngAccuracy, heading: location.heading,
            bearingAccuracy: location.bearingAccuracy, headingAccuracy: location.headingAccuracy,
            altitude: location.altitude, verticalAccuracy: location.verticalAccuracy,
            altitudeAccuracy: location.altitudeAccuracy, speedKmph: location.speedKmph, speed: location.speed,
            speedAccuracy: location.speedAccuracy, updateTime: location.updateTime, serverTime: location.serverTime,
            locationSensor: location.locationSensor.map { DeliveryVehicleLocationSensor(name: $0.name) },
            isRoadSnapped: location.isRoadSnapped, isGpsSensorEnabled: location.isGpsSensorEnabled,
            timeSinceUpdate: location.timeSinceUpdate, numStaleUpdates: location.numStaleUpdates,
            rawLocation: location.rawLocation, rawLocationTime: location.rawLocationTime,
            rawLocationSensor: location.rawLocationSensor.map { DeliveryVehicleLocationSensor(name: $0.name) },
            rawLocationAccuracy: location.rawLocationAccuracy, flpLocation: location.flpLocation,
            flpUpdateTime: location.flpUpdateTime, flpLatlngAccuracyMeters: location.flpLatlngAccuracyMeters,
            flpHeadingDegrees: location.flpHeadingDegrees, supplementalLocation: location.supplementalLocation,
            supplementalLocationTime: location.supplementalLocationTime,
            supplementalLocationSensor: location.supplementalLocationSensor.map { DeliveryVehicleLocationSensor(name: $0.name) },
            supplementalLocationAccuracy: location.supplementalLocationAccuracy, roadSnapped: location.roadSnapped)
    }
}
