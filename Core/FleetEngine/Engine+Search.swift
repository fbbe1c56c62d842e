import FleetErrors
import FleetGeo
import FleetModel
import FleetStore

extension Engine {
    public func searchVehicles(_ request: SearchVehiclesRequest) throws -> SearchVehiclesResponse {
        try Validate.values(of: request)
        let parent = try ProviderName(parsing: request.parent ?? "", field: "parent")
        let query = try SearchQuery(request, defaultStaleness: configuration.defaultMaximumStaleness)
        let now = clock.now()
        // The index first (no payloads), the exact radius on its points, then only the survivors are
        // read, each decoded once per version.
        let pickup = GeoPoint(query.pickup)
        let candidates = try store.nearbyIndex(provider: parent.provider, center: query.pickupIndexPoint, radiusMeters: query.radius)
            .filter { Geodesy.distance(pickup, GeoPoint(latitude: $0.point.latitude, longitude: $0.point.longitude)) <= query.radius }
        var qualified: [SearchQuery.Candidate] = []
        qualified.reserveCapacity(candidates.count)
        for entry in candidates {
            let cached = records.cached(entry.key, version: entry.version)
            guard let vehicle = try cached ?? store.get(entry.key).map(records.decoded) else { continue }
            if let candidate = try query.qualify(vehicle, engine: self, now: now) { qualified.append(candidate) }
        }
        if let router = configuration.router, query.orderBy != .pickupPointStraightDistance {
            qualified = query.onRoads(qualified, router: router, cache: searchRoutes, now: now,
                                      timing: learnedLegTiming(provider: parent.provider, now: now))
        }
        // Rank small keys, not the candidates themselves.
        var order = qualified.indices.map { (key: qualified[$0].sortKey, index: $0) }
        order.sort { $0.key != $1.key ? $0.key < $1.key : qualified[$0.index].vehicle.record.key.id < qualified[$1.index].vehicle.record.key.id }
        return SearchVehiclesResponse(matches: order.prefix(query.count).map { query.match(qualified[$0.index], now: now) })
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

    var pickupIndexPoint: IndexPoint { IndexPoint(latitude: pickup.latitude, longitude: pickup.longitude) }

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

    /// A vehicle that qualifies, with what ranking needs: the full `VehicleMatch` is built only for
    /// the vehicles returned.
    struct Candidate {
        let vehicle: DecodedVehicle
        let matchType: VehicleMatch.VehicleMatchType
        let category: VehicleType.Category
        /// The vehicle, the waypoints it finishes first, the pickup.
        let path: [LatLng]
        let straightMeters: Double
        /// The driving distance of each leg of `path`, then of pickup to dropoff when there is a dropoff:
        /// great-circle estimates until `onRoads` replaces them with road distances.
        var legMeters: [Double]
        /// Whether `legMeters` are road distances.
        var onRoads = false

        /// The driving time of each leg, as `legMeters`, when timed as the vehicle's trip would be (the learned times
        /// along its road route: `Engine.learnedLegSeconds`); nil: each leg at the category's default speed.
        var legSeconds: [Double]? = nil

        var pickupMeters: Double { legMeters.prefix(path.count - 1).reduce(0, +) }
        var dropoffMeters: Double? { legMeters.count == path.count ? legMeters[legMeters.count - 1] : nil }
        var speed: Double { RouteGeometry.defaultSpeed(category) }
        /// The time of leg `index`.
        func seconds(ofLeg index: Int) -> Double { legSeconds?[index] ?? legMeters[index] / speed }
        var pickupSeconds: Double { (0..<(path.count - 1)).reduce(0) { $0 + seconds(ofLeg: $1) } }
        var dropoffSeconds: Double? { dropoffMeters.map { _ in pickupSeconds + seconds(ofLeg: legMeters.count - 1) } }
        /// The ranking key, computed once.
        var sortKey = 0.0
    }

    /// The ranking key of a candidate with legs of `pickupMeters` (vehicle to pickup) and `dropoffMeters`, driven at
    /// `speed`.
    func sortKey(pickupMeters meters: Double, dropoffMeters: Double?, straight: Double, speed: Double) -> Double {
        sortKey(pickupMeters: meters, pickupSeconds: meters / speed, dropoffSeconds: dropoffMeters.map { (meters + $0) / speed },
                straight: straight)
    }

    /// The ranking key of a candidate `pickupMeters` and `pickupSeconds` from the pickup, reaching the dropoff in
    /// `dropoffSeconds`.
    func sortKey(pickupMeters meters: Double, pickupSeconds seconds: Double, dropoffSeconds: Double?, straight: Double) -> Double {
        switch orderBy {
        case .pickupPointEta: seconds
        case .pickupPointDistance: meters
        case .dropoffPointEta: dropoffSeconds ?? .infinity
        case .pickupPointStraightDistance: straight
        // COST: a weighted sum of ETA and straight-line distance, one second weighing as 10 m.
        default: seconds + straight / 10
        }
    }

    func sortKey(_ c: Candidate) -> Double {
        sortKey(pickupMeters: c.pickupMeters, pickupSeconds: c.pickupSeconds, dropoffSeconds: c.dropoffSeconds, straight: c.straightMeters)
    }

    /// The candidate for one vehicle, or nil when it does not qualify.
    func qualify(_ decoded: DecodedVehicle, engine: Engine, now: Timestamp) throws -> Candidate? {
        let facts = decoded.facts
        guard facts.isOnline,
              let here = facts.location,
              let located = facts.locationSeconds, now.timeIntervalSince1970 - located <= staleness,
              facts.takes(tripType),
              let category = facts.category, categories.contains(category),
              filter.isEmpty || filter.matches(decoded.record.vehicle.attributes) else { return nil }
        let straight = RouteGeometry.distance(here, pickup)
        guard straight <= radius else { return nil }

        // Which of the vehicle's trips it would carry on with, and how the new trip would fit.
        let trips = facts.hasCurrentTrips ? try engine.activeTrips(of: decoded.record) : []
        let capacity = facts.capacity
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
                guard trips.count <= 5, decoded.record.vehicle.waypoints.count <= 10 else { return nil }
                if tripType == .shared && trips.allSatisfy({ $0.trip.tripType == .shared }) {
                    let onBoard = trips.map { Engine.riders($0.trip) }.reduce(0, +)
                    guard capacity - onBoard >= minimumCapacity else { return nil }
                    matchType = .carpool
                } else {
                    guard capacity >= minimumCapacity else { return nil }
                    matchType = tripType == .shared ? .carpoolBackToBack : .backToBack
                    before = decoded.record.vehicle.waypoints
                }
            default:
                guard includeBackToBack, decoded.record.vehicle.backToBackEnabled == true, trips.count == 1,
                      trips[0].trip.tripStatus == .enrouteToDropoff, capacity >= minimumCapacity else { return nil }
                matchType = .backToBack
                before = decoded.record.vehicle.waypoints
            }
        }

        // Drive: through the waypoints it must finish first, then to the pickup, then to the dropoff.
        let path = [here] + before.compactMap { $0.location?.point } + [pickup]
        var legs = (1..<path.count).map { RouteGeometry.drivingEstimate(path[$0 - 1], path[$0]) }
        if let dropoff { legs.append(RouteGeometry.drivingEstimate(pickup, dropoff)) }
        var candidate = Candidate(vehicle: decoded, matchType: matchType, category: category, path: path, straightMeters: straight, legMeters: legs)
        candidate.sortKey = sortKey(candidate)
        return candidate
    }

    /// The full match of a candidate, with the ETA of every waypoint on its way.
    func match(_ c: Candidate, now: Timestamp) -> VehicleMatch {
        var waypoints: [Waypoint] = [Waypoint(latLng: c.path[0], eta: now)]
        var seconds = 0.0
        for i in 1..<c.path.count {
            seconds += c.seconds(ofLeg: i - 1)
            waypoints.append(Waypoint(latLng: c.path[i], eta: now.adding(seconds: seconds)))
        }
        var result = VehicleMatch(
            vehicle: c.vehicle.record.vehicle.forResponse,
            vehiclePickupEta: now.adding(seconds: c.pickupSeconds),
            vehiclePickupDistanceMeters: Int32(roundingClamped: c.pickupMeters),
            vehiclePickupStraightLineDistanceMeters: Int32(roundingClamped: c.straightMeters),
            tripType: tripType,
            vehicleMatchType: c.matchType,
            requestedOrderedBy: orderBy,
            orderedBy: orderBy)
        if let dropoff, let legMeters = c.dropoffMeters, let legSeconds = c.dropoffSeconds {
            result.vehiclePickupToDropoffDistanceMeters = Int32(roundingClamped: legMeters)
            result.vehicleDropoffEta = now.adding(seconds: legSeconds)
            waypoints.append(Waypoint(latLng: dropoff, eta: result.vehicleDropoffEta))
        }
        result.vehicleTripsWaypoints = waypoints
        return result
    }
}
