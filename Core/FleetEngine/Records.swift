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
    /// The slow and jammed stretches of the current route ahead, from the fleet's live speeds against its learned
    /// times (`Engine+LiveTraffic`), in the Driver SDK's form (metres from the route's start); what riders see when
    /// the driver reports no traffic.
    var liveTraffic: TrafficPolylineData?
    /// When `liveTraffic` last changed.
    var liveTrafficVersion: Timestamp?

    init() {}

    /// Writes the members of the tracking object (what `init(json:)` reads).
    func writeMembers(to writer: inout ProtoJSONTextWriter) {
        writer.write("updatedAt", updatedAt)
        writer.write("trafficVersion", trafficVersion)
        writer.write("waypointsRouteVersion", waypointsRouteVersion)
        writer.write("travelledMeters", travelledMeters)
        writer.write("snappable", snappable)
        speed.writeMembers(to: &writer)
        writer.write("routePlanned", routePlanned)
        writer.write("plannedAt", plannedAt)
        writer.write("plannedWaypoints", plannedWaypoints)
        writer.write("liveTraffic", liveTraffic)
        writer.write("liveTrafficVersion", liveTrafficVersion)
    }

    init(json: JSON?) {
        guard case .object(let o)? = json else { return }
        let members = StoredMembers(o)
        updatedAt = members.time("updatedAt")
        trafficVersion = members.time("trafficVersion")
        waypointsRouteVersion = members.time("waypointsRouteVersion")
        travelledMeters = members.number("travelledMeters")
        snappable = members.bool("snappable")
        routePlanned = members.bool("routePlanned")
        plannedAt = members.time("plannedAt")
        plannedWaypoints = members.string("plannedWaypoints")
        liveTraffic = members.object["liveTraffic"].flatMap {
            try? TrafficPolylineData(json: $0, path: "liveTraffic", options: DecodingOptions(ignoreUnknownFields: true))
        }
        liveTrafficVersion = members.time("liveTrafficVersion")
        speed = ObservedSpeed.Snapshot(members)
    }
}

/// A stored record's payload as the engine writes it: a JSON object holding the resource under its
/// name, beside the engine's own members.
struct StoredPayload<Resource: ProtoMessage> {
    let resource: Resource
    let members: StoredMembers

    /// Decodes the payload of `record` (fields this build does not know are ignored).
    /// - Throws: INTERNAL (`.storeFailure`) when the payload holds no such resource.
    init(_ record: StoreRecord, resource name: String, as _: Resource.Type) throws {
        guard case .object(let o) = try JSON.parse(record.payload), let body = o[name] else {
            throw FleetError(.storeFailure, detail: "record \(record.key) holds no \(name)")
        }
        resource = try Resource(json: body, path: name, options: DecodingOptions(ignoreUnknownFields: true))
        members = StoredMembers(o)
    }
}

/// The members of a JSON object the engine stored (a record's tracking state), read leniently: a
/// member missing or of another type reads as nil.
struct StoredMembers {
    let object: JSONObject

    init(_ object: JSONObject) {
        self.object = object
    }

    func time(_ key: String) -> Timestamp? {
        if case .string(let s)? = object[key] { return try? Timestamp(rfc3339: s) }
        return nil
    }

    func number(_ key: String) -> Double? {
        if case .number(let n)? = object[key] { return n }
        return nil
    }

    func bool(_ key: String) -> Bool? {
        if case .bool(let b)? = object[key] { return b }
        return nil
    }

    func string(_ key: String) -> String? {
        if case .string(let s)? = object[key] { return s }
        return nil
    }

    func strings(_ key: String) -> [String] {
        guard case .array(let items)? = object[key] else { return [] }
        return items.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
    }
}

extension ObservedSpeed.Snapshot {
    /// Writes the snapshot as members of the object being written (what `init(_:)` reads).
    func writeMembers(to writer: inout ProtoJSONTextWriter) {
        writer.write("speedWeightedSum", weightedSum)
        writer.write("speedTotalWeight", totalWeight)
        writer.write("speedObservedSeconds", observedSeconds)
        writer.write("speedLastSampleTime", lastSampleTime)
        writer.write("lastFixLatitude", lastPosition?.latitude)
        writer.write("lastFixLongitude", lastPosition?.longitude)
        writer.write("lastFixTime", lastPositionTime)
    }

    /// The snapshot kept in a stored object's members.
    init(_ members: StoredMembers) {
        var position: GeoPoint?
        if let lat = members.number("lastFixLatitude"), let lng = members.number("lastFixLongitude") {
            position = GeoPoint(latitude: lat, longitude: lng)
        }
        self.init(weightedSum: members.number("speedWeightedSum") ?? 0, totalWeight: members.number("speedTotalWeight") ?? 0,
                  observedSeconds: members.number("speedObservedSeconds") ?? 0,
                  lastSampleTime: members.number("speedLastSampleTime"),
                  lastPosition: position, lastPositionTime: members.number("lastFixTime"))
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
        let stored = try StoredPayload(record, resource: "vehicle", as: Vehicle.self)
        vehicle = stored.resource
        tracking = VehicleTracking(json: stored.members.object["tracking"])
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
        vehicle.lastLocation.flatMap { HistoryPoint(key, location: $0, vehicleState: vehicle.vehicleState?.name, tripIDs: vehicle.currentTrips) }
    }
}

/// A location a driver reported, rides' (`VehicleLocation`) or Deliveries' (`DeliveryVehicleLocation`):
/// the fields the position history keeps.
protocol ReportedLocation {
    var location: LatLng? { get }
    var updateTime: Timestamp? { get }
    var serverTime: Timestamp? { get }
    var horizontalAccuracy: Double? { get }
    var latlngAccuracy: Double? { get }
    var speed: Double? { get }
    var speedKmph: Int32? { get }
    var heading: Int32? { get }
}

extension VehicleLocation: ReportedLocation {}
extension DeliveryVehicleLocation: ReportedLocation {}

extension HistoryPoint {
    /// The point of the vehicle under `key` (its kind, provider and ID) at `location`; nil when the
    /// location has no position.
    init?(_ key: RecordKey, location: some ReportedLocation, vehicleState: String?, tripIDs: [String]) {
        guard let at = location.location else { return nil }
        let time = location.updateTime ?? location.serverTime ?? .unixEpoch
        self.init(kind: key.kind, provider: key.provider, vehicleID: key.id,
                  time: Engine.microseconds(time),
                  latitude: at.latitude, longitude: at.longitude,
                  accuracyMeters: location.horizontalAccuracy ?? location.latlngAccuracy,
                  speedMetersPerSecond: location.speed ?? location.speedKmph.map { Double($0) / 3.6 },
                  headingDegrees: location.heading.map(Double.init),
                  vehicleState: vehicleState, tripIDs: tripIDs)
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
        let stored = try StoredPayload(record, resource: "trip", as: Trip.self)
        trip = stored.resource
        updatedAt = stored.members.time("updatedAt")
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
