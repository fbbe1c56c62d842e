import FleetConcurrency
import FleetErrors
import FleetSchemes
import FleetStore

/// A store that keeps every record in memory, behind one lock: for tests and small fleets.
///
/// Nothing survives the process. `nearby` is a linear scan of the provider's vehicles
/// with a conservative great-circle distance, so it never misses a point within the radius.
/// Writes in one commit apply in order, each seeing the ones before it.
public final class MemoryStore: Store {
    /// The `memory` scheme for `StoreRegistry`: a fresh, empty store that lives as long as the process.
    public static let scheme = StoreRegistry.Scheme(
        name: "memory",
        summary: "records kept in this process's memory only; nothing is saved",
        needsPath: false,
        open: { _, _ in MemoryStore() })

    /// The tables behind a plain mutex (see `Lock` for why not `Mutex`).
    private let state = Locked(MemoryTables())

    /// An empty store.
    public init() {}

    /// The record under `key`, or nil.
    public func get(_ key: RecordKey) throws -> StoreRecord? {
        try state.withLock { tables in
            try tables.checkOpen()
            return tables.record(key)
        }
    }

    /// Runs `body` under the store's lock: no write lands between its reads.
    public func withSnapshot<Value>(_ body: (any StoreSnapshot) throws -> Value) throws -> Value {
        try state.withLock { tables in
            try tables.checkOpen()
            return try body(MemorySnapshot(tables: tables))
        }
    }

    /// Applies every write or none (each write sees the ones before it); returns the new versions.
    @discardableResult
    public func commit(_ writes: [StoreWrite]) throws -> [UInt64] {
        try state.withLock { tables in
            try tables.checkOpen()
            return try tables.apply(writes)
        }
    }

    /// Commits on the calling thread: there is nothing to wait for.
    public func commit(_ writes: [StoreWrite], completion: @escaping @Sendable (Result<[UInt64], any Error>) -> Void) {
        commitAtOnce(writes, completion: completion)
    }

    /// Up to `limit` records of one kind and provider ordered by ID (byte order), after `afterID`.
    public func list(_ kind: RecordKind, provider: String, afterID: String?, limit: Int) throws -> [StoreRecord] {
        try state.withLock { tables in
            try tables.checkOpen()
            guard limit > 0 else { return [] }
            let table = tables.table(kind, provider)
            var ids = table.keys.filter { id in afterID.map { IDOrder.precedes($0, id) } ?? true }
            ids.sort(by: IDOrder.precedes)
            return ids.prefix(limit).compactMap { table[$0] }
        }
    }

    /// The payloads are in memory anyway: the entries come from `nearby`.
    public func nearbyIndex(provider: String, center: IndexPoint, radiusMeters: Double) throws -> [IndexEntry] {
        try indexEntries(nearbyProvider: provider, center: center, radiusMeters: radiusMeters)
    }

    /// Points of the history in time order, from memory.
    public func history(_ query: HistoryQuery, after cursor: HistoryCursor?, limit: Int) throws -> [HistoryPoint] {
        try state.withLock { tables in
            try tables.checkOpen()
            return tables.history.page(query, after: cursor, limit: limit)
        }
    }

    /// Drops up to `limit` of the oldest points older than `time`.
    @discardableResult
    public func pruneHistory(before time: Int64, limit: Int) throws -> Int {
        try state.withLock { tables in
            try tables.checkOpen()
            return tables.pruneHistory(before: time, limit: limit)
        }
    }

    /// This process's alone.
    public var isSharedWithOtherProcesses: Bool { false }

    /// Every change passes through this process's engine, which tells its watchers itself.
    public func observeChanges(_ handler: @escaping @Sendable ([RecordKey]) -> Void) -> (any StoreChangeObservation)? { nil }

    /// The provider's vehicles within `radiusMeters` of `center` (never fewer than a caller's exact filter keeps).
    public func nearby(provider: String, center: IndexPoint, radiusMeters: Double) throws -> [StoreRecord] {
        try state.withLock { tables in
            try tables.checkOpen()
            return tables.table(.vehicle, provider).values
                .filter { record in
                    guard let point = record.point else { return false }
                    return ConservativeDistance.meters(center, point) <= radiusMeters
                }
                .sorted { IDOrder.precedes($0.key.id, $1.key.id) }
        }
    }

    /// The provider's trips whose owner is `owner`, ordered by ID.
    public func owned(by owner: String, provider: String) throws -> [StoreRecord] {
        try state.withLock { tables in
            try tables.checkOpen()
            return tables.table(.trip, provider).values
                .filter { $0.owner == owner }
                .sorted { IDOrder.precedes($0.key.id, $1.key.id) }
        }
    }

    /// Drops every record; later calls fail. Calling it again does nothing.
    public func close() throws {
        state.withLock { $0.close() }
    }
}

/// The tables as they are while `MemoryStore.withSnapshot` holds the lock.
private struct MemorySnapshot: StoreSnapshot {
    let tables: MemoryTables

    func get(_ key: RecordKey) throws -> StoreRecord? { tables.record(key) }
}
