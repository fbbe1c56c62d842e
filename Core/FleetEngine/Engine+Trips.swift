import FleetErrors
import FleetInterface
import FleetModel
import FleetStore

extension Engine {
    /// CreateTrip without waiting for the store, as `updateVehicle(_:completion:)`.
    public func createTrip(_ request: CreateTripRequest, completion: @escaping @Sendable (Result<Trip, any Error>) -> Void) {
        transact(preparing: { try tripCreation(request) }, completion: completion)
    }

    /// The checked request as the body of a read-modify-write.
    private func tripCreation(_ request: CreateTripRequest) throws -> TransactionBody<Trip> {
        try Validate.values(of: request)
        let parent = try ProviderName(parsing: request.parent ?? "", field: "parent")
        let name = try TripName(provider: parent.provider, tripID: try requiredID(request.tripId, field: "tripId"))
        guard let input = request.trip else {
            throw FleetError.invalidArgument("trip is required", field: "trip")
        }
        guard let type = input.tripType, type == .shared || type == .exclusive else {
            throw FleetError.invalidArgument("trip.tripType is required: SHARED or EXCLUSIVE", field: "trip.tripType")
        }
        try Validate.terminal(input.pickupPoint, field: "trip.pickupPoint")
        if input.dropoffPoint != nil { try Validate.terminal(input.dropoffPoint, field: "trip.dropoffPoint") }
        try checkIntermediates(input.intermediateDestinations, type: type)
        if let passengers = input.numberOfPassengers, passengers < 0 {
            throw FleetError.invalidArgument("trip.numberOfPassengers must not be negative, got \(passengers)", field: "trip.numberOfPassengers")
        }
        try checkTripAttributes(input.attributes)

        // Only these fields are used; every trip starts NEW.
        let now = clock.now()
        var trip = Trip()
        trip.name = name.description
        trip.tripStatus = .new
        trip.tripType = type
        trip.pickupPoint = input.pickupPoint
        trip.dropoffPoint = input.dropoffPoint
        trip.intermediateDestinations = input.intermediateDestinations
        if !input.intermediateDestinations.isEmpty { trip.intermediateDestinationsVersion = now }
        trip.numberOfPassengers = input.numberOfPassengers
        trip.attributes = input.attributes
        let vehicleID = input.vehicleId.flatMap { $0.isEmpty ? nil : $0 }
        if let vehicleID { _ = try VehicleName(provider: name.provider, vehicleID: vehicleID) }

        let key = tripKey(name)
        let order = input.vehicleWaypoints
        return { [self, trip] _ in
            if try store.get(key) != nil {
                throw FleetError(.alreadyExists, detail: name.description, field: "tripId")
            }
            var record = TripRecord(trip: trip, updatedAt: now, version: 0, key: key)
            var writes: [EngineWrite] = []
            var vehicle: VehicleRecord?
            if let vehicleID {
                var v = try requireAssignee(vehicleID, provider: name.provider)
                record.trip.vehicleId = vehicleID
                try assign(record, to: &v, order: order, now: now)
                writes.append(.save(v))
                vehicle = v
            }
            writes.insert(.save(record), at: 0)
            return (writes, tripView(record, vehicle: vehicle, now: now, includeVehicleWaypoints: true))
        }
    }

    public func getTrip(_ request: GetTripRequest) throws -> Trip {
        try Validate.values(of: request)
        let name = try TripName(parsing: request.name ?? "", field: "name")
        // The trip and its vehicle as of one moment, in one read of the store.
        let (record, vehicle) = try store.withSnapshot { snapshot in
            let key = tripKey(name)
            guard let stored = try snapshot.get(key) else { throw tripNotFound(key) }
            let record = try records.trip(stored)
            let vehicle = try record.vehicleID.flatMap { id in
                try snapshot.get(RecordKey(.vehicle, provider: name.provider, id: id)).map(records.vehicle)
            }
            return (record, vehicle)
        }
        var trip = tripView(record, vehicle: vehicle, now: clock.now(), encodedRoute: request.routeFormatType == .encodedPolylineType)
        trip.view = request.view
        if request.view == .journeySharingV1s {
            // Journey sharing shows a rider only their own trip: other riders' waypoints stay anonymous.
            trip.remainingWaypoints = trip.remainingWaypoints.map { w in
                var w = w
                if w.tripId != name.tripID { w.tripId = nil }
                return w
            }
        }
        if let since = request.currentRouteSegmentVersion, let version = trip.currentRouteSegmentVersion, version <= since {
            trip.route = []
            trip.currentRouteSegment = nil
        }
        if let since = request.currentRouteSegmentTrafficVersion, let version = trip.currentRouteSegmentTrafficVersion, version <= since {
            trip.currentRouteSegmentTraffic = nil
        }
        if let since = request.remainingWaypointsRouteVersion, let version = trip.remainingWaypointsRouteVersion, version <= since {
            trip.remainingWaypoints = trip.remainingWaypoints.map { w in
                var w = w
                w.pathToWaypoint = []
                w.encodedPathToWaypoint = nil
                w.trafficToWaypoint = nil
                return w
            }
        }
        return trip
    }

    /// UpdateTrip without waiting for the store, as `updateVehicle(_:completion:)`.
    public func updateTrip(_ request: UpdateTripRequest, completion: @escaping @Sendable (Result<Trip, any Error>) -> Void) {
        transact(preparing: { try tripUpdate(request) }, completion: completion)
    }

    /// The checked request as the body of a read-modify-write.
    private func tripUpdate(_ request: UpdateTripRequest) throws -> TransactionBody<Trip> {
        try Validate.values(of: request)
        let name = try TripName(parsing: request.name ?? "", field: "name")
        let paths = try UpdateMask.paths(request.updateMask, of: Trip.self)
        let update = request.trip ?? Trip()
        try checkTripUpdate(update, paths: paths, provider: name.provider)
        return { [self] _ in
            var record = try requireTrip(tripKey(name))
            let now = clock.now()
            let before = record.trip
            let wasActive = record.isActive
            var trip = try applyMask(of: update, paths: paths, to: before, now: now)
            try transitionStatus(&trip, from: before, update: update, paths: paths, now: now)
            record.trip = trip
            record.updatedAt = now
            let vehicles = try rebalanceVehicles(for: record, before: before, wasActive: wasActive, update: update,
                                                 paths: paths, now: now)
            let writes = [EngineWrite.save(record)] + vehicles.changed.map { var v = $0; v.tracking.updatedAt = now; return EngineWrite.save(v) }
            return (writes, tripView(record, vehicle: vehicles.current, now: now, includeVehicleWaypoints: true))
        }
    }

    public func searchTrips(_ request: SearchTripsRequest) throws -> SearchTripsResponse {
        try Validate.values(of: request)
        let parent = try ProviderName(parsing: request.parent ?? "", field: "parent")
        let pageSize = try pageSize(request.pageSize, field: "pageSize")
        let after = try PageToken.decode(request.pageToken, field: "pageToken")
        let vehicleID = request.vehicleId.flatMap { $0.isEmpty ? nil : $0 }
        if let vehicleID { _ = try VehicleName(provider: parent.provider, vehicleID: vehicleID) }
        if let staleness = request.minimumStaleness, staleness.timeInterval < 0 {
            throw FleetError.invalidArgument("minimumStaleness must not be negative", field: "minimumStaleness")
        }
        let now = clock.now()
        let cutoff = request.minimumStaleness.map { now.adding(seconds: -$0.timeInterval) }
        var candidates: [TripRecord]
        if let vehicleID {
            candidates = try store.owned(by: vehicleID, provider: parent.provider).map(records.trip)
                .filter { $0.vehicleID == vehicleID }
                .sorted { $0.key.id < $1.key.id }
        } else {
            candidates = []
            try forEachRecord(.trip, provider: parent.provider) { candidates.append(try records.trip($0)) }
        }
        candidates = candidates.filter { record in
            if let after, record.key.id <= after { return false }
            if request.activeTripsOnly == true && !record.isActive { return false }
            if let cutoff, let updated = record.updatedAt, updated > cutoff { return false }
            return true
        }
        let page = candidates.prefix(pageSize)
        let vehicle = try vehicleID.flatMap { try loadVehicle(RecordKey(.vehicle, provider: parent.provider, id: $0)) }
        let trips = page.map { record in
            vehicle != nil ? tripView(record, vehicle: vehicle, now: now) : record.trip
        }
        let next = candidates.count > pageSize ? page.last.map { PageToken.encode($0.key.id) } : nil
        return SearchTripsResponse(trips: trips, nextPageToken: next)
    }

    /// DeleteTrip without waiting for the store, as `updateVehicle(_:completion:)`.
    public func deleteTrip(_ request: DeleteTripRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        transact(preparing: { try tripDeletion(request) }, completion: completion)
    }

    /// The checked request as the body of a read-modify-write.
    private func tripDeletion(_ request: DeleteTripRequest) throws -> TransactionBody<Void> {
        try Validate.values(of: request)
        let name = try TripName(parsing: request.name ?? "", field: "name")
        return { [self] _ in
            let record = try requireTrip(tripKey(name))
            if record.isActive, let vehicleID = record.vehicleID {
                throw FleetError(.tripActiveAndAssigned, detail: "\(name) is \((record.trip.tripStatus ?? .new).name) on vehicle \(vehicleID); complete or cancel it first", field: "name")
            }
            return ([.delete(record.key, expectedVersion: record.version)], ())
        }
    }

    /// ReportBillableTrip: checked, then acknowledged at once (nothing is stored).
    public func reportBillableTrip(_ request: ReportBillableTripRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        completion(Result { try checkBillableReport(request) })
    }

    private func checkBillableReport(_ request: ReportBillableTripRequest) throws {
        try Validate.values(of: request)
        _ = try BillableTripName(parsing: request.name ?? "", field: "name")
        guard let country = request.countryCode, country.count == 2, country.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw FleetError.invalidArgument("countryCode is required: a two-letter country code such as \"DE\"", field: "countryCode")
        }
        guard request.relatedIds.count <= 50 else {
            throw FleetError.invalidArgument("relatedIds has \(request.relatedIds.count) entries; at most 50 are allowed", field: "relatedIds")
        }
        // A self-hosted engine has no billing: a valid report is acknowledged and needs no storage.
    }

    // MARK: Assignment

    /// The vehicle a trip is being given to; NOT_FOUND names it.
    func requireAssignee(_ id: String, provider: String) throws -> VehicleRecord {
        guard let record = try loadVehicle(RecordKey(.vehicle, provider: provider, id: id)) else {
            throw FleetError(.vehicleNotFound, detail: "providers/\(provider)/vehicles/\(id) (trip.vehicleId)", field: "trip.vehicleId")
        }
        return record
    }

    /// Puts an active trip on a vehicle: its trip type, capacity and the vehicle's other trips allow it,
    /// and its waypoints join the vehicle's in the requested (or appended) order.
    func assign(_ trip: TripRecord, to vehicle: inout VehicleRecord, order: [TripWaypoint], now: Timestamp) throws {
        let tripID = trip.key.id
        let type = trip.trip.tripType ?? .exclusive
        guard vehicle.vehicle.supportedTripTypes.contains(type) else {
            throw FleetError(.vehicleCannotTakeTrip, detail: "vehicle \(vehicle.key.id) does not support \(type.name) trips", field: "trip.vehicleId")
        }
        let riders = Self.riders(trip.trip)
        let capacity = Int(vehicle.vehicle.maximumCapacity ?? 1)
        guard riders <= capacity else {
            throw FleetError(.vehicleCannotTakeTrip, detail: "the trip has \(riders) passengers; vehicle \(vehicle.key.id) seats \(capacity)", field: "trip.numberOfPassengers")
        }
        let others = try vehicle.vehicle.currentTrips.filter { $0 != tripID }.compactMap { id in
            try loadTrip(RecordKey(.trip, provider: vehicle.key.provider, id: id))
        }.filter(\.isActive)
        var tripTypes: [String: TripType] = [tripID: type]
        for other in others { tripTypes[other.key.id] = other.trip.tripType ?? .exclusive }
        if !others.isEmpty {
            let allShared = type == .shared && others.allSatisfy { $0.trip.tripType == .shared }
            if allShared {
                let onBoard = others.map { Self.riders($0.trip) }.reduce(0, +)
                guard onBoard + riders <= capacity else {
                    throw FleetError(.vehicleCannotTakeTrip, detail: "vehicle \(vehicle.key.id) has \(onBoard) of \(capacity) seats taken; the trip needs \(riders)", field: "trip.vehicleId")
                }
            } else if vehicle.vehicle.backToBackEnabled != true {
                throw FleetError(.vehicleCannotTakeTrip, detail: "vehicle \(vehicle.key.id) is on trip \(others.map(\.key.id).joined(separator: ", ")) and does not accept back-to-back trips (backToBackEnabled)", field: "trip.vehicleId")
            }
        }
        let added = TripLifecycle.remainingWaypoints(of: trip.trip, tripID: tripID)
        let existing = vehicle.vehicle.waypoints.filter { $0.tripId != tripID }
        let merged: [TripWaypoint]
        if order.isEmpty {
            merged = existing + added
        } else {
            let pool = existing + added
            guard order.map(WaypointKey.init).sorted() == pool.map(WaypointKey.init).sorted() else {
                throw FleetError.invalidArgument("trip.vehicleWaypoints must list all the vehicle's remaining waypoints (\(pool.count), with this trip's) and no other", field: "trip.vehicleWaypoints")
            }
            var remaining = pool
            merged = order.map { w in remaining.remove(at: remaining.firstIndex { WaypointKey($0) == WaypointKey(w) }!) }
        }
        try WaypointOrder.validate(merged, trips: tripTypes, field: order.isEmpty ? "vehicle.waypoints" : "trip.vehicleWaypoints")
        if !vehicle.vehicle.currentTrips.contains(tripID) { vehicle.vehicle.currentTrips.append(tripID) }
        vehicle.vehicle.waypoints = merged
        vehicle.vehicle.waypointsVersion = now
        refreshProgress(&vehicle, now: now)
    }

    /// Takes a trip off a vehicle: out of its current trips and waypoints.
    func unassign(_ tripID: String, from vehicle: inout VehicleRecord, now: Timestamp) {
        vehicle.vehicle.currentTrips.removeAll { $0 == tripID }
        let kept = vehicle.vehicle.waypoints.filter { $0.tripId != tripID }
        if kept.count != vehicle.vehicle.waypoints.count {
            vehicle.vehicle.waypoints = kept
            vehicle.vehicle.waypointsVersion = now
        }
        refreshProgress(&vehicle, now: now)
    }

    /// Passengers a trip takes up: at least one.
    static func riders(_ trip: Trip) -> Int { max(1, Int(trip.numberOfPassengers ?? 1)) }

    /// Records when riders were picked up and dropped off.
    func stampTimes(_ trip: inout Trip, from: TripStatus, to: TripStatus, now: Timestamp) {
        let leftPickup = (from == .new || from == .enrouteToPickup || from == .arrivedAtPickup)
            && (to == .enrouteToDropoff || to == .enrouteToIntermediateDestination || to == .arrivedAtIntermediateDestination)
        if leftPickup { trip.pickupTime = now }
        if to == .complete { trip.dropoffTime = now }
    }

    // MARK: Checks

    func checkIntermediates(_ points: [TerminalLocation], type: TripType) throws {
        guard !points.isEmpty else { return }
        guard type == .exclusive else {
            throw FleetError.invalidArgument("trip.intermediateDestinations are only supported on EXCLUSIVE trips", field: "trip.intermediateDestinations")
        }
        for (i, p) in points.enumerated() { try Validate.terminal(p, field: "trip.intermediateDestinations[\(i)]") }
    }

    func checkTripAttributes(_ attributes: [TripAttribute]) throws {
        var seen = Set<String>()
        for (i, a) in attributes.enumerated() {
            guard let key = a.key, !key.isEmpty else {
                throw FleetError.invalidArgument("trip.attributes[\(i)].key is required", field: "trip.attributes[\(i)].key")
            }
            guard seen.insert(key).inserted else {
                throw FleetError.invalidArgument("trip.attributes has the key '\(key)' twice; each attribute must have a unique key", field: "trip.attributes[\(i)].key")
            }
        }
    }

    /// Checks the values an update sets before any store access.
    func checkTripUpdate(_ t: Trip, paths: [Trip.FieldPath], provider: String) throws {
        for path in paths {
            switch path {
            case .vehicleId:
                if let id = t.vehicleId, !id.isEmpty { _ = try VehicleName(provider: provider, vehicleID: id) }
            case .tripStatus:
                guard let status = t.tripStatus, status != .unknownTripStatus, TripStatus.allKnown.contains(status) else {
                    throw FleetError.invalidArgument("trip.tripStatus must be a trip status such as ENROUTE_TO_PICKUP", field: "trip.tripStatus")
                }
            case .tripType:
                guard let type = t.tripType, type == .shared || type == .exclusive else {
                    throw FleetError.invalidArgument("trip.tripType must be SHARED or EXCLUSIVE", field: "trip.tripType")
                }
            case .pickupPoint: try Validate.terminal(t.pickupPoint, field: "trip.pickupPoint")
            case .dropoffPoint: if t.dropoffPoint != nil { try Validate.terminal(t.dropoffPoint, field: "trip.dropoffPoint") }
            case .attributes: try checkTripAttributes(t.attributes)
            case .actualPickupPoint, .actualPickupArrivalPoint, .intermediateDestinations, .intermediateDestinationIndex,
                 .actualIntermediateDestinationArrivalPoints, .actualIntermediateDestinations, .actualDropoffPoint,
                 .vehicleWaypoints:
                break // any value will do, or checked against the stored trip when the update is applied
            case .name, .pickupTime, .intermediateDestinationsVersion, .dropoffTime, .remainingWaypoints, .route,
                 .currentRouteSegment, .currentRouteSegmentVersion, .currentRouteSegmentTraffic,
                 .currentRouteSegmentTrafficVersion, .currentRouteSegmentEndPoint, .remainingDistanceMeters,
                 .etaToFirstWaypoint, .remainingTimeToFirstWaypoint, .remainingWaypointsVersion,
                 .remainingWaypointsRouteVersion, .numberOfPassengers, .lastLocation, .lastLocationSnappable, .view:
                throw UpdateMask.serverOwned(path)
            }
        }
    }

    // MARK: The trip as calls return it

    /// The stored trip plus what it shares with its vehicle while active: location, route, traffic,
    /// remaining waypoints with their ETAs, distance and ETA to the next waypoint.
    func tripView(_ record: TripRecord, vehicle: VehicleRecord?, now: Timestamp,
                  encodedRoute: Bool = false, includeVehicleWaypoints: Bool = false) -> Trip {
        var trip = record.trip
        trip.vehicleWaypoints = []
        guard record.isActive, let vehicle, vehicle.vehicle.currentTrips.contains(record.key.id) else { return trip }
        let v = vehicle.vehicle
        let tripID = record.key.id
        if includeVehicleWaypoints { trip.vehicleWaypoints = v.waypoints }
        trip.lastLocation = v.lastLocation
        trip.lastLocationSnappable = vehicle.tracking.snappable ?? false
        if let last = v.waypoints.lastIndex(where: { $0.tripId == tripID }) {
            trip.remainingWaypoints = Array(v.waypoints[...last])
        }
        trip.remainingWaypointsVersion = v.waypointsVersion
        trip.remainingWaypointsRouteVersion = vehicle.tracking.waypointsRouteVersion
        if let segment = v.currentRouteSegment {
            // The route as decoded once per route change (RouteCache), not on every read.
            let cached = routeCache.entry(for: vehicle, learned: configuration.learnedETAs != nil)
            if encodedRoute {
                trip.currentRouteSegment = segment
            } else if let cached {
                trip.route = cached.route.points.map { LatLng(latitude: $0.latitude, longitude: $0.longitude) }
            }
            trip.currentRouteSegmentVersion = v.currentRouteSegmentVersion
            trip.currentRouteSegmentEndPoint = v.currentRouteSegmentEndPoint ?? v.waypoints.first
            // The driver's report (its navigation's traffic) when it sends one, else what the fleet's live speeds show.
            let reported = v.currentRouteSegmentTraffic.map { ($0, vehicle.tracking.trafficVersion) }
            let live = vehicle.tracking.liveTraffic.map { ($0, vehicle.tracking.liveTrafficVersion) }
            if let (traffic, version) = reported ?? live, let cached {
                trip.currentRouteSegmentTraffic = RouteGeometry.consumableTraffic(traffic, route: cached.route, segment: segment)
                trip.currentRouteSegmentTrafficVersion = version
            }
        }
        trip.remainingDistanceMeters = v.remainingDistanceMeters
        trip.etaToFirstWaypoint = v.etaToFirstWaypoint
        if let eta = v.etaToFirstWaypoint {
            trip.remainingTimeToFirstWaypoint = ProtoDuration(timeInterval: max(0, eta.timeIntervalSince1970 - now.timeIntervalSince1970))
        }
        let status = trip.tripStatus ?? .new
        if status == .new || status == .enrouteToPickup || status == .arrivedAtPickup {
            trip.pickupTime = trip.remainingWaypoints.first { $0.tripId == tripID && $0.waypointType == .pickupWaypointType }?.eta
                ?? (v.waypoints.first?.tripId == tripID ? v.etaToFirstWaypoint : nil)
        }
        trip.dropoffTime = trip.remainingWaypoints.last { $0.tripId == tripID && $0.waypointType == .dropOffWaypointType }?.eta
        return trip
    }
}
