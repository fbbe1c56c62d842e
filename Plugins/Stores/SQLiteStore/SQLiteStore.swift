import CSQLite
import FleetErrors
import FleetSchemes
import FleetStore
import Foundation

/// The embedded default store: one SQLite file in WAL mode, which several processes may share.
///
/// Writes from all threads go through group commit (one transaction and one fsync for every batch
/// waiting at that moment); reads use a small pool of their own connections and never wait for
/// writers. Nearby search looks up grid cells in an index of the records table (see
/// `gridCell(of:)`); the owner index is a plain index.
public final class SQLiteStore: Store {
    /// The `sqlite:PATH` scheme for `StoreRegistry`.
    public static let scheme = scheme(historyFilingInterval: defaultHistoryFilingInterval)

    /// `sqlite:PATH` filing history points by vehicle and time after every `historyFilingInterval` of them
    /// (tests and tools that want the filing to happen often).
    public static func scheme(historyFilingInterval: Int) -> StoreRegistry.Scheme {
        StoreRegistry.Scheme(
            name: "sqlite",
            summary: "an SQLite database file at PATH, created if missing (its folder must exist); several processes may share it",
            needsPath: true,
            check: { url in try url.requireFolder(of: url.rest) },
            open: { path, options in try SQLiteStore(path: path, options: options, historyFilingInterval: historyFilingInterval) })
    }

    /// The number of the grid cell (1/512 of a degree square) the store files a point under, in the
    /// records table's indexed `cell` column; for tools that write rows as the store does.
    public static func gridCell(of point: IndexPoint) -> Int64 {
        GeoBox.cellNumber(of: point)
    }

    /// How long an operation waits by default for a lock held by another connection or process before
    /// it fails with `storeBusy`.
    public static let defaultBusyTimeoutMilliseconds = 5_000

    /// How many history points the store appends between two filings of them by vehicle and by
    /// time (see `HistorySQL.fileByVehicle`): more makes writes cheaper and leaves a longer unfiled
    /// tail for every read of the history to look through.
    public static let defaultHistoryFilingInterval = 8_192

    /// The most read connections one store opens.
    public static let readerCapacity = 4

    /// The database file.
    public let path: String
    /// How the store was opened.
    public let options: StoreOptions

    let writer: RecordWriter
    let committer: GroupCommitter<[StoreWrite], [UInt64]>
    private let readers: ReaderPool
    /// The connection history pruning writes on (one), apart from the group committer's.
    private let pruner: ReaderPool

    /// Opens the database at `path`, creating it (and its schema) if needed.
    ///
    /// `busyTimeoutMilliseconds` is how long each operation may wait for another process's lock;
    /// `historyFilingInterval`, how many history points are appended between two filings of them
    /// (`defaultHistoryFilingInterval`). Throws `storeFailure` when the file cannot be
    /// opened, `storeCorrupted` when it is not a database, and `storeSchemaTooNew` when a newer
    /// version of the engine wrote it.
    public init(path: String, options: StoreOptions = .init(),
                busyTimeoutMilliseconds: Int = SQLiteStore.defaultBusyTimeoutMilliseconds,
                historyFilingInterval: Int = SQLiteStore.defaultHistoryFilingInterval) throws {
        self.path = path
        self.options = options
        let connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try Self.configureWriter(connection, durable: options.durable)
        try Self.mapIntoMemory(connection)
        try Schema.migrate(connection)
        let writer = RecordWriter(connection: connection, historyFilingInterval: historyFilingInterval)
        self.writer = writer
        self.committer = GroupCommitter(closedError: { SQLiteFailure.closed(path: path) }) { group in
            writer.run(group)
        }
        self.readers = ReaderPool(capacity: Self.readerCapacity, closedError: { SQLiteFailure.closed(path: path) }) {
            let reader = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            try reader.execute("PRAGMA query_only = 1", doing: "opening a read connection")
            try Self.mapIntoMemory(reader)
            return reader
        }
        // A prune that a crash loses is done again: no sync of its own (the next durable commit's
        // sync of the WAL covers it), so that its short write lock is all a writer may wait for.
        // It never checkpoints: a checkpoint without a sync of the database file could let the
        // writer's next transaction overwrite WAL frames whose pages a power cut then loses.
        self.pruner = ReaderPool(capacity: 1, closedError: { SQLiteFailure.closed(path: path) }) {
            let connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            try connection.execute("PRAGMA synchronous = OFF", doing: "opening the history pruning connection")
            _ = try connection.firstRow("PRAGMA wal_autocheckpoint = 0", doing: "opening the history pruning connection") { $0.int64(0) }
            return connection
        }
    }

    deinit {
        // Released by a completion on the writer thread itself, closing there would wait for that
        // thread to stop: close from another thread, which the writer lets go once it is done.
        let (committer, writer, readers, pruner) = (self.committer, self.writer, self.readers, self.pruner)
        let close: @Sendable () -> Void = {
            committer.close { writer.connection.close() }
            readers.close()
            pruner.close()
        }
        if committer.isOnWriterThread { DispatchQueue.global().async(execute: close) } else { close() }
    }

    /// How much of the file connections read through a memory map (address space, not memory).
    static let memoryMapBytes = 1 << 30

    /// Reads the file through a memory map shared by every connection and process, instead of a
    /// copy of each page into each connection's own small cache: a search touching a thousand
    /// vehicles reads them from the OS page cache without a system call per page (3x faster at 100k
    /// vehicles). Pages still in the WAL are read as before.
    private static func mapIntoMemory(_ connection: SQLiteConnection) throws {
        // PRAGMA takes no parameters; the number is this code's own constant.
        _ = try connection.firstRow("PRAGMA mmap_size = \(memoryMapBytes)", doing: "mapping the database into memory") { $0.int64(0) }
    }

    /// WAL journal (readers never block the writer) and the fsync policy.
    private static func configureWriter(_ connection: SQLiteConnection, durable: Bool) throws {
        let mode = try connection.firstRow("PRAGMA journal_mode = WAL", doing: "switching to WAL journal mode") {
            $0.string(0) ?? ""
        }
        guard mode?.lowercased() == "wal" else {
            throw FleetError(.storeFailure, detail: "'\(connection.path)' could not be switched to WAL journal mode (it is in '\(mode ?? "?")' mode); the store needs a database file on a local file system")
        }
        // In WAL mode FULL syncs the log on every commit; NORMAL only at checkpoints.
        let synchronous = durable ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL"
        try connection.execute(synchronous, doing: "setting the sync mode")
    }

    /// Other processes may open the same file.
    public var isSharedWithOtherProcesses: Bool { true }

    /// SQLite cannot tell this process of another's commits: watchers poll.
    public func observeChanges(_ handler: @escaping @Sendable ([RecordKey]) -> Void) -> (any StoreChangeObservation)? { nil }

    /// The record under `key`, read on a pooled read connection (never waits for writers).
    public func get(_ key: RecordKey) throws -> StoreRecord? {
        try readers.withConnection { connection in
            try RecordSQL.get(key, on: connection, path: path)
        }
    }

    /// Runs `body` in one read transaction on a pooled read connection.
    public func withSnapshot<Value>(_ body: (any StoreSnapshot) throws -> Value) throws -> Value {
        try inReadTransaction { try body(SQLiteSnapshot(connection: $0, path: path)) }
    }

    /// Runs `body` on a pooled read connection inside one read transaction: every read sees the
    /// same committed state.
    private func inReadTransaction<Value>(_ body: (SQLiteConnection) throws -> Value) throws -> Value {
        try readers.withConnection { connection in
            try connection.execute("BEGIN", doing: "starting a read transaction")
            defer { try? connection.execute("COMMIT", doing: "ending a read transaction") }
            return try body(connection)
        }
    }

    /// Applies `writes` atomically through group commit; durable on return when opened durable.
    @discardableResult
    public func commit(_ writes: [StoreWrite]) throws -> [UInt64] {
        guard !writes.isEmpty else {
            try committer.checkOpen()
            return []
        }
        return try committer.submit(writes)
    }

    /// Queues `writes` for the next group commit and returns at once; `completion` runs on the
    /// store's writer thread once the group is durable (keep it short: the next group waits for it).
    public func commit(_ writes: [StoreWrite], completion: @escaping @Sendable (Result<[UInt64], any Error>) -> Void) {
        guard !writes.isEmpty else {
            completion(Result { try committer.checkOpen(); return [] })
            return
        }
        committer.submit(writes, completion: completion)
    }

    /// Up to `limit` records of one kind and provider ordered by ID (byte order), after `afterID`.
    public func list(_ kind: RecordKind, provider: String, afterID: String?, limit: Int) throws -> [StoreRecord] {
        try readers.withConnection { connection in
            guard limit > 0 else { return [] }
            return try connection.rows(afterID == nil ? RecordSQL.listFirst : RecordSQL.listAfter,
                                       doing: "listing \(kind.rawValue) records of provider '\(provider)'") {
                $0.bind(1, kind.rawValue)
                $0.bind(2, provider)
                $0.bind(3, Int64(limit))
                if let afterID { $0.bind(4, afterID) }
            } read: {
                try RecordSQL.record(from: $0, path: path)
            }
        }
    }

    /// The provider's vehicles in the bounding box(es) of the circle; the caller filters exactly.
    public func nearby(provider: String, center: IndexPoint, radiusMeters: Double) throws -> [StoreRecord] {
        var found: [StoreRecord] = []
        try searchCells(provider: provider, center: center, radiusMeters: radiusMeters, statement: RecordSQL.nearby) { row in
            found.append(try RecordSQL.record(from: row, first: 1, path: path))
        }
        return found
    }

    /// The provider's vehicles near a point, without reading their payloads.
    public func nearbyIndex(provider: String, center: IndexPoint, radiusMeters: Double) throws -> [IndexEntry] {
        var found: [IndexEntry] = []
        found.reserveCapacity(256)
        try searchCells(provider: provider, center: center, radiusMeters: radiusMeters, statement: RecordSQL.nearbyIndex) { row in
            guard let lat = row.double(3), let lng = row.double(4) else { return }
            found.append(IndexEntry(key: RecordKey(.vehicle, provider: provider, id: row.string(1) ?? ""),
                                    version: UInt64(bitPattern: row.int64(2)),
                                    point: IndexPoint(latitude: lat, longitude: lng)))
        }
        return found
    }

    /// Runs `statement` (`nearby` or `nearbyIndex`, whose first column is the rowid) for every range of
    /// grid cells meeting the circle's boxes, in one read transaction so that all see one snapshot,
    /// and hands each vehicle's row to `read` once.
    private func searchCells(provider: String, center: IndexPoint, radiusMeters: Double, statement: String,
                             read: (SQLiteStatement) throws -> Void) throws {
        try inReadTransaction { connection in
            var seen = Set<Int64>()
            for box in GeoBox.covering(center: center, radiusMeters: radiusMeters) {
                let search = box.cellSearch
                for cells in search.ranges {
                    _ = try connection.rows(statement, doing: "searching vehicles of provider '\(provider)' near a point") {
                        RecordSQL.bindNearby(provider: provider, cells: cells, columns: search.columns, to: $0)
                    } read: { row -> Void in
                        if seen.insert(row.int64(0)).inserted { try read(row) }
                    }
                }
            }
        }
    }

    /// The provider's trips whose owner is `owner`, ordered by ID.
    public func owned(by owner: String, provider: String) throws -> [StoreRecord] {
        try readers.withConnection { connection in
            try connection.rows(RecordSQL.owned, doing: "reading the trips of '\(owner)' of provider '\(provider)'") {
                $0.bind(1, provider)
                $0.bind(2, owner)
                $0.bind(3, RecordKind.trip.rawValue)
            } read: {
                try RecordSQL.record(from: $0, path: path)
            }
        }
    }

    /// Points of the history in time order, on a pooled read connection: the points filed by vehicle
    /// when the query names a provider and a vehicle, by time otherwise, and the unfiled tail.
    public func history(_ query: HistoryQuery, after cursor: HistoryCursor?, limit: Int) throws -> [HistoryPoint] {
        guard limit > 0 else { return [] }
        let statement = query.provider != nil && query.vehicleID != nil ? HistorySQL.ofVehicle : HistorySQL.ofSpan
        return try readers.withConnection { connection in
            try connection.rows(statement, doing: "reading the position history") {
                HistorySQL.bind(query, after: cursor, limit: limit, to: $0)
            } read: {
                HistorySQL.point(from: $0)
            }
        }
    }

    /// Deletes up to `limit` of the oldest points older than `time`, and their filed entries,
    /// in one short transaction of its own connection, without a sync.
    @discardableResult
    public func pruneHistory(before time: Int64, limit: Int) throws -> Int {
        guard limit > 0 else { return 0 }
        return try pruner.withConnection { connection in
            try connection.immediateTransaction("a prune of the position history") {
                try connection.execute(HistorySQL.prune, doing: "pruning the position history") {
                    $0.bind(1, time)
                    $0.bind(2, Int64(limit))
                }
                let pruned = Int(connection.changes)
                if pruned > 0 {
                    try connection.execute(HistorySQL.lowerMarkAfterPruning, doing: "pruning the position history")
                }
                return pruned
            }
        }
    }

    /// How many commit calls each write transaction has served so far.
    public var groupCommitStatistics: GroupCommitStatistics {
        committer.currentStatistics
    }

    /// Waits for the running group commit, fails queued ones, finalizes every statement and closes
    /// every connection. Calling it again does nothing.
    public func close() throws {
        let writer = self.writer
        committer.close {
            writer.connection.close()
        }
        readers.close()
        pruner.close()
    }
}

/// Reads on the connection `SQLiteStore.withSnapshot` holds in a read transaction.
private struct SQLiteSnapshot: StoreSnapshot {
    let connection: SQLiteConnection
    let path: String

    func get(_ key: RecordKey) throws -> StoreRecord? {
        try RecordSQL.get(key, on: connection, path: path)
    }
}
