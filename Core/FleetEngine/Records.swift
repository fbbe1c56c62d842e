import FleetErrors
import FleetInterface
import FleetGeo
import FleetModel
import FleetStore

/// What the engine keeps about a vehicle besides the Fleet Engine `Vehicle` itself.
struct VehicleTracking: Sendable, Hashable {
    /// Last time anything on the vehicle changed (for SearchTrips and stats).
    var updatedAt: Timestamp?
    /// When `currentRouteSegmentTraffic` last changed.
    var trafficVersion: Timestamp?
    /// When the paths and traffic to the remaining waypoints last changed.
    var waypointsRouteVersion: Timestamp?
    /// How far along the current route segment the last location snapped: where the next snap
    /// resumes, which keeps an update O(1) even in a new process.
    var travelledMeters: Double?
    /// Whether the last location could be snapped onto the current route segment.
    var snappable: Bool?
    /// The vehicle's smoothed observed speed, as FleetGeo's `ObservedSpeed` keeps it.
    var speed = ObservedSpeed.Snapshot()
    /// Whether `currentRouteSegment` is the engine's own plan on roads (true) rather than the driver's.
    var routePlanned: Bool?
    /// When the engine last planned (or tried to plan) the vehicle's route.
    var plannedAt: Timestamp?
    /// The waypoints that plan went through (``Engine/plannedWaypointsKey(_:)``): a change plans again.
    var plannedWaypoints: String?

    init() {}

    /// Writes the members of the tracking object (what `init(json:)` reads).
    func writeMembers(to writer: inout ProtoJSONTextWriter) {
        writer.write("updatedAt", updatedAt)
        writer.write("trafficVersion", trafficVersion)
        writer.write("waypointsRouteVersion", waypointsRouteVersion)
        writer.write("travelledMeters", travelledMeters)
        writer.write("snappable", snappable)
        writer.write("speedWeightedSum", speed.weightedSum)
        writer.write("speedTotalWeight", speed.totalWeight)
        writer.write("speedObservedSeconds", speed.observedSeconds)
        writer.write("speedLastSampleTime", speed.lastSampleTime)
        writer.write("lastFixLatitude", speed.lastPosition?.latitude)
        writer.write("lastFixLongitude", speed.lastPosition?.longitude)
        writer.write("lastFixTime", speed.lastPositionTime)
        writer.write("routePlanned", routePlanned)
        writer.write("plannedAt", plannedAt)
        writer.write("plannedWaypoints", plannedWaypoints)
    }

    init(json: JSON?) {
        guard case .object(let o)? = json else { return }
        func time(_ key: String) -> Timestamp? {
            if case .string(let s)? = o[key] { return try? Timestamp(rfc3339: s) }
            return nil
        }
        func number(_ key: String) -> Double? {
            if case .number(let n)? = o[key] { return n }
            return nil
        }
        updatedAt = time("updatedAt")
        trafficVersion = time("trafficVersion")
        waypointsRouteVersion = time("waypointsRouteVersion")
        travelledMeters = number("travelledMeters")
        if case .bool(let b)? = o["snappable"] { snappable = b }
        if case .bool(let b)? = o["routePlanned"] { routePlanned = b }
        plannedAt = time("plannedAt")
        if case .string(let s)? = o["plannedWaypoints"] { plannedWaypoints = s }
        var position: GeoPoint?
        if let lat = number("lastFixLatitude"), let lng = number("lastFixLongitude") {
            position = GeoPoint(latitude: lat, longitude: lng)
        }
        speed = ObservedSpeed.Snapshot(
            weightedSum: number("speedWeightedSum") ?? 0, totalWeight: number("speedTotalWeight") ?? 0,
            observedSeconds: number("speedObservedSeconds") ?? 0, lastSampleTime: number("speedLastSampleTime"),
            lastPosition: position, lastPositionTime: number("lastFixTime"))
    }
}

/// A vehicle as stored: the resource, the engine's tracking state, and the store version it was read at.
struct VehicleRecord: Sendable {
    var vehicle: Vehicle
    var tracking: VehicleTracking
    var version: UInt64
    var key: RecordKey
    /// Whether this write accepted a new location that the position history keeps
    /// (`Engine.acceptLocation`); the point is made from the vehicle as written. Never stored.
    var addsHistoryPoint = false

    init(vehicle: Vehicle, tracking: VehicleTracking = VehicleTracking(), version: UInt64, key: RecordKey) {
        self.vehicle = vehicle
        self.tracking = tracking
        self.version = version
        self.key = key
    }

    init(_ record: StoreRecord) throws {
        let json = try JSON.parse(record.payload)
        guard case .object(let o) = json, let body = o["vehicle"] else {
            throw FleetError(.storeFailure, detail: "record \(record.key) is not a vehicle record")
        }
        vehicle = try Vehicle(json: body, path: "vehicle", options: DecodingOptions(ignoreUnknownFields: true))
        tracking = VehicleTracking(json: o["tracking"])
        version = record.version
        key = record.key
    }

    /// The store record for this vehicle, indexed by its last location; `vehicleJSON`, when given,
    /// is the vehicle's JSON text, already written.
    func storeRecord(vehicleJSON: [UInt8]? = nil) -> StoreRecord {
        var payload = ProtoJSONTextWriter()
        payload.writeObject { record in
            if let vehicleJSON {
                record.writeJSONText("vehicle", vehicleJSON)
            } else {
                record.write("vehicle", vehicle)
            }
            record.writeObject("tracking", tracking.writeMembers)
        }
        let point = vehicle.lastLocation?.location.map { IndexPoint(latitude: $0.latitude, longitude: $0.longitude) }
        return StoreRecord(key: key, version: version, payload: payload.bytes, point: point,
                           historyPoint: addsHistoryPoint ? historyPoint : nil)
    }

    /// The vehicle's last location as the position history keeps it.
    var historyPoint: HistoryPoint? {
        guard let location = vehicle.lastLocation, let at = location.location else { return nil }
        let time = location.updateTime ?? location.serverTime ?? .unixEpoch
        return HistoryPoint(
            provider: key.provider, vehicleID: key.id,
            time: Engine.microseconds(time),
            latitude: at.latitude, longitude: at.longitude,
            accuracyMeters: location.horizontalAccuracy ?? location.latlngAccuracy,
            speedMetersPerSecond: location.speed ?? location.speedKmph.map { Double($0) / 3.6 },
            headingDegrees: location.heading.map(Double.init),
            vehicleState: vehicle.vehicleState?.name,
            tripIDs: vehicle.currentTrips)
    }
}

/// A trip as stored: the resource as last written (without the fields derived from its vehicle).
struct TripRecord: Sendable {
    var trip: Trip
    /// Last time the trip itself was written (SearchTrips' minimumStaleness).
    var updatedAt: Timestamp?
    var version: UInt64
    var key: RecordKey

    init(trip: Trip, updatedAt: Timestamp?, version: UInt64, key: RecordKey) {
        self.trip = trip
        self.updatedAt = updatedAt
        self.version = version
        self.key = key
    }

    init(_ record: StoreRecord) throws {
        let json = try JSON.parse(record.payload)
        guard case .object(let o) = json, let body = o["trip"] else {
            throw FleetError(.storeFailure, detail: "record \(record.key) is not a trip record")
        }
        trip = try Trip(json: body, path: "trip", options: DecodingOptions(ignoreUnknownFields: true))
        if case .string(let s)? = o["updatedAt"] { updatedAt = try? Timestamp(rfc3339: s) }
        version = record.version
        key = record.key
    }

    var isActive: Bool { TripLifecycle.isActive(trip.tripStatus ?? .new) }

    var vehicleID: String? {
        guard let id = trip.vehicleId, !id.isEmpty else { return nil }
        return id
    }

    func storeRecord() -> StoreRecord {
        var payload = ProtoJSONTextWriter()
        payload.writeObject { record in
            record.write("trip", trip)
            record.write("updatedAt", updatedAt)
        }
        return StoreRecord(key: key, version: version, payload: payload.bytes, owner: vehicleID)
    }
}
