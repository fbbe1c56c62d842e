import FleetErrors
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

    init() {}

    func toJSON() -> JSON {
        var o = JSONObject()
        func put(_ key: String, _ value: Double?) { if let value { o[key] = .number(value) } }
        if let updatedAt { o["updatedAt"] = .string(updatedAt.description) }
        if let trafficVersion { o["trafficVersion"] = .string(trafficVersion.description) }
        if let waypointsRouteVersion { o["waypointsRouteVersion"] = .string(waypointsRouteVersion.description) }
        put("travelledMeters", travelledMeters)
        if let snappable { o["snappable"] = .bool(snappable) }
        put("speedWeightedSum", speed.weightedSum)
        put("speedTotalWeight", speed.totalWeight)
        put("speedObservedSeconds", speed.observedSeconds)
        put("speedLastSampleTime", speed.lastSampleTime)
        put("lastFixLatitude", speed.lastPosition?.latitude)
        put("lastFixLongitude", speed.lastPosition?.longitude)
        put("lastFixTime", speed.lastPositionTime)
        return .object(o)
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

    /// The store record for this vehicle, indexed by its last location.
    func storeRecord() -> StoreRecord {
        let payload = recordPayload([("vehicle", vehicle.jsonBytes()), ("tracking", tracking.toJSON().serializedBytes())])
        let point = vehicle.lastLocation?.location.map { IndexPoint(latitude: $0.latitude, longitude: $0.longitude) }
        return StoreRecord(key: key, version: version, payload: payload, point: point)
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
        var members = [("trip", trip.jsonBytes())]
        if let updatedAt { members.append(("updatedAt", JSON.string(updatedAt.description).serializedBytes())) }
        return StoreRecord(key: key, version: version, payload: recordPayload(members), owner: vehicleID)
    }
}

/// A record's payload, `{"key":value,…}`, from values already written as JSON text (the resource's
/// JSON is written directly, with no tree in between). Keys are the engine's own ASCII names.
func recordPayload(_ members: [(key: String, json: [UInt8])]) -> [UInt8] {
    var bytes: [UInt8] = [UInt8(ascii: "{")]
    bytes.reserveCapacity(members.reduce(16) { $0 + $1.key.utf8.count + $1.json.count + 4 })
    for (offset, member) in members.enumerated() {
        if offset > 0 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        bytes += member.key.utf8
        bytes += [UInt8(ascii: "\""), UInt8(ascii: ":")]
        bytes += member.json
    }
    bytes.append(UInt8(ascii: "}"))
    return bytes
}
