import FleetErrors
import FleetGeo
import FleetModel
import FleetStore

extension Engine {
    /// CreateVehicle without waiting for the store, as `updateVehicle(_:completion:)`.
    public func createVehicle(_ request: CreateVehicleRequest,
                              completion: @escaping @Sendable (Result<Vehicle, any Error>) -> Void) {
        transact(preparing: { try vehicleCreation(request) }, completion: completion)
    }

    /// The checked request as the body of a write: the first attempt writes blind at version 0,
    /// which conflicts if the vehicle exists; a retry looks.
    private func vehicleCreation(_ request: CreateVehicleRequest) throws -> TransactionBody<Vehicle> {
        try Validate.values(of: request)
        let parent = try ProviderName(parsing: request.parent ?? "", field: "parent")
        let name = try VehicleName(provider: parent.provider, vehicleID: try requiredID(request.vehicleId, field: "vehicleId"))
        guard var vehicle = request.vehicle else {
            throw FleetError.invalidArgument("vehicle is required", field: "vehicle")
        }
        guard let state = vehicle.vehicleState, state != .unknownVehicleState else {
            throw FleetError.invalidArgument("vehicle.vehicleState is required (ONLINE or OFFLINE)", field: "vehicle.vehicleState")
        }
        try checkTripTypes(vehicle.supportedTripTypes, field: "vehicle.supportedTripTypes")
        guard let capacity = vehicle.maximumCapacity else {
            throw FleetError.invalidArgument("vehicle.maximumCapacity is required", field: "vehicle.maximumCapacity")
        }
        guard capacity >= 1 else {
            throw FleetError.invalidArgument("vehicle.maximumCapacity must be at least 1, got \(capacity)", field: "vehicle.maximumCapacity")
        }
        guard vehicle.vehicleType != nil else {
            throw FleetError.invalidArgument("vehicle.vehicleType is required", field: "vehicle.vehicleType")
        }
        try Validate.attributes(vehicle.attributes, field: "vehicle.attributes")

        // Fields the server owns are ignored on create.
        vehicle.name = name.description
        vehicle.currentTrips = []
        vehicle.currentRouteSegment = nil
        vehicle.currentRouteSegmentEndPoint = nil
        vehicle.currentRouteSegmentVersion = nil
        vehicle.currentRouteSegmentTraffic = nil
        vehicle.route = []
        vehicle.waypoints = []
        vehicle.waypointsVersion = nil
        vehicle.remainingDistanceMeters = nil
        vehicle.remainingTimeSeconds = nil
        vehicle.etaToFirstWaypoint = nil
        vehicle.navigationStatus = nil
        vehicle.pastLocations = []
        vehicle.estimatedLegs = []

        let now = clock.now()
        var record = VehicleRecord(vehicle: vehicle, version: 0, key: vehicleKey(name))
        if record.vehicle.lastLocation != nil {
            try acceptLocation(&record, now: now, field: "vehicle.lastLocation")
        }
        record.tracking.updatedAt = now
        return { [self, record] isFirstAttempt in
            if !isFirstAttempt, try store.get(record.key) != nil {
                throw FleetError(.alreadyExists, detail: name.description, field: "vehicleId")
            }
            return ([.save(record)], record.vehicle.forResponse)
        }
    }

    public func getVehicle(_ request: GetVehicleRequest) throws -> Vehicle {
        try Validate.values(of: request)
        let name = try VehicleName(parsing: request.name ?? "", field: "name")
        let record = try requireVehicle(vehicleKey(name))
        var vehicle = record.vehicle.forResponse
        if let since = request.currentRouteSegmentVersion, let version = vehicle.currentRouteSegmentVersion, version <= since {
            vehicle.currentRouteSegment = nil
        }
        if let since = request.waypointsVersion, let version = vehicle.waypointsVersion, version <= since {
            vehicle.waypoints = []
        }
        return vehicle
    }

    /// UpdateVehicle without waiting for the store: returns at once, and `completion` gets the
    /// vehicle or the error on this thread or on the store's writer thread. The server answers
    /// location reports, the bulk of all writes, this way, so that its threads never wait for a
    /// group commit. Keep `completion` short.
    public func updateVehicle(_ request: UpdateVehicleRequest,
                              completion: @escaping @Sendable (Result<Vehicle, any Error>) -> Void) {
        transact(preparing: { try vehicleUpdate(request) }, completion: completion)
    }

    /// UpdateVehicle without waiting for the store, for a server: as `updateVehicle(_:completion:)`,
    /// but `completion` gets the response as its proto3 JSON text, which is written once: when no
    /// field differs between the vehicle stored and the vehicle answered (the usual case), the
    /// stored record holds the same text.
    public func updateVehicleJSON(_ request: UpdateVehicleRequest,
                                  completion: @escaping @Sendable (Result<[UInt8], any Error>) -> Void) {
        transact(preparing: {
            try vehicleUpdate(request) { record in
                let response = record.vehicle.forResponse
                let json = response.jsonBytes()
                return ([.vehicle(record, vehicleJSON: response == record.vehicle ? json : nil)], json)
            }
        }, completion: completion)
    }

    /// The checked request as the body of a read-modify-write.
    private func vehicleUpdate(_ request: UpdateVehicleRequest) throws -> TransactionBody<Vehicle> {
        try vehicleUpdate(request) { record in ([.save(record)], record.vehicle.forResponse) }
    }

    /// The checked request as the body of a read-modify-write, which `finish` turns into the writes
    /// and the result.
    private func vehicleUpdate<Result>(
        _ request: UpdateVehicleRequest, finish: @escaping @Sendable (VehicleRecord) -> (writes: [EngineWrite], result: Result)
    ) throws -> TransactionBody<Result> {
        try Validate.values(of: request)
        let name = try VehicleName(parsing: request.name ?? "", field: "name")
        let paths = try UpdateMask.paths(request.updateMask, of: Vehicle.self)
        let update = request.vehicle ?? Vehicle()
        try checkVehicleUpdate(update, paths: paths)
        return { [self] isFirstAttempt in
            var record = try requireVehicle(vehicleKey(name), firstAttempt: isFirstAttempt)
            let now = clock.now()
            try apply(update, paths: paths, to: &record, now: now)
            record.tracking.updatedAt = now
            return finish(record)
        }
    }

    /// UpdateVehicleAttributes without waiting for the store, as `updateVehicle(_:completion:)`.
    public func updateVehicleAttributes(_ request: UpdateVehicleAttributesRequest,
                                        completion: @escaping @Sendable (Result<UpdateVehicleAttributesResponse, any Error>) -> Void) {
        transact(preparing: { try attributesUpdate(request) }, completion: completion)
    }

    /// The checked request as the body of a read-modify-write.
    private func attributesUpdate(_ request: UpdateVehicleAttributesRequest) throws -> TransactionBody<UpdateVehicleAttributesResponse> {
        try Validate.values(of: request)
        let name = try VehicleName(parsing: request.name ?? "", field: "name")
        guard !request.attributes.isEmpty else {
            throw FleetError.invalidArgument("attributes is required: name at least one attribute to set", field: "attributes")
        }
        try Validate.attributes(request.attributes, field: "attributes")
        return { [self] isFirstAttempt in
            var record = try requireVehicle(vehicleKey(name), firstAttempt: isFirstAttempt)
            var merged = record.vehicle.attributes
            for attribute in request.attributes {
                if let i = merged.firstIndex(where: { $0.key == attribute.key }) {
                    merged[i] = attribute
                } else {
                    merged.append(attribute)
                }
            }
            try Validate.attributes(merged, field: "attributes")
            record.vehicle.attributes = merged
            record.tracking.updatedAt = clock.now()
            let response = UpdateVehicleAttributesResponse(attributes: merged.map(\.forResponse))
            return ([.save(record)], response)
        }
    }

    /// DeleteVehicle without waiting for the store, as `updateVehicle(_:completion:)`.
    public func deleteVehicle(_ request: DeleteVehicleRequest, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        transact(preparing: { try vehicleDeletion(request) }, completion: completion)
    }

    /// The checked request as the body of a read-modify-write.
    private func vehicleDeletion(_ request: DeleteVehicleRequest) throws -> TransactionBody<Void> {
        try Validate.values(of: request)
        let name = try VehicleName(parsing: request.name ?? "", field: "name")
        return { [self] _ in
            let record = try requireVehicle(vehicleKey(name))
            let active = try activeTrips(of: record)
            guard active.isEmpty else {
                throw FleetError(.vehicleHasActiveTrips, detail: "\(name) has active trips \(active.map(\.key.id).joined(separator: ", ")); complete or cancel them first", field: "name")
            }
            return ([.delete(record.key, expectedVersion: record.version)], ())
        }
    }

    public func listVehicles(_ request: ListVehiclesRequest) throws -> ListVehiclesResponse {
        try Validate.values(of: request)
        let parent = try ProviderName(parsing: request.parent ?? "", field: "parent")
        let pageSize = try pageSize(request.pageSize, field: "pageSize")
        guard !request.vehicleTypeCategories.isEmpty else {
            throw FleetError.invalidArgument("vehicleTypeCategories is required: name at least one category (AUTO, TAXI, TRUCK, TWO_WHEELER, BICYCLE, PEDESTRIAN)", field: "vehicleTypeCategories")
        }
        if request.vehicleTypeCategories.contains(.unknown) {
            throw FleetError.invalidArgument("vehicleTypeCategories may not contain UNKNOWN", field: "vehicleTypeCategories")
        }
        if let minimum = request.minimumCapacity, minimum < 0 {
            throw FleetError.invalidArgument("minimumCapacity must be at least 0, got \(minimum)", field: "minimumCapacity")
        }
        var staleness: Double?
        if let maximum = request.maximumStaleness {
            guard maximum.timeInterval > 0 else {
                throw FleetError.invalidArgument("maximumStaleness must be a positive duration", field: "maximumStaleness")
            }
            staleness = maximum.timeInterval
        }
        let filter = try AttributeFilter(
            listRequired: request.requiredAttributes, oneOf: request.requiredOneOfAttributes,
            oneOfSets: request.requiredOneOfAttributeSets, filter: request.filter)
        let now = clock.now()
        let matches: (VehicleRecord) throws -> Bool = { record in
            let v = record.vehicle
            guard let category = v.vehicleType?.category, request.vehicleTypeCategories.contains(category) else { return false }
            if let minimum = request.minimumCapacity, (v.maximumCapacity ?? 0) < minimum { return false }
            if !request.tripTypes.isEmpty, !request.tripTypes.contains(where: v.supportedTripTypes.contains) { return false }
            if let state = request.vehicleState, state != .unknownVehicleState, v.vehicleState != state { return false }
            if request.onTripOnly == true, v.currentTrips.isEmpty { return false }
            if let staleness, !self.isFresh(v, now: now, maximumStaleness: staleness) { return false }
            if let viewport = request.viewport, !viewport.contains(v.lastLocation?.location) { return false }
            return filter.matches(v.attributes)
        }
        let after = try PageToken.decode(request.pageToken, field: "pageToken")
        var page: [(id: String, vehicle: Vehicle)] = []
        var hasMore = false
        var total = 0
        try forEachRecord(.vehicle, provider: parent.provider) { stored in
            let record = try records.vehicle(stored)
            guard try matches(record) else { return }
            total += 1
            if let after, stored.key.id <= after { return }
            if page.count < pageSize {
                page.append((stored.key.id, record.vehicle.forResponse))
            } else {
                hasMore = true
            }
        }
        let nextToken = hasMore ? page.last.map { PageToken.encode($0.id) } : nil
        return ListVehiclesResponse(vehicles: page.map(\.vehicle), nextPageToken: nextToken, totalSize: Int64(total))
    }

    // MARK: Helpers

    func requiredID(_ id: String?, field: String) throws -> String {
        guard let id, !id.isEmpty else {
            throw FleetError.invalidArgument("\(field) is required", field: field)
        }
        return id
    }

    func checkTripTypes(_ types: [TripType], field: String) throws {
        guard !types.isEmpty else {
            throw FleetError.invalidArgument("\(field) is required: name SHARED and/or EXCLUSIVE", field: field)
        }
        if let bad = types.first(where: { $0 != .shared && $0 != .exclusive }) {
            throw FleetError.invalidArgument("\(field) may only hold SHARED or EXCLUSIVE, got \(bad.name)", field: field)
        }
    }

    func pageSize(_ requested: Int32?, field: String) throws -> Int {
        guard let requested, requested != 0 else { return configuration.defaultPageSize }
        guard requested > 0 else {
            throw FleetError.invalidArgument("\(field) must not be negative, got \(requested)", field: field)
        }
        return min(Int(requested), configuration.maximumPageSize)
    }

    /// Whether a vehicle reported a location within `maximumStaleness` seconds of `now`.
    func isFresh(_ vehicle: Vehicle, now: Timestamp, maximumStaleness: Double) -> Bool {
        guard let location = vehicle.lastLocation,
              let time = location.serverTime ?? location.updateTime else { return false }
        return now.timeIntervalSince1970 - time.timeIntervalSince1970 <= maximumStaleness
    }

    func activeTrips(of record: VehicleRecord) throws -> [TripRecord] {
        try store.owned(by: record.key.id, provider: record.key.provider)
            .map(records.trip)
            .filter { $0.isActive && $0.vehicleID == record.key.id }
    }

    /// Checks the values an update sets before any store access.
    func checkVehicleUpdate(_ v: Vehicle, paths: [Vehicle.FieldPath]) throws {
        for path in paths {
            switch path {
            case .vehicleState:
                guard let state = v.vehicleState, state == .online || state == .offline else {
                    throw FleetError.invalidArgument("vehicle.vehicleState must be ONLINE or OFFLINE", field: "vehicle.vehicleState")
                }
            case .supportedTripTypes:
                try checkTripTypes(v.supportedTripTypes, field: "vehicle.supportedTripTypes")
            case .maximumCapacity:
                guard let c = v.maximumCapacity, c >= 1 else {
                    throw FleetError.invalidArgument("vehicle.maximumCapacity must be at least 1", field: "vehicle.maximumCapacity")
                }
            case .attributes:
                try Validate.attributes(v.attributes, field: "vehicle.attributes")
            case .vehicleType:
                guard v.vehicleType != nil else {
                    throw FleetError.invalidArgument("vehicle.vehicleType is required when named in updateMask", field: "vehicle.vehicleType")
                }
            case .lastLocation:
                guard let location = v.lastLocation else {
                    throw FleetError.invalidArgument("vehicle.lastLocation is required when named in updateMask", field: "vehicle.lastLocation")
                }
                try Validate.latLng(location.location, field: "vehicle.lastLocation.location")
            case .currentRouteSegment:
                if let segment = v.currentRouteSegment, !segment.isEmpty {
                    try Validate.routeSegment(segment, field: "vehicle.currentRouteSegment")
                }
            case .remainingDistanceMeters:
                if let d = v.remainingDistanceMeters, d < 0 {
                    throw FleetError.invalidArgument("vehicle.remainingDistanceMeters must not be negative", field: "vehicle.remainingDistanceMeters")
                }
            case .remainingTimeSeconds:
                if let t = v.remainingTimeSeconds, t < 0 {
                    throw FleetError.invalidArgument("vehicle.remainingTimeSeconds must not be negative", field: "vehicle.remainingTimeSeconds")
                }
            case .pastLocations, .licensePlate, .route, .currentRouteSegmentTraffic, .currentRouteSegmentEndPoint,
                 .etaToFirstWaypoint, .waypoints, .backToBackEnabled, .navigationStatus, .deviceSettings:
                break // any value will do, or checked against the stored vehicle in `apply`
            case .name, .currentTrips, .currentRouteSegmentVersion, .waypointsVersion:
                throw UpdateMask.serverOwned(path)
            }
        }
    }

    /// Applies the masked fields of `update` to a stored vehicle, then refreshes what derives from them.
    func apply(_ update: Vehicle, paths: [Vehicle.FieldPath], to record: inout VehicleRecord, now: Timestamp) throws {
        var routeChanged = false
        var progressInputsChanged = false
        var clientNavigation = false
        for path in paths {
            switch path {
            case .vehicleState: record.vehicle.vehicleState = update.vehicleState
            case .supportedTripTypes: record.vehicle.supportedTripTypes = update.supportedTripTypes
            case .lastLocation:
                record.vehicle.lastLocation = update.lastLocation
                try acceptLocation(&record, now: now, field: "vehicle.lastLocation")
                feedLiveTraffic(record, now: now)
                progressInputsChanged = true
            case .pastLocations: break // input only: locations the device could not send; the last one wins.
            case .maximumCapacity: record.vehicle.maximumCapacity = update.maximumCapacity
            case .attributes: record.vehicle.attributes = update.attributes
            case .vehicleType: record.vehicle.vehicleType = update.vehicleType
            case .licensePlate: record.vehicle.licensePlate = update.licensePlate
            case .route: record.vehicle.route = update.route
            case .currentRouteSegment:
                let segment = update.currentRouteSegment.flatMap { $0.isEmpty ? nil : $0 }
                record.tracking.routePlanned = nil  // the driver's route (or none) from now on
                record.vehicle.estimatedLegs = []
                if segment != record.vehicle.currentRouteSegment {
                    record.vehicle.currentRouteSegment = segment
                    record.vehicle.currentRouteSegmentVersion = now
                    record.tracking.waypointsRouteVersion = now
                    record.tracking.travelledMeters = nil
                    routeChanged = true
                }
                if paths.contains(.currentRouteSegmentEndPoint) {
                    record.vehicle.currentRouteSegmentEndPoint = update.currentRouteSegmentEndPoint
                } else if routeChanged {
                    record.vehicle.currentRouteSegmentEndPoint = nil
                }
                progressInputsChanged = true
            case .currentRouteSegmentEndPoint:
                break // used only together with currentRouteSegment, as Fleet Engine does
            case .currentRouteSegmentTraffic:
                record.vehicle.currentRouteSegmentTraffic = update.currentRouteSegmentTraffic
                record.tracking.trafficVersion = now
                record.tracking.waypointsRouteVersion = now
                progressInputsChanged = true
            case .remainingDistanceMeters:
                record.vehicle.remainingDistanceMeters = update.remainingDistanceMeters
                clientNavigation = true
            case .etaToFirstWaypoint:
                if !paths.contains(.remainingTimeSeconds) { record.vehicle.etaToFirstWaypoint = update.etaToFirstWaypoint }
                clientNavigation = true
            case .remainingTimeSeconds:
                // Takes precedence over etaToFirstWaypoint in the same request.
                record.vehicle.etaToFirstWaypoint = update.remainingTimeSeconds.map { now.adding(seconds: Double($0)) }
                clientNavigation = true
            case .waypoints:
                try reorderWaypoints(&record, to: update.waypoints, now: now)
                progressInputsChanged = true
            case .backToBackEnabled: record.vehicle.backToBackEnabled = update.backToBackEnabled
            case .navigationStatus: record.vehicle.navigationStatus = update.navigationStatus
            case .deviceSettings: record.vehicle.deviceSettings = update.deviceSettings
            case .name, .currentTrips, .currentRouteSegmentVersion, .waypointsVersion:
                throw UpdateMask.serverOwned(path)
            }
        }
        if progressInputsChanged || clientNavigation {
            // The engine derives progress and per-waypoint ETAs; figures the driver's navigation
            // supplied in this update take precedence for the vehicle's next waypoint.
            let supplied = (distance: record.vehicle.remainingDistanceMeters, eta: record.vehicle.etaToFirstWaypoint)
            refreshProgress(&record, now: now)
            if clientNavigation && routeEndsAtNextWaypoint(record) {
                if paths.contains(.remainingDistanceMeters) { record.vehicle.remainingDistanceMeters = supplied.distance }
                if paths.contains(.etaToFirstWaypoint) || paths.contains(.remainingTimeSeconds) {
                    record.vehicle.etaToFirstWaypoint = supplied.eta
                }
            }
        }
    }

    /// Whether the driver's route segment ends at the vehicle's next waypoint (within 50 m), so that its
    /// navigation figures are about that waypoint. A route to somewhere else (a later stop, the end of
    /// a planned drive) leaves the engine's own figures in place.
    func routeEndsAtNextWaypoint(_ record: VehicleRecord) -> Bool {
        let v = record.vehicle
        guard let next = v.waypoints.first?.location?.point else { return true }
        let end = v.currentRouteSegmentEndPoint?.location?.point.map(GeoPoint.init)
            ?? routeCache.entry(for: record, learned: configuration.learnedETAs != nil)?.route.end
        guard let end else { return false }
        return Geodesy.distance(end, GeoPoint(next)) <= 50
    }

    /// Stamps a new last location with the server's time and checks it.
    func acceptLocation(_ record: inout VehicleRecord, now: Timestamp, field: String) throws {
        guard var location = record.vehicle.lastLocation else { return }
        try Validate.latLng(location.location, field: "\(field).location")
        location.serverTime = now
        if location.updateTime == nil { location.updateTime = now }
        record.vehicle.lastLocation = location
        record.addsHistoryPoint = configuration.keepsHistory
    }

    /// `waypoints` may reorder the vehicle's waypoints, never add or drop one.
    func reorderWaypoints(_ record: inout VehicleRecord, to requested: [TripWaypoint], now: Timestamp) throws {
        let current = record.vehicle.waypoints
        func key(_ w: TripWaypoint) -> WaypointKey { WaypointKey(w) }
        guard requested.map(key).sorted() == current.map(key).sorted() else {
            throw FleetError.invalidArgument(
                "vehicle.waypoints must contain all the waypoints currently on the vehicle (\(current.count)) and no other",
                field: "vehicle.waypoints")
        }
        var pool = current
        var ordered: [TripWaypoint] = []
        for w in requested {
            let i = pool.firstIndex { key($0) == key(w) }!
            ordered.append(pool.remove(at: i))
        }
        try WaypointOrder.validate(ordered, trips: [:], field: "vehicle.waypoints")
        if ordered.map(key) != current.map(key) {
            record.vehicle.waypoints = ordered
            record.vehicle.waypointsVersion = now
        }
    }
}

/// Identifies a waypoint by trip, type and place (what Fleet Engine compares).
struct WaypointKey: Hashable, Comparable {
    let tripID: String
    let type: String
    let latitude: Double
    let longitude: Double

    init(_ w: TripWaypoint) {
        tripID = w.tripId ?? ""
        type = (w.waypointType ?? .unknownWaypointType).name
        latitude = ((w.location?.point?.latitude ?? 0) * 1e6).rounded()
        longitude = ((w.location?.point?.longitude ?? 0) * 1e6).rounded()
    }

    static func < (a: WaypointKey, b: WaypointKey) -> Bool {
        (a.tripID, a.type, a.latitude, a.longitude) < (b.tripID, b.type, b.latitude, b.longitude)
    }
}

extension Vehicle {
    /// The vehicle as calls return it: input-only fields left out, attributes in both spellings.
    var forResponse: Vehicle {
        var v = self
        v.pastLocations = []
        v.deviceSettings = nil
        v.currentRouteSegmentTraffic = nil
        v.remainingTimeSeconds = nil
        v.attributes = v.attributes.map(\.forResponse)
        return v
    }
}
