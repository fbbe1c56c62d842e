import FleetErrors

/// The kinds of resource a store holds.
public enum RecordKind: String, Sendable, Hashable, CaseIterable, Codable {
    case vehicle
    case trip
    /// The fleet's learned travel times and waits, one record per provider and square of ground
    /// (FleetEngine's `LearnedTimesStorage`): no vehicle or trip in them.
    case roadTimes
    /// A Deliveries vehicle (`providers/{p}/deliveryVehicles/{id}`), indexed by its last location.
    case deliveryVehicle
    /// A Deliveries task (`providers/{p}/tasks/{id}`); its `owner` is the delivery vehicle it is assigned to.
    case task
    /// The tasks sharing one tracking ID (the record's ID), written in the same commit as those tasks,
    /// so that GetTaskTrackingInfo finds them without reading every task.
    case shipment

    /// The kind of the record a record of this kind names as its `owner`: a trip's vehicle, a task's
    /// delivery vehicle; nil for kinds that have no owner.
    public var ownerKind: RecordKind? {
        switch self {
        case .trip: .vehicle
        case .task: .deliveryVehicle
        case .vehicle, .roadTimes, .deliveryVehicle, .shipment: nil
        }
    }
}

/// Identifies one record: its kind, its provider and its ID within the provider.
public struct RecordKey: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    public var kind: RecordKind
    public var provider: String
    public var id: String

    public init(_ kind: RecordKind, provider: String, id: String) {
        self.kind = kind
        self.provider = provider
        self.id = id
    }

    public static func < (a: RecordKey, b: RecordKey) -> Bool {
        (a.kind.rawValue, a.provider, a.id) < (b.kind.rawValue, b.provider, b.id)
    }

    public var description: String { "\(kind.rawValue):\(provider)/\(id)" }
}

/// A point the store indexes for nearby search (WGS84 degrees).
public struct IndexPoint: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// One stored resource: an opaque payload (the engine's encoding) plus the fields the store indexes.
public struct StoreRecord: Sendable, Hashable {
    public var key: RecordKey
    /// Assigned by the store: 1 on creation, one more on every write. Used for optimistic concurrency.
    public var version: UInt64
    /// The resource as the engine encoded it; the store never looks inside.
    public var payload: [UInt8]
    /// For vehicles: the last location, indexed for `nearby`. (Delivery vehicles keep theirs here too,
    /// for a later search; `nearby` returns rides vehicles only.)
    public var point: IndexPoint?
    /// For trips: the ID of the vehicle it is assigned to, indexed for `owned(by:)`. For tasks: the
    /// delivery vehicle's ID (`RecordKind.ownerKind`); `owned(by:)` returns trips only.
    public var owner: String?
    /// For a `put` of a vehicle: a point to append to the position history in the same commit as
    /// the record (a crash keeps both or neither). Not part of the record: reads return nil.
    public var historyPoint: HistoryPoint?

    public init(key: RecordKey, version: UInt64, payload: [UInt8], point: IndexPoint? = nil, owner: String? = nil,
                historyPoint: HistoryPoint? = nil) {
        self.key = key
        self.version = version
        self.payload = payload
        self.point = point
        self.owner = owner
        self.historyPoint = historyPoint
    }
}

/// A record's key, version and indexed point, without its payload: enough for a search to decide
/// which records it must read (and whether a copy it already decoded is current).
public struct IndexEntry: Sendable, Hashable {
    public var key: RecordKey
    public var version: UInt64
    public var point: IndexPoint

    public init(key: RecordKey, version: UInt64, point: IndexPoint) {
        self.key = key
        self.version = version
        self.point = point
    }
}

/// One change in an atomic commit.
public enum StoreWrite: Sendable, Hashable {
    /// Creates or replaces a record. `expectedVersion` 0 means "must not exist yet".
    /// The record's own `version` is ignored: the store assigns `expectedVersion + 1`, except that a
    /// store shared by several processes continues a record created again after a delete from the
    /// version it was deleted at, so that a version another process remembers from before the delete
    /// can never match the new record.
    case put(StoreRecord, expectedVersion: UInt64)
    /// Removes a record, which must be at `expectedVersion`.
    case delete(RecordKey, expectedVersion: UInt64)

    public var key: RecordKey {
        switch self {
        case .put(let record, _): record.key
        case .delete(let key, _): key
        }
    }

    public var expectedVersion: UInt64 {
        switch self {
        case .put(_, let version), .delete(_, let version): version
        }
    }
}

/// A commit found a record at another version than expected; nothing was applied.
public struct StoreConflict: Error, Sendable, Hashable {
    public var key: RecordKey
    public var expectedVersion: UInt64
    /// The version found, 0 when the record does not exist.
    public var actualVersion: UInt64

    public init(key: RecordKey, expectedVersion: UInt64, actualVersion: UInt64) {
        self.key = key
        self.expectedVersion = expectedVersion
        self.actualVersion = actualVersion
    }
}

/// Reads within `Store.withSnapshot`: every read sees the same committed state. Valid only inside
/// the body it was given to.
public protocol StoreSnapshot {
    /// The record under `key`, or nil.
    func get(_ key: RecordKey) throws -> StoreRecord?
}

/// Where the engine keeps vehicles and trips: a versioned record store with two indexes.
///
/// Every implementation passes the same contract suite (`StoreContract` in the tests).
/// Methods are safe to call from any thread. Failures other than `StoreConflict` are `FleetError`s
/// (`.storeFailure`, `.storeBusy`).
public protocol Store: AnyObject, Sendable {
    /// The record under `key`, or nil.
    func get(_ key: RecordKey) throws -> StoreRecord?

    /// Applies every write or none. When it returns, the writes are durable (if the store was opened
    /// durable) and visible to every reader. Returns the new version of each write (0 for deletes).
    /// Throws `StoreConflict` when a record is not at its expected version.
    @discardableResult
    func commit(_ writes: [StoreWrite]) throws -> [UInt64]

    /// Runs `body` with reads that all see one committed state (a trip and its vehicle as of the same
    /// moment), at the cost of one read transaction instead of one per record. (No default, for the
    /// same reason as `nearbyIndex`.)
    func withSnapshot<Value>(_ body: (any StoreSnapshot) throws -> Value) throws -> Value

    /// `commit` without waiting: returns at once, and `completion` gets what `commit` would have
    /// returned or thrown, on any thread, once the writes are durable and visible (or failed).
    /// A store that has nothing to wait for answers with `commitAtOnce(_:completion:)`. (No default,
    /// for the same reason as `nearbyIndex`: a wrapping store that forgot it would block its callers.)
    func commit(_ writes: [StoreWrite], completion: @escaping @Sendable (Result<[UInt64], any Error>) -> Void)

    /// Up to `limit` records of one kind and provider, ordered by ID, with IDs after `afterID`.
    func list(_ kind: RecordKind, provider: String, afterID: String?, limit: Int) throws -> [StoreRecord]

    /// Vehicles of the provider whose point lies within `radiusMeters` of `center`.
    /// May return a few more (a bounding box); the caller filters exactly.
    func nearby(provider: String, center: IndexPoint, radiusMeters: Double) throws -> [StoreRecord]

    /// Like `nearby`, without the payloads. A store that cannot skip them answers with
    /// `indexEntries(nearbyProvider:center:radiusMeters:)`. (No default: a store wrapping another
    /// must forward this, or searches through it would read every payload.)
    func nearbyIndex(provider: String, center: IndexPoint, radiusMeters: Double) throws -> [IndexEntry]

    /// Trips of the provider whose owner is `owner`.
    func owned(by owner: String, provider: String) throws -> [StoreRecord]

    /// Up to `limit` points of the position history that `query` matches and that lie after
    /// `cursor` (nil: from the start), in time order (then `HistoryPoint.sequence`). Page through a
    /// long history with the last point's `cursor`, or with `forEachHistoryPoint`.
    func history(_ query: HistoryQuery, after cursor: HistoryCursor?, limit: Int) throws -> [HistoryPoint]

    /// Removes up to `limit` of the oldest history points older than `time` (microseconds since
    /// 1970-01-01 UTC) and returns how many it removed: a small step, so that a pruner calling it
    /// again and again never holds up the store's writers for long. A prune a crash loses is done
    /// again by the next one.
    @discardableResult
    func pruneHistory(before time: Int64, limit: Int) throws -> Int

    /// Flushes and releases the store. Further calls fail.
    func close() throws

    /// Whether other processes may change the records (an SQLite file several processes open).
    /// Their writes do not pass through this process, so whoever waits for changes must also look
    /// again now and then. (No default, for the same reason as `nearbyIndex`.)
    var isSharedWithOtherProcesses: Bool { get }

    /// Calls `handler` with the keys of records any process committed (this one's included), soon
    /// after each commit, on a thread of the store's; for shared stores whose other writers can
    /// say so (PostgreSQL's LISTEN/NOTIFY), so that a watch on one node wakes when another node
    /// writes instead of at its next poll. Nil when the store cannot tell. Changes may be missed
    /// while the store reconnects: keep polling as well. (No default, for the same reason as
    /// `nearbyIndex`: a wrapping store that forgot it would slow every watch down to the poll.)
    func observeChanges(_ handler: @escaping @Sendable ([RecordKey]) -> Void) -> (any StoreChangeObservation)?
}

/// Notifications `Store.observeChanges` started; they stop on `cancel()`.
public protocol StoreChangeObservation: AnyObject, Sendable {
    /// Stops the notifications (one under way may still arrive). Safe to call more than once.
    func cancel()
}

extension Store {
    /// `nearbyIndex` answered from `nearby`, for stores that read payloads anyway.
    public func indexEntries(nearbyProvider provider: String, center: IndexPoint, radiusMeters: Double) throws -> [IndexEntry] {
        try nearby(provider: provider, center: center, radiusMeters: radiusMeters).compactMap { record in
            record.point.map { IndexEntry(key: record.key, version: record.version, point: $0) }
        }
    }

    /// `commit(_:completion:)` answered by `commit` on the calling thread, for stores whose commits
    /// do not wait for other writers.
    public func commitAtOnce(_ writes: [StoreWrite], completion: @escaping @Sendable (Result<[UInt64], any Error>) -> Void) {
        completion(Result { try commit(writes) })
    }

    /// Convenience for a single write.
    @discardableResult
    public func commit(_ write: StoreWrite) throws -> UInt64 {
        try commit([write])[0]
    }
}
