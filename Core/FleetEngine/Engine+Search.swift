import FleetErrors
import FleetModel
import FleetStore

extension Engine {
    public func searchVehicles(_ request: SearchVehiclesRequest) throws -> SearchVehiclesResponse {
        let parent = try ProviderName(parsing: request.parent ?? "", field: "parent")
        let query = try SearchQuery(request, defaultStaleness: configuration.defaultMaximumStaleness)
        let now = clock.now()
        let candidates = try store.nearby(provider: parent.provider, center: query.pickupIndexPoint, radiusMeters: query.radius)
        var matches: [(match: VehicleMatch, key: Double, name: String)] = []
        for stored in candidates {
            let record = try VehicleRecord(stored)
            guard let match = try query.match(record, engine: self, now: now) else { continue }
            matches.append((match, query.sortKey(match, now: now), record.vehicle.name ?? ""))
        }
        matches.sort { ($0.key, $0.name) < ($1.key, $1.name) }
        return SearchVehiclesResponse(matches: matches.prefix(query.count).map(\.match))
    }
}

/// A checked SearchVehicles request, and how one vehicle fares against it.
struct SearchQuery {
    let pickup: LatLng
    let dropoff: LatLng?
    let radius: Double
    let count: Int
    let minimumCapacity: Int
    let tripType: TripType
    let staleness: Double
    let categories: [VehicleType.Category]
    let filter: AttributeFilter
    let orderBy: SearchVehiclesRequest.VehicleMatchOrder
    let currentTrips: SearchVehiclesRequest.CurrentTripsPresent
    let includeBackToBack: Bool

    var pickupIndexPoint: IndexPoint { IndexPoint(latitude: pickup.latitude ?? 0, longitude: pickup.longitude ?? 0) }

    /// Checks every range before any work, naming the field at fault.
    init(_ r: SearchVehiclesRequest, defaultStaleness: Double) throws {
        try Validate.terminal(r.pickupPoint, field: "pickupPoint")
        pickup = r.pickupPoint!.point!
        guard let radius = r.pickupRadiusMeters else {
            throw FleetError.invalidArgument("pickupRadiusMeters is required (400 to 10000)", field: "pickupRadiusMeters")
        }
        try Validate.range(radius, 400...10000, field: "pickupRadiusMeters")
        self.radius = Double(radius)
        guard let count = r.count else { throw FleetError.invalidArgument("count is required (1 to 50)", field: "count") }
        try Validate.range(count, 1...50, field: "count")
        self.count = Int(count)
        guard let minimumCapacity = r.minimumCapacity, minimumCapacity >= 1 else {
            throw FleetError.invalidArgument("minimumCapacity is required and must be at least 1", field: "minimumCapacity")
        }
        self.minimumCapacity = Int(minimumCapacity)
        guard r.tripTypes.count == 1, let type = r.tripTypes.first, type == .shared || type == .exclusive else {
            throw FleetError.invalidArgument("tripTypes must hold exactly one type, SHARED or EXCLUSIVE", field: "tripTypes")
        }
        tripType = type
        guard !r.vehicleTypes.isEmpty else {
            throw FleetError.invalidArgument("vehicleTypes is required: name at least one vehicle type", field: "vehicleTypes")
        }
        categories = try r.vehicleTypes.enumerated().map { i, t in
            guard let c = t.category, c != .unknown else {
                throw FleetError.invalidArgument("vehicleTypes[\(i)].category may not be UNKNOWN", field: "vehicleTypes[\(i)].category")
            }
            return c
        }
        if let d = r.dropoffPoint {
            try Validate.terminal(d, field: "dropoffPoint")
            dropoff = d.point
        } else {
            dropoff = nil
        }
        if type == .shared && dropoff == nil {
            throw FleetError.invalidArgument("dropoffPoint is required when tripTypes contains SHARED", field: "dropoffPoint")
        }
        guard let order = r.orderBy, order != .unknownVehicleMatchOrder, SearchVehiclesRequest.VehicleMatchOrder.allKnown.contains(order) else {
            throw FleetError.invalidArgument("orderBy is required: PICKUP_POINT_ETA, PICKUP_POINT_DISTANCE, DROPOFF_POINT_ETA, PICKUP_POINT_STRAIGHT_DISTANCE or COST", field: "orderBy")
        }
        if order == .dropoffPointEta && dropoff == nil {
            throw FleetError.invalidArgument("orderBy DROPOFF_POINT_ETA needs a dropoffPoint", field: "orderBy")
        }
        orderBy = order
        currentTrips = r.currentTripsPresent ?? .currentTripsPresentUnspecified
        includeBackToBack = r.includeBackToBack ?? false
        if currentTrips != .currentTripsPresentUnspecified && includeBackToBack {
            throw FleetError.invalidArgument("includeBackToBack cannot be true when currentTripsPresent is \(currentTrips.name)", field: "includeBackToBack")
        }
        if type == .shared && currentTrips == .currentTripsPresentUnspecified {
            throw FleetError.invalidArgument("currentTripsPresent must be NONE or ANY when tripTypes contains SHARED", field: "currentTripsPresent")
        }
        if let s = r.maximumStaleness {
            guard s.timeInterval > 0 else { throw FleetError.invalidArgument("maximumStaleness must be a positive duration", field: "maximumStaleness") }
            staleness = s.timeInterval
        } else {
            staleness = defaultStaleness
        }
        filter = try AttributeFilter(searchRequired: r.requiredAttributes, oneOf: r.requiredOneOfAttributes,
                                     oneOfSets: r.requiredOneOfAttributeSets, filter: r.filter)
    }

    /// The match for one vehicle, or nil when it does not qualify.
    func match(_ record: VehicleRecord, engine: Engine, now: Timestamp) throws -> VehicleMatch? {
        let v = record.vehicle
        guard v.vehicleState == .online,
              let here = v.lastLocation?.location,
              engine.isFresh(v, now: now, maximumStaleness: staleness),
              v.supportedTripTypes.contains(tripType),
              let category = v.vehicleType?.category, categories.contains(category),
              filter.matches(v.attributes) else { return nil }
        let straight = RouteGeometry.distance(here, pickup)
        guard straight <= radius else { return nil }

        // Which of the vehicle's trips it would carry on with, and how the new trip would fit.
        let trips = v.currentTrips.isEmpty ? [] : try engine.activeTrips(of: record)
        let capacity = Int(v.maximumCapacity ?? 1)
        let matchType: VehicleMatch.VehicleMatchType
        var before: [TripWaypoint] = []
        if trips.isEmpty {
            guard capacity >= minimumCapacity else { return nil }
            matchType = .exclusive
        } else {
            switch currentTrips {
            case .noTrips:
                return nil
            case .any:
                guard trips.count <= 5, v.waypoints.count <= 10 else { return nil }
                if tripType == .shared && trips.allSatisfy({ $0.trip.tripType == .shared }) {
                    let onBoard = trips.map { Engine.riders($0.trip) }.reduce(0, +)
                    guard capacity - onBoard >= minimumCapacity else { return nil }
                    matchType = .carpool
                } else {
                    guard capacity >= minimumCapacity else { return nil }
                    matchType = tripType == .shared ? .carpoolBackToBack : .backToBack
                    before = v.waypoints
                }
            default:
                guard includeBackToBack, v.backToBackEnabled == true, trips.count == 1,
                      trips[0].trip.tripStatus == .enrouteToDropoff, capacity >= minimumCapacity else { return nil }
                matchType = .backToBack
                before = v.waypoints
            }
        }

        // Drive: through the waypoints it must finish first, then to the pickup, then to the dropoff.
        let speed = RouteGeometry.defaultSpeed(category)
        var legs: [LatLng] = [here] + before.compactMap { $0.location?.point } + [pickup]
        var meters = 0.0
        var seconds = 0.0
        var path: [Waypoint] = [Waypoint(latLng: here, eta: now)]
        for i in 1..<legs.count {
            let leg = RouteGeometry.drivingEstimate(legs[i - 1], legs[i])
            meters += leg
            seconds += leg / speed
            path.append(Waypoint(latLng: legs[i], eta: now.adding(seconds: seconds)))
        }
        var result = VehicleMatch(
            vehicle: v.forResponse,
            vehiclePickupEta: now.adding(seconds: seconds),
            vehiclePickupDistanceMeters: Int32(meters.rounded()),
            vehiclePickupStraightLineDistanceMeters: Int32(straight.rounded()),
            tripType: tripType,
            vehicleMatchType: matchType,
            requestedOrderedBy: orderBy,
            orderedBy: orderBy)
        if let dropoff {
            let leg = RouteGeometry.drivingEstimate(pickup, dropoff)
            result.vehiclePickupToDropoffDistanceMeters = Int32(leg.rounded())
            result.vehicleDropoffEta = now.adding(seconds: seconds + leg / speed)
            legs.append(dropoff)
            path.append(Waypoint(latLng: dropoff, eta: result.vehicleDropoffEta))
        }
        result.vehicleTripsWaypoints = path
        return result
    }

    /// The value results are sorted by (ascending).
    func sortKey(_ m: VehicleMatch, now: Timestamp) -> Double {
        let t0 = now.timeIntervalSince1970
        let pickupSeconds = (m.vehiclePickupEta?.timeIntervalSince1970 ?? .infinity) - t0
        switch orderBy {
        case .pickupPointEta: return pickupSeconds
        case .pickupPointDistance: return Double(m.vehiclePickupDistanceMeters ?? .max)
        case .dropoffPointEta: return (m.vehicleDropoffEta?.timeIntervalSince1970 ?? .infinity) - t0
        case .pickupPointStraightDistance: return Double(m.vehiclePickupStraightLineDistanceMeters ?? .max)
        default:
            // COST: a weighted sum of ETA and straight-line distance, one second weighing as 10 m.
            return pickupSeconds + Double(m.vehiclePickupStraightLineDistanceMeters ?? .max) / 10
        }
    }
}
