import FleetStore
import FleetRandom

/// The crasher's commits: a seeded mix of creations (vehicles with points, trips with owners),
/// updates with version checks, deletions and multi-record commits, over the records it knows.
/// Each write of a vehicle carries a position history point, committed with it.
struct CrashWorkload {
    private var random: SeededRandom
    private let provider: String
    private let idPrefix: String
    private var nextNumber = 0
    /// The version of every live record, as the store acknowledged it.
    private var versions: [RecordKey: UInt64]
    private var vehicleIDs: [String] { versions.keys.filter { $0.kind == .vehicle }.map(\.id).sorted() }

    /// A workload continuing from the records already in the store.
    init(seed: UInt64, provider: String, existing: [StoreRecord]) {
        random = SeededRandom(seed: seed)
        self.provider = provider
        idPrefix = "s\(seed)-"
        versions = Dictionary(uniqueKeysWithValues: existing.map { ($0.key, $0.version) })
    }

    /// The writes of the next commit.
    mutating func nextCommit() -> [StoreWrite] {
        let roll = random.next() % 100
        if versions.isEmpty || roll < 20 { return [create(.vehicle)] }
        if roll < 35 { return [create(.trip)] }
        if roll < 70 { return [update(pickKey())] }
        if roll < 80 { return [delete(pickKey())] }
        var keys = Set<RecordKey>()
        var writes: [StoreWrite] = []
        for _ in 0..<(2 + Int(random.next() % 3)) {
            switch random.next() % 4 {
            case 0: writes.append(create(random.next() % 2 == 0 ? .vehicle : .trip))
            case 1:
                let key = pickKey()
                if keys.insert(key).inserted { writes.append(delete(key)) }
            default:
                let key = pickKey()
                if keys.insert(key).inserted { writes.append(update(key)) }
            }
        }
        return writes
    }

    /// Records what the store acknowledged.
    mutating func acknowledge(_ writes: [StoreWrite], versions newVersions: [UInt64]) {
        for (write, version) in zip(writes, newVersions) {
            versions[write.key] = version == 0 ? nil : version
        }
    }

    private mutating func pickKey() -> RecordKey {
        let keys = versions.keys.sorted()
        return keys[Int(random.next() % UInt64(keys.count))]
    }

    private mutating func create(_ kind: RecordKind) -> StoreWrite {
        nextNumber += 1
        let key = RecordKey(kind, provider: provider, id: "\(idPrefix)\(nextNumber)")
        return .put(record(key, version: 1), expectedVersion: 0)
    }

    private mutating func update(_ key: RecordKey) -> StoreWrite {
        let current = versions[key] ?? 0
        return .put(record(key, version: current + 1), expectedVersion: current)
    }

    private func delete(_ key: RecordKey) -> StoreWrite {
        .delete(key, expectedVersion: versions[key] ?? 0)
    }

    private mutating func record(_ key: RecordKey, version: UInt64) -> StoreRecord {
        var point: IndexPoint?
        var owner: String?
        switch key.kind {
        case .vehicle:
            point = IndexPoint(latitude: Double(random.next() % 120_000) / 1000 - 60,
                               longitude: Double(random.next() % 360_000) / 1000 - 180)
        case .trip:
            let vehicles = vehicleIDs
            if !vehicles.isEmpty && random.next() % 4 != 0 { owner = vehicles[Int(random.next() % UInt64(vehicles.count))] }
        case .roadTimes, .deliveryVehicle, .task, .shipment:
            break
        }
        // Mostly small records, now and then a large one: its append takes long enough to be cut by a kill.
        let fillerLength = random.next() % 10 == 0 ? 20_000 + Int(random.next() % 180_000) : Int(random.next() % 700)
        let payload = CrashPayload.make(key: key, version: version, point: point, owner: owner, fillerLength: fillerLength)
        // Every vehicle write keeps a history point whose time is the version it writes: after a
        // crash, a vehicle at version v has exactly the points 1…v (`CrashTests.checkHistory`).
        let historyPoint = point.map {
            HistoryPoint(provider: provider, vehicleID: key.id, time: Int64(version), latitude: $0.latitude, longitude: $0.longitude)
        }
        return StoreRecord(key: key, version: version, payload: payload, point: point, owner: owner, historyPoint: historyPoint)
    }
}
