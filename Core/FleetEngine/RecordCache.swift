import FleetModel
import FleetConcurrency
import FleetStore
import Foundation

/// Decoded vehicles (and trips, delivery vehicles, tasks and shipments) by store key and version, so a record read again
/// at the same version (a search over a busy area, the next update of a vehicle) skips decoding its
/// JSON. A version mismatch is a miss, so writes by other processes are always seen. Sharded locks
/// keep writer threads apart.
final class RecordCache: @unchecked Sendable {
    private final class Shard {
        let lock = Lock()
        var vehicles: [RecordKey: DecodedVehicle] = [:]
        var trips: [RecordKey: TripRecord] = [:]
        var deliveryVehicles: [RecordKey: DeliveryVehicleRecord] = [:]
        var tasks: [RecordKey: TaskRecord] = [:]
        var shipments: [RecordKey: ShipmentRecord] = [:]
    }

    private let shards: [Shard]
    private let capacityPerShard: Int

    init(capacity: Int = 262_144, shards: Int = 16) {
        self.shards = (0..<shards).map { _ in Shard() }
        capacityPerShard = max(1, capacity / shards)
    }

    private func shard(_ key: RecordKey) -> Int {
        var hasher = Hasher()
        hasher.combine(key)
        return Int(UInt(bitPattern: hasher.finalize()) % UInt(shards.count))
    }

    /// The vehicle in `stored`, decoded once per version.
    func vehicle(_ stored: StoreRecord) throws -> VehicleRecord {
        try decoded(stored).record
    }

    /// The vehicle in `stored` as a shared box (no copy of the record), decoded once per version.
    func decoded(_ stored: StoreRecord) throws -> DecodedVehicle {
        if let hit = cached(stored.key, version: stored.version) { return hit }
        let box = DecodedVehicle(try VehicleRecord(stored))
        remember(box)
        return box
    }

    /// The decoded vehicle at exactly this version, if remembered.
    func cached(_ key: RecordKey, version: UInt64) -> DecodedVehicle? {
        let shard = shards[shard(key)]
        return shard.lock.withLock {
            guard let hit = shard.vehicles[key], hit.record.version == version else { return nil }
            return hit
        }
    }

    /// The newest copy of a vehicle this process has read or written, at whatever version; nil if
    /// none is remembered. Writers may start from it and let the store's version check catch a copy
    /// that another process has since made stale.
    func latestVehicle(_ key: RecordKey) -> VehicleRecord? {
        let shard = shards[shard(key)]
        return shard.lock.withLock { shard.vehicles[key]?.record }
    }

    /// Forgets a deleted record.
    func forget(_ key: RecordKey) {
        let shard = shards[shard(key)]
        shard.lock.withLock {
            shard.vehicles[key] = nil
            shard.trips[key] = nil
            shard.deliveryVehicles[key] = nil
            shard.tasks[key] = nil
            shard.shipments[key] = nil
        }
    }

    /// The delivery vehicle in `stored`, decoded once per version, with its stops' text (`encodeStops()`),
    /// which its next update and every tracking answer of its tasks use.
    func deliveryVehicle(_ stored: StoreRecord) throws -> DeliveryVehicleRecord {
        try decoded(stored, in: \.deliveryVehicles, version: \.version) { stored in
            var record = try DeliveryVehicleRecord(stored)
            record.encodeStops()
            return record
        }
    }

    /// The newest copy of a delivery vehicle this process has read or written, as `latestVehicle`.
    func latestDeliveryVehicle(_ key: RecordKey) -> DeliveryVehicleRecord? {
        let shard = shards[shard(key)]
        return shard.lock.withLock { shard.deliveryVehicles[key] }
    }

    /// Remembers a decoded delivery vehicle.
    func remember(_ record: DeliveryVehicleRecord) {
        remember(record, key: record.key, in: \.deliveryVehicles)
    }

    /// The record of `stored` from a shard's `table` when remembered at its version, else decoded and remembered.
    private func decoded<Record>(_ stored: StoreRecord, in table: ReferenceWritableKeyPath<Shard, [RecordKey: Record]>,
                                 version: KeyPath<Record, UInt64>, decode: (StoreRecord) throws -> Record) throws -> Record {
        let shard = shards[shard(stored.key)]
        if let hit = shard.lock.withLock({ shard[keyPath: table][stored.key] }), hit[keyPath: version] == stored.version { return hit }
        let record = try decode(stored)
        remember(record, key: stored.key, in: table)
        return record
    }

    /// Remembers a record in a shard's `table` (evicting the whole table when it is full: simple and bounded).
    private func remember<Record>(_ record: Record, key: RecordKey, in table: ReferenceWritableKeyPath<Shard, [RecordKey: Record]>) {
        let shard = shards[shard(key)]
        shard.lock.withLock {
            if shard[keyPath: table].count >= capacityPerShard { shard[keyPath: table].removeAll(keepingCapacity: true) }
            shard[keyPath: table][key] = record
        }
    }

    /// The task in `stored`, decoded once per version (GetTaskTrackingInfo reads the same task again and again).
    func task(_ stored: StoreRecord) throws -> TaskRecord {
        try decoded(stored, in: \.tasks, version: \.version, decode: TaskRecord.init)
    }

    /// The shipment (a tracking ID's tasks) in `stored`, decoded once per version (every GetTaskTrackingInfo reads it).
    func shipment(_ stored: StoreRecord) throws -> ShipmentRecord {
        try decoded(stored, in: \.shipments, version: \.version, decode: ShipmentRecord.init)
    }

    /// The trip in `stored`, decoded once per version.
    func trip(_ stored: StoreRecord) throws -> TripRecord {
        try decoded(stored, in: \.trips, version: \.version, decode: TripRecord.init)
    }

    /// Remembers a decoded trip.
    func remember(_ record: TripRecord) {
        remember(record, key: record.key, in: \.trips)
    }

    /// Remembers a decoded vehicle (evicting a whole shard when it is full: simple and bounded).
    func remember(_ record: VehicleRecord) {
        remember(DecodedVehicle(record))
    }

    private func remember(_ box: DecodedVehicle) {
        let shard = shards[shard(box.record.key)]
        shard.lock.withLock {
            if shard.vehicles.count >= capacityPerShard { shard.vehicles.removeAll(keepingCapacity: true) }
            shard.vehicles[box.record.key] = box
        }
    }
}

/// A decoded vehicle shared by reference, so a search handles thousands without copying them.
final class DecodedVehicle: Sendable {
    let record: VehicleRecord
    /// What SearchVehicles checks of every candidate, read once per version.
    let facts: SearchFacts

    init(_ record: VehicleRecord) {
        self.record = record
        facts = SearchFacts(record.vehicle)
    }
}

/// The few fields SearchVehicles checks of every candidate, kept apart from the `Vehicle` (a large
/// value, costly to copy once per candidate of every search).
struct SearchFacts: Sendable {
    let isOnline: Bool
    let location: LatLng?
    /// When the location was recorded (server time, else the device's), in seconds since 1970.
    let locationSeconds: Double?
    let takesExclusive: Bool
    let takesShared: Bool
    let category: VehicleType.Category?
    let capacity: Int
    let hasCurrentTrips: Bool

    init(_ v: Vehicle) {
        isOnline = v.vehicleState == .online
        location = v.lastLocation?.location
        locationSeconds = (v.lastLocation?.serverTime ?? v.lastLocation?.updateTime)?.timeIntervalSince1970
        takesExclusive = v.supportedTripTypes.contains(.exclusive)
        takesShared = v.supportedTripTypes.contains(.shared)
        category = v.vehicleType?.category
        capacity = Int(v.maximumCapacity ?? 1)
        hasCurrentTrips = !v.currentTrips.isEmpty
    }

    func takes(_ type: TripType) -> Bool {
        type == .exclusive ? takesExclusive : type == .shared ? takesShared : false
    }
}
