import FleetErrors
import FleetGeo
import FleetModel
import FleetStore

/// What the engine keeps about a delivery vehicle besides the Fleet Engine `DeliveryVehicle` itself.
struct DeliveryVehicleTracking: Sendable, Hashable {
    /// Last time anything on the vehicle changed.
    var updatedAt: Timestamp?
    /// The vehicle's smoothed observed speed, as FleetGeo's `ObservedSpeed` keeps it.
    var speed = ObservedSpeed.Snapshot()
    /// The stops (a digest of their places, in order, and whether the vehicle had a location) the
    /// segments' legs were last measured for (``Engine/measuredStopsKey(placesDigest:hasOrigin:)``): a
    /// change measures them again.
    var measuredStops: String?
    /// When the legs were last measured (or a measurement on roads was last tried).
    var measuredAt: Timestamp?
    /// Whether the legs follow roads (the configured router's), rather than great-circle estimates.
    var legsOnRoads: Bool?
    /// Each segment's `path` as an encoded polyline, in segment order ("" for none): kept here rather
    /// than in the segments, where a road path costs eight times the bytes in every write of the vehicle.
    var legPaths: [String] = []
    /// How far along the route to the next stop the last location snapped: where the next snap resumes.
    var travelledMeters: Double?
    /// Whether the last location could be snapped onto the route to the next stop.
    var snappable: Bool?

    init() {}

    /// Writes the members of the tracking object (what `init(json:)` reads), `legPaths` as
    /// `legPathsText` when given (their text as ``EncodedStops`` keeps it).
    func writeMembers(to writer: inout ProtoJSONTextWriter, legPathsText: [UInt8]? = nil) {
        writer.write("updatedAt", updatedAt)
        speed.writeMembers(to: &writer)
        writer.write("measuredStops", measuredStops)
        writer.write("measuredAt", measuredAt)
        writer.write("legsOnRoads", legsOnRoads)
        if let legPathsText {
            writer.writeJSONText("legPaths", legPathsText)
        } else {
            writer.write("legPaths", legPaths)
        }
        writer.write("travelledMeters", travelledMeters)
        writer.write("snappable", snappable)
    }

    init(json: JSON?) {
        guard case .object(let o)? = json else { return }
        let members = StoredMembers(o)
        updatedAt = members.time("updatedAt")
        speed = ObservedSpeed.Snapshot(members)
        measuredStops = members.string("measuredStops")
        measuredAt = members.time("measuredAt")
        legsOnRoads = members.bool("legsOnRoads")
        legPaths = members.strings("legPaths")
        travelledMeters = members.number("travelledMeters")
        snappable = members.bool("snappable")
    }
}

/// A delivery vehicle as stored: the resource, the engine's tracking state, and the store version it was read at.
struct DeliveryVehicleRecord: Sendable {
    var vehicle: DeliveryVehicle
    var tracking: DeliveryVehicleTracking
    var version: UInt64
    var key: RecordKey
    /// Whether this write accepted a new location that the position history keeps
    /// (`Engine.acceptDeliveryLocation`); the point is made from the vehicle as written. Never stored.
    var addsHistoryPoint = false
    /// The stops as JSON text, when written for stops and leg paths equal to the record's
    /// (``currentStops``); kept with the decoded record in this process, never stored.
    var encodedStops: EncodedStops?

    init(vehicle: DeliveryVehicle, tracking: DeliveryVehicleTracking = DeliveryVehicleTracking(), version: UInt64, key: RecordKey) {
        self.vehicle = vehicle
        self.tracking = tracking
        self.version = version
        self.key = key
    }

    init(_ record: StoreRecord) throws {
        let stored = try StoredPayload(record, resource: "deliveryVehicle", as: DeliveryVehicle.self)
        vehicle = stored.resource
        tracking = DeliveryVehicleTracking(json: stored.members.object["tracking"])
        version = record.version
        key = record.key
    }

    /// The store record, indexed by the vehicle's last location, with the point the position history
    /// keeps when the write accepted a location. The stops and leg paths are written from
    /// ``currentStops``, the vehicle's other fields from `vehicleFields` when given (``vehicleFieldsText``).
    func storeRecord(vehicleFields: [UInt8]? = nil) -> StoreRecord {
        let stops = currentStops
        var payload = ProtoJSONTextWriter()
        payload.writeObject { record in
            record.writeObject("deliveryVehicle") { writer in
                writer.writeMembersText(vehicleFields ?? vehicleFieldsText)
                if let text = stops.stored { writer.writeJSONText("remainingVehicleJourneySegments", text) }
            }
            record.writeObject("tracking") { tracking.writeMembers(to: &$0, legPathsText: stops.legPathsText) }
        }
        let point = vehicle.lastLocation?.location.map { IndexPoint(latitude: $0.latitude, longitude: $0.longitude) }
        let historyPoint = addsHistoryPoint ? vehicle.lastLocation.flatMap { HistoryPoint(key, location: $0, vehicleState: nil, tripIDs: []) } : nil
        return StoreRecord(key: key, version: version, payload: payload.bytes, point: point, historyPoint: historyPoint)
    }

    /// The vehicle's fields but its stops, as stored: JSON members (``ProtoJSONTextWriter/membersText(_:options:)``).
    var vehicleFieldsText: [UInt8] {
        var rest = vehicle
        rest.remainingVehicleJourneySegments = []
        return ProtoJSONTextWriter.membersText(rest)
    }

    /// The stops as JSON text: `encodedStops` when it was written for these stops and leg paths, else
    /// written now.
    var currentStops: EncodedStops {
        if let encodedStops, encodedStops.holds(for: self) { return encodedStops }
        return EncodedStops(vehicle.remainingVehicleJourneySegments, legPaths: tracking.legPaths)
    }

    /// Makes `encodedStops` hold for the record's stops (writing them only when they changed), so that
    /// the store record, the answer and the next update of this process all use one text.
    mutating func encodeStops() {
        encodedStops = currentStops
    }

    /// The IDs of the tasks at each remaining stop, in order.
    var stopTaskIDs: [[String]] {
        vehicle.remainingVehicleJourneySegments.map { ($0.stop?.tasks ?? []).compactMap(\.taskId) }
    }

    /// The index of the remaining stop where the task is done, if the task is on the vehicle.
    func stopIndex(ofTask id: String) -> Int? {
        vehicle.remainingVehicleJourneySegments.firstIndex { segment in
            segment.stop?.tasks.contains { $0.taskId == id } ?? false
        }
    }
}

/// A delivery vehicle's stops as JSON text, written once per change of them. A location report, the
/// bulk of a van's writes, changes no stop; writing 20 stops again for every report, into the record
/// and into the answer, cost more than the rest of the update.
final class EncodedStops: Sendable {
    /// What the texts were written from: they hold while the record's stops and leg paths are equal
    /// to these (an array not written to since compares by identity, at once).
    let segments: [VehicleJourneySegment]
    let legPaths: [String]
    /// `remainingVehicleJourneySegments` as stored; nil when there are none.
    let stored: [UInt8]?
    /// The same as calls answer them (``Engine/deliveryVehicleView(_:targetTimeWindows:)`` without
    /// target time windows: each segment with its path), enums by name; nil when there are none.
    let answered: [UInt8]?
    /// Each segment's path, decoded from `legPaths` (empty where none was measured).
    let paths: [[LatLng]]
    /// Each segment's path as JSON text, its points' objects without the array's brackets (empty where
    /// none was measured): GetTaskTrackingInfo's route joins them.
    let pathTexts: [[UInt8]]
    /// `legPaths` as a JSON array, as the record stores them; nil when there are none.
    let legPathsText: [UInt8]?
    /// The digest of the stops' places in order (``Engine/stopPlacesDigest(_:)``).
    let placesDigest: UInt64

    init(_ segments: [VehicleJourneySegment], legPaths: [String]) {
        self.segments = segments
        self.legPaths = legPaths
        paths = Self.paths(legPaths, segments: segments.count)
        pathTexts = paths.map { $0.isEmpty ? [] : Array(ProtoJSONTextWriter.arrayText($0).dropFirst().dropLast()) }
        legPathsText = legPaths.isEmpty ? nil : ProtoJSONTextWriter.arrayText(legPaths)
        placesDigest = Engine.stopPlacesDigest(segments)
        if segments.isEmpty {
            stored = nil
            answered = nil
        } else {
            stored = ProtoJSONTextWriter.arrayText(segments)
            var withPaths = segments
            for i in withPaths.indices { withPaths[i].path = paths[i] }
            answered = ProtoJSONTextWriter.arrayText(withPaths)
        }
    }

    /// `legPaths` decoded, one path for each of `count` segments.
    static func paths(_ legPaths: [String], segments count: Int) -> [[LatLng]] {
        (0..<count).map { i in
            guard i < legPaths.count, let points = try? Polyline.decode(legPaths[i]) else { return [] }
            return points.map { LatLng(latitude: $0.latitude, longitude: $0.longitude) }
        }
    }

    /// Whether the texts were written for `record`'s stops and leg paths.
    func holds(for record: DeliveryVehicleRecord) -> Bool {
        segments == record.vehicle.remainingVehicleJourneySegments && legPaths == record.tracking.legPaths
    }

    /// Writes the fields of `vehicle` as members of the object being written, its stops as `text`
    /// (`stored` or `answered`) in place of its own `remainingVehicleJourneySegments`.
    static func write(_ vehicle: DeliveryVehicle, stops text: [UInt8]?, to writer: inout ProtoJSONTextWriter) {
        var rest = vehicle
        rest.remainingVehicleJourneySegments = []
        writer.writeMembersText(ProtoJSONTextWriter.membersText(rest, options: writer.options))
        if let text { writer.writeJSONText("remainingVehicleJourneySegments", text) }
    }
}

/// A task as stored: the resource as last written (without `journeySharingInfo`, which is derived
/// from its vehicle when read).
struct TaskRecord: Sendable {
    var task: DeliveryTask
    /// Last time the task itself was written.
    var updatedAt: Timestamp?
    /// When the task was closed: of a tracking ID's closed tasks, GetTaskTrackingInfo shows the one
    /// closed last.
    var closedAt: Timestamp?
    var version: UInt64
    var key: RecordKey

    init(task: DeliveryTask, updatedAt: Timestamp?, version: UInt64, key: RecordKey) {
        self.task = task
        self.updatedAt = updatedAt
        self.version = version
        self.key = key
    }

    init(_ record: StoreRecord) throws {
        let stored = try StoredPayload(record, resource: "task", as: DeliveryTask.self)
        task = stored.resource
        updatedAt = stored.members.time("updatedAt")
        closedAt = stored.members.time("closedAt")
        version = record.version
        key = record.key
    }

    var isOpen: Bool { task.state == .open }

    /// The delivery vehicle the task is assigned to (it keeps it once closed).
    var vehicleID: String? {
        guard let id = task.deliveryVehicleId, !id.isEmpty else { return nil }
        return id
    }

    var trackingID: String? {
        guard let id = task.trackingId, !id.isEmpty else { return nil }
        return id
    }

    func storeRecord() -> StoreRecord {
        var payload = ProtoJSONTextWriter()
        payload.writeObject { record in
            record.write("task", task)
            record.write("updatedAt", updatedAt)
            record.write("closedAt", closedAt)
        }
        return StoreRecord(key: key, version: version, payload: payload.bytes, owner: vehicleID)
    }
}

/// The tasks that share one tracking ID (the record's ID), so that GetTaskTrackingInfo reads them
/// without a scan of every task. Written in the same commit as each task created or deleted.
struct ShipmentRecord: Sendable {
    /// The tasks' IDs, sorted.
    var taskIDs: [String]
    var version: UInt64
    var key: RecordKey

    init(taskIDs: [String], version: UInt64, key: RecordKey) {
        self.taskIDs = taskIDs
        self.version = version
        self.key = key
    }

    init(_ record: StoreRecord) throws {
        guard case .object(let o) = try JSON.parse(record.payload) else {
            throw FleetError(.storeFailure, detail: "record \(record.key) is not a shipment record")
        }
        taskIDs = StoredMembers(o).strings("taskIds")
        version = record.version
        key = record.key
    }

    func storeRecord() -> StoreRecord {
        var payload = ProtoJSONTextWriter()
        payload.writeObject { $0.write("taskIds", taskIDs) }
        return StoreRecord(key: key, version: version, payload: payload.bytes)
    }
}
