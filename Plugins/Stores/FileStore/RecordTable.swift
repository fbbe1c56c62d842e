import FleetStore

/// The records of a file store in memory, with the indexes its queries need: IDs in order per kind
/// and provider (for `list`), vehicle points on a grid (for `nearby`) and trips by owner (for `owned`).
///
/// Only journalled outcomes are applied here, and each one is checked against the version it
/// follows, so a replay that would apply a commit twice or skip one fails loudly.
struct RecordTable {
    /// An entry does not follow the version the table holds: the journal and the snapshot disagree.
    struct Mismatch: Error, Sendable {
        var message: String
    }

    private struct BucketKey: Hashable {
        var kind: RecordKind
        var provider: String
    }

    private struct Bucket {
        var records: [String: StoreRecord] = [:]
        /// The IDs in order, rebuilt by `list` after a creation or removal.
        var sortedIDs: [String]? = nil
    }

    /// The position history.
    private(set) var history = HistoryLog()
    private var buckets: [BucketKey: Bucket] = [:]
    private var grid = SpatialGrid()
    private var owners = OwnerIndex()
    /// How many records the table holds.
    private(set) var count = 0

    func record(_ key: RecordKey) -> StoreRecord? {
        buckets[BucketKey(kind: key.kind, provider: key.provider)]?.records[key.id]
    }

    /// The record's version, 0 when it does not exist.
    func version(_ key: RecordKey) -> UInt64 {
        record(key)?.version ?? 0
    }

    /// Applies one journalled change after checking it follows the version held.
    mutating func apply(_ entry: JournalEntry) throws {
        switch entry {
        case .put(let record):
            let current = version(record.key)
            guard record.version == current + 1 else {
                throw Mismatch(message: "\(record.key) is written at version \(record.version) but is at version \(current)")
            }
            store(record)
        case .delete(let key, let version):
            let current = self.version(key)
            guard version > 0, current == version else {
                throw Mismatch(message: "\(key) is deleted at version \(version) but is at version \(current)")
            }
            remove(key)
        case .history(let point):
            history.load(point)
        case .historyPruned(let before, let count):
            history.prune(before: before, limit: count)
        }
    }

    /// Adds a history point read from a snapshot.
    mutating func load(_ point: HistoryPoint) {
        history.load(point)
    }

    /// Adds a record read from a snapshot, which must not hold the key twice.
    mutating func load(_ record: StoreRecord) throws {
        guard self.record(record.key) == nil else { throw Mismatch(message: "\(record.key) appears twice") }
        guard record.version > 0 else { throw Mismatch(message: "\(record.key) has version 0") }
        store(record)
    }

    /// Up to `limit` records after `afterID`, ordered by ID.
    mutating func list(_ kind: RecordKind, provider: String, afterID: String?, limit: Int) -> [StoreRecord] {
        let bucketKey = BucketKey(kind: kind, provider: provider)
        guard limit > 0, var bucket = buckets[bucketKey] else { return [] }
        let ids: [String]
        if let sorted = bucket.sortedIDs {
            ids = sorted
        } else {
            ids = bucket.records.keys.sorted(by: IDOrder.precedes)
            bucket.sortedIDs = ids
            buckets[bucketKey] = bucket
        }
        var start = 0
        if let afterID {
            var high = ids.count
            while start < high {
                let middle = (start + high) / 2
                if IDOrder.precedes(afterID, ids[middle]) { high = middle } else { start = middle + 1 }
            }
        }
        return ids[start..<start + min(limit, ids.count - start)].compactMap { bucket.records[$0] }
    }

    /// The provider's vehicles whose point lies in the bounding box of the circle, ordered by ID.
    func nearby(provider: String, center: IndexPoint, radiusMeters: Double) -> [StoreRecord] {
        let vehicles = buckets[BucketKey(kind: .vehicle, provider: provider)]?.records ?? [:]
        return grid.candidates(provider: provider, center: center, radiusMeters: radiusMeters).sorted(by: IDOrder.precedes).compactMap { vehicles[$0] }
    }

    /// The provider's trips owned by `owner`, ordered by ID.
    func owned(by owner: String, provider: String) -> [StoreRecord] {
        let trips = buckets[BucketKey(kind: .trip, provider: provider)]?.records ?? [:]
        return owners.ids(provider: provider, owner: owner).compactMap { trips[$0] }
    }

    /// Every record, in no particular order.
    func forEach(_ body: (StoreRecord) throws -> Void) rethrows {
        for bucket in buckets.values {
            for record in bucket.records.values { try body(record) }
        }
    }

    private mutating func store(_ record: StoreRecord) {
        let bucketKey = BucketKey(kind: record.key.kind, provider: record.key.provider)
        let old = buckets[bucketKey]?.records[record.key.id]
        if let old { unindex(old) }
        index(record)
        buckets[bucketKey, default: Bucket()].records[record.key.id] = record
        if old == nil {
            buckets[bucketKey]?.sortedIDs = nil
            count += 1
        }
    }

    private mutating func remove(_ key: RecordKey) {
        let bucketKey = BucketKey(kind: key.kind, provider: key.provider)
        guard let old = buckets[bucketKey]?.records.removeValue(forKey: key.id) else { return }
        unindex(old)
        buckets[bucketKey]?.sortedIDs = nil
        if buckets[bucketKey]?.records.isEmpty == true { buckets[bucketKey] = nil }
        count -= 1
    }

    private mutating func index(_ record: StoreRecord) {
        switch record.key.kind {
        case .vehicle:
            if let point = record.point { grid.insert(provider: record.key.provider, id: record.key.id, point: point) }
        case .trip:
            if let owner = record.owner { owners.insert(provider: record.key.provider, owner: owner, id: record.key.id) }
        case .roadTimes, .deliveryVehicle, .task, .shipment:
            break
        }
    }

    private mutating func unindex(_ record: StoreRecord) {
        switch record.key.kind {
        case .vehicle:
            if let point = record.point { grid.remove(provider: record.key.provider, id: record.key.id, point: point) }
        case .trip:
            if let owner = record.owner { owners.remove(provider: record.key.provider, owner: owner, id: record.key.id) }
        case .roadTimes, .deliveryVehicle, .task, .shipment:
            break
        }
    }
}
