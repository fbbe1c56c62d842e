import FleetConcurrency
import FleetErrors
import FleetSchemes
import FleetStore
import Foundation
import Synchronization

/// The store for several server nodes: records in a PostgreSQL database that any number of
/// processes share (`postgres://USER@HOST:PORT/DATABASE`).
///
/// libpq calls block, so every call borrows a connection of its own from a bounded pool and runs on
/// the calling thread; no lock is held while a call waits on the network. A commit without waiting
/// (`commit(_:completion:)`, what the server uses) runs on one of the store's commit threads instead,
/// at most half the pool of them, so a server thread never waits on the network for a write; a
/// commit thread commits the single-write commits it finds queued together, in one transaction
/// and one round trip, each with its own outcome. Versions are checked by the
/// statements that write (`UPDATE … WHERE version = $4`), which PostgreSQL evaluates again on the
/// row a concurrent writer left, so two nodes never both win. Nearby search reads an ordinary index
/// of grid cells numbered as the SQLite store numbers them (`GeoBox`). A commit is acknowledged once
/// PostgreSQL's COMMIT returned; with `durable=false` it does not wait for the server's WAL flush.
public final class PostgresStore: Store {
    /// The `postgres://…` scheme for `StoreRegistry`.
    public static let scheme = makeScheme("postgres")
    /// The same store under libpq's other spelling, `postgresql://…`.
    public static let alternativeScheme = makeScheme("postgresql")

    private static func makeScheme(_ name: String) -> StoreRegistry.Scheme {
        StoreRegistry.Scheme(
            name: name,
            summary: "a PostgreSQL database, \(name)://USER@HOST:PORT/DATABASE (libpq's URI; the database must exist); several server nodes may share it",
            needsPath: true,
            options: ["pool"] + PostgresURL.libpqOptions,
            open: { path, options in try PostgresStore(scheme: name, path: path, options: options) })
    }

    /// The URL without its password.
    public let url: String
    /// How the store was opened.
    public let options: StoreOptions
    /// The most connections the store opens (`?pool=N`, default 16).
    public let poolSize: Int

    private let pool: ConnectionPool
    private let listener: ChangeListener
    private let committers: CommitWorkers<QueuedCommit>
    private let publisher: ChangePublisher
    private let counter = StatementCounter()
    /// Commits running on the threads of callers that wait for them (`WaitingCaller`).
    private let callerThreadCommits = Atomic(0)

    /// Connects, checks the URL by opening the first connection, and migrates the schema.
    ///
    /// Throws `storeSettingRejected` (INVALID_ARGUMENT) for a malformed URL, a wrong user or password
    /// or a missing database, `storeUnreachable` (UNAVAILABLE) when the server cannot be reached,
    /// and `storeSchemaTooNew` when a newer engine migrated the database.
    public init(scheme: String = "postgres", path: String, options: StoreOptions = .init()) throws {
        let parsed = try PostgresURL(scheme: scheme, path: path, settings: options.settings)
        self.url = parsed.display
        self.options = options
        self.poolSize = parsed.poolSize
        let durable = options.durable
        let url = parsed.display, counter = self.counter
        let open: () throws -> PGConnection = {
            let connection = try PGConnection(url: parsed, counter: counter)
            if !durable {
                try connection.execute("SET synchronous_commit = off", doing: "turning off waiting for the WAL flush")
            }
            return connection
        }
        let first = try open()
        try Schema.migrate(first)
        let pool = ConnectionPool(capacity: parsed.poolSize, closedError: { PostgresFailure.closed(url: url) }, open: open)
        self.pool = pool
        self.listener = ChangeListener { try PGConnection(url: parsed) }
        let publisher = ChangePublisher { keys in
            // A failure (the database went away) loses these notifications: watchers poll besides.
            try? pool.withConnection { Self.notify(keys, on: $0) }
        }
        self.publisher = publisher
        let batches = CommitBatches(pool: pool, publisher: publisher)
        self.committers = CommitWorkers(limit: Self.commitThreads(poolSize: parsed.poolSize), batchLimit: Self.batchLimit,
                                        batchable: { $0.writes.count == 1 }, run: { batches.run($0) })
    }

    /// The most queued commits a commit thread takes into one transaction. A server with 64
    /// connections queues up to 56 behind 8 threads; a bound keeps one batch's pipeline within
    /// the sockets' buffers and its row locks short.
    static let batchLimit = 32

    /// The most commits the store runs at once for callers that do not wait: half the pool, so that
    /// reads, which run on their callers' threads, always find connections left (16 → 8, what eight
    /// concurrent writers need for PostgreSQL to flush their commits together).
    static func commitThreads(poolSize: Int) -> Int { max(1, poolSize / 2) }

    /// Opens `postgres://…` (or `postgresql://…`) as a whole URL, for tools and tests.
    public convenience init(url: String, options: StoreOptions = .init()) throws {
        guard let colon = url.firstIndex(of: ":"), ["postgres", "postgresql"].contains(url[..<colon]) else {
            throw FleetError(.storeSettingRejected, detail: "'\(PostgresURL.redacted(url))' is not a postgres:// URL", field: "store")
        }
        try self.init(scheme: String(url[..<colon]), path: String(url[url.index(after: colon)...]), options: options)
    }

    deinit {
        // Released by a commit's completion on a commit thread, closing there would wait for that
        // thread to stop: close from another thread, which the commit threads let go once done.
        let (committers, publisher, listener, pool) = (self.committers, self.publisher, self.listener, self.pool)
        let close: @Sendable () -> Void = {
            committers.close()
            publisher.close()
            listener.stop()
            pool.close()
        }
        if committers.isOnWorkerThread { DispatchQueue.global().async(execute: close) } else { close() }
    }

    /// Other nodes share the database.
    public var isSharedWithOtherProcesses: Bool { true }

    /// Every commit of a store notifies the keys it changed once it returned (outside the writing
    /// transaction, where a NOTIFY would make every commit of the database wait for the previous
    /// one's WAL flush), batched with other commits' keys by `ChangePublisher`; one connection of
    /// the store's LISTENs for all handlers. Writers other than this store notify nothing: watches
    /// hear of their changes at the next poll.
    public func observeChanges(_ handler: @escaping @Sendable ([RecordKey]) -> Void) -> (any StoreChangeObservation)? {
        listener.add(handler)
    }

    public func get(_ key: RecordKey) throws -> StoreRecord? {
        try pool.withConnection { try Self.get(key, on: $0, url: url) }
    }

    static func get(_ key: RecordKey, on connection: PGConnection, url: String) throws -> StoreRecord? {
        let rows = try connection.execute(RecordSQL.get, RecordSQL.key(key), prepared: true, doing: "reading \(key)")
        return rows.count == 0 ? nil : try RecordSQL.record(from: rows, row: 0, url: url)
    }

    /// Runs `body` with reads that see one committed state, in as few statements as it allows: its
    /// first read is one statement that also reads the vehicle the record names as its owner (a
    /// trip's vehicle, what GetTrip reads next), and a body that reads only those is done in that
    /// one statement, with no transaction around it. A body that reads anything else runs again in a
    /// REPEATABLE READ transaction (BEGIN, its reads, COMMIT), whatever it returned or threw the
    /// first time, so `body` must only read. GetTrip took four statements and round trips this way
    /// before (BEGIN, the trip, the vehicle, COMMIT).
    public func withSnapshot<Value>(_ body: (any StoreSnapshot) throws -> Value) throws -> Value {
        try pool.withConnection { connection in
            let single = OneStatementSnapshot(connection: connection, url: url)
            let outcome = Result { try body(single) }
            guard single.needsTransaction else { return try outcome.get() }
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", doing: "starting a read transaction")
            do {
                let value = try body(PostgresSnapshot(connection: connection, url: url))
                try connection.execute("COMMIT", doing: "ending a read transaction")
                return value
            } catch {
                if connection.isInTransaction { _ = try? connection.execute("ROLLBACK", doing: "ending a read transaction") }
                throw error
            }
        }
    }

    /// Times a commit is tried again after PostgreSQL broke a deadlock by aborting it (nothing of it
    /// was applied, so trying again is safe).
    static let deadlockRetries = 3

    /// Applies `writes` in one transaction (a single write as one statement); returns once COMMIT did.
    @discardableResult
    public func commit(_ writes: [StoreWrite]) throws -> [UInt64] {
        try Self.validate(writes)
        return try pool.withConnection { try Self.commit(writes, on: $0, publisher: publisher) }
    }

    /// Throws INVALID_ARGUMENT for a point the grid cannot index, before anything is written.
    static func validate(_ writes: [StoreWrite]) throws {
        for write in writes {
            if case .put(let record, _) = write, let point = record.point, !(point.latitude.isFinite && point.longitude.isFinite) {
                throw FleetError.invalidArgument("cannot index the point of \(record.key): latitude and longitude must be finite numbers")
            }
        }
    }

    /// Commits `writes` alone on `connection`, trying again after a deadlock, and hands their keys to
    /// `publisher` once committed.
    static func commit(_ writes: [StoreWrite], on connection: PGConnection, publisher: ChangePublisher) throws -> [UInt64] {
        guard !writes.isEmpty else { return [] }
        var attempt = 0
        while true {
            do {
                let versions = try apply(writes, on: connection)
                publisher.publish(writes.map(\.key))
                return versions
            } catch let error as FleetError where isDeadlock(error) && attempt < deadlockRetries {
                attempt += 1
            }
        }
    }

    /// Whether PostgreSQL broke a deadlock by aborting the transaction that got `error`.
    static func isDeadlock(_ error: FleetError) -> Bool {
        error.cause == ErrorCause.storeBusy.id && error.message.contains("SQLSTATE 40P01")
    }

    /// Tells the LISTENing stores (other nodes) which records commits changed: one statement of its
    /// own after the commits, a transaction that writes nothing and so waits for no WAL flush. The
    /// commits stand if this fails (the connection broke just after them): watches find the change
    /// at their next poll. One notification per key, as before; the keys go as one array, so that
    /// the statement's text is the same for any number of them and is prepared once per connection
    /// (a `pg_notify` per key in the text made PostgreSQL parse and plan every batch anew).
    static func notify(_ keys: [RecordKey], on connection: PGConnection) {
        guard !keys.isEmpty else { return }
        _ = try? connection.execute(RecordSQL.notify, [.text(Schema.changeChannel), .text(RecordSQL.notificationArray(keys))], prepared: true,
                                    doing: "notifying other nodes of \(keys.count) changed records")
    }

    /// Applies `writes` on `connection`, in key order so that two commits lock shared rows in the
    /// same order (a deadlock otherwise); the versions come back in the order of `writes`.
    private static func apply(_ writes: [StoreWrite], on connection: PGConnection) throws -> [UInt64] {
        if writes.count == 1 { return [try apply(writes[0], on: connection)] }
        let order = RecordSQL.keyOrder(writes)
        try connection.execute("BEGIN", doing: "starting a write transaction")
        do {
            var versions = [UInt64](repeating: 0, count: writes.count)
            for index in order {
                versions[index] = try apply(writes[index], on: connection)
            }
            try connection.execute("COMMIT", doing: "committing \(writes.count) writes")
            return versions
        } catch {
            if connection.isInTransaction { _ = try? connection.execute("ROLLBACK", doing: "rolling back a write transaction") }
            throw error
        }
    }

    /// One write; throws `StoreConflict` when its record is not at the expected version.
    private static func apply(_ write: StoreWrite, on connection: PGConnection) throws -> UInt64 {
        let statement = RecordSQL.statement(for: write)
        let changed = try connection.execute(statement.sql, statement.parameters, prepared: true, doing: RecordSQL.doing(write))
        guard changed.count == 1 else { throw try conflict(write, on: connection) }
        if case .delete = write { return 0 }
        return UInt64(bitPattern: changed.int8(0, 0))
    }

    /// The conflict of `write`, whose statement changed no row: the version its record is at now
    /// (0: gone), read with a statement of its own.
    static func conflict(_ write: StoreWrite, on connection: PGConnection) throws -> StoreConflict {
        let key = write.key
        let current = try connection.execute(RecordSQL.currentVersion, RecordSQL.key(key), prepared: true,
                                             doing: "reading the version of \(key)")
        let actual = current.count == 0 ? 0 : UInt64(bitPattern: current.int8(0, 0))
        return StoreConflict(key: key, expectedVersion: write.expectedVersion, actualVersion: actual)
    }

    /// Queues the commit for one of the store's commit threads and returns at once; `completion`
    /// runs on that thread once COMMIT returned (or failed). After `close()` it runs at once, on this
    /// thread, with the closed error.
    ///
    /// A caller that waits for the completion anyway (`WaitingCaller`: the engine's blocking calls,
    /// as the in-process transport and the tools make them) commits on its own thread instead, and
    /// `completion` runs there before this returns. Each commit is a statement of its own that
    /// PostgreSQL groups with the others in flight, so nothing is gained by queueing it, and the
    /// hand-off to a commit thread and back cost two thread switches per commit: with 8 blocking
    /// writers its futex waits and wakes were 19% of the process's samples, and 1% without it
    /// (`perf record` of `fleet-bench postgres short`; 128 µs of the process's CPU per update
    /// before, 100 µs after, means of four and five runs).
    /// Such commits take connections beyond the commit threads' half of the pool, as reads do.
    ///
    /// A commit thread that finds several commits queued commits those of one write each together
    /// (`CommitBatches`): one transaction, one round trip and one WAL flush for all of them, each
    /// with the outcome it would have had alone.
    public func commit(_ writes: [StoreWrite], completion: @escaping @Sendable (Result<[UInt64], any Error>) -> Void) {
        if WaitingCaller.isWaiting {
            callerThreadCommits.add(1, ordering: .relaxed)
            let outcome = Result { try commit(writes) }
            callerThreadCommits.subtract(1, ordering: .relaxed)
            completion(outcome)
            return
        }
        if !committers.submit(QueuedCommit(writes: writes, completion: completion)) {
            completion(.failure(PostgresFailure.closed(url: url)))
        }
    }

    /// Commits running right now: queued or running on the store's commit threads (each member of
    /// a batch counts), or on the threads of callers that wait for them.
    public var commitsInFlight: Int { committers.inFlight + callerThreadCommits.load(ordering: .relaxed) }

    /// Statements the store's connections have run since it opened (the one-time preparation of a
    /// statement on a new connection not counted), for tests and the benchmark to count what an
    /// operation costs. The LISTENing connection's are not counted; the batched notifications are.
    /// Each is a round trip of its own, except in a batch of commits, whose statements (BEGIN, one
    /// per commit, COMMIT) share one: `roundTrips` counts those.
    public var statementsRun: Int { counter.value }

    /// Round trips to PostgreSQL the store's connections have made since it opened: one per
    /// statement run alone, one per batch of commits (see `statementsRun`).
    public var roundTrips: Int { counter.roundTrips }

    /// Waits until the keys of every commit so far have been handed to PostgreSQL's NOTIFY, for
    /// tests that count statements.
    public func waitForNotifications() { publisher.flush() }

    /// Points of the history in time order: the vehicle's index when the query names a provider
    /// and a vehicle, the time index otherwise.
    public func history(_ query: HistoryQuery, after cursor: HistoryCursor?, limit: Int) throws -> [HistoryPoint] {
        guard limit > 0 else { return [] }
        let statement = query.provider != nil && query.vehicleID != nil ? HistorySQL.ofVehicle : HistorySQL.ofSpan
        return try pool.withConnection { connection in
            let rows = try connection.execute(statement, HistorySQL.parameters(query, after: cursor, limit: limit), prepared: true,
                                              doing: "reading the position history")
            return HistorySQL.points(from: rows)
        }
    }

    /// Deletes up to `limit` of the oldest points older than `time`, one statement of its own
    /// (row locks on old points only: writers appending new ones never wait for it).
    @discardableResult
    public func pruneHistory(before time: Int64, limit: Int) throws -> Int {
        guard limit > 0 else { return 0 }
        return try pool.withConnection { connection in
            try connection.execute(HistorySQL.prune, [.int8(time), .int8(Int64(limit))], prepared: true,
                                   doing: "pruning the position history").changed
        }
    }

    public func list(_ kind: RecordKind, provider: String, afterID: String?, limit: Int) throws -> [StoreRecord] {
        try pool.withConnection { connection in
            guard limit > 0 else { return [] }
            var parameters: [PGValue] = [.text(kind.rawValue), .bytes(Array(provider.utf8)), .int8(Int64(limit))]
            if let afterID { parameters.append(.bytes(Array(afterID.utf8))) }
            let rows = try connection.execute(afterID == nil ? RecordSQL.listFirst : RecordSQL.listAfter, parameters,
                                              doing: "listing \(kind.rawValue) records of provider '\(provider)'")
            return try RecordSQL.records(from: rows, url: url)
        }
    }

    public func nearby(provider: String, center: IndexPoint, radiusMeters: Double) throws -> [StoreRecord] {
        try pool.withConnection { connection in
            let rows = try connection.execute(RecordSQL.nearby, RecordSQL.nearbyParameters(provider: provider, center: center, radiusMeters: radiusMeters),
                                              doing: "searching vehicles of provider '\(provider)' near a point")
            return try RecordSQL.records(from: rows, url: url)
        }
    }

    public func nearbyIndex(provider: String, center: IndexPoint, radiusMeters: Double) throws -> [IndexEntry] {
        try pool.withConnection { connection in
            let rows = try connection.execute(RecordSQL.nearbyIndex, RecordSQL.nearbyParameters(provider: provider, center: center, radiusMeters: radiusMeters),
                                              doing: "searching vehicles of provider '\(provider)' near a point")
            var found: [IndexEntry] = []
            found.reserveCapacity(rows.count)
            for row in 0..<rows.count {
                guard let lat = rows.float8(row, 2), let lng = rows.float8(row, 3) else { continue }
                found.append(IndexEntry(key: RecordKey(.vehicle, provider: provider, id: rows.string(row, 0)),
                                        version: UInt64(bitPattern: rows.int8(row, 1)),
                                        point: IndexPoint(latitude: lat, longitude: lng)))
            }
            return found
        }
    }

    public func owned(by owner: String, provider: String) throws -> [StoreRecord] {
        try pool.withConnection { connection in
            let rows = try connection.execute(RecordSQL.owned, [.bytes(Array(provider.utf8)), .bytes(Array(owner.utf8)), .text(RecordKind.trip.rawValue)],
                                              doing: "reading the trips of '\(owner)' of provider '\(provider)'")
            return try RecordSQL.records(from: rows, url: url)
        }
    }

    /// Waits for calls in flight, then closes every connection. Calling it again does nothing.
    public func close() throws {
        committers.close()
        publisher.close()
        listener.stop()
        pool.close()
    }
}

/// The reads of `PostgresStore.withSnapshot` before it knows it needs a transaction: the first read
/// is one statement that also reads the record's owner; a read of any other record marks the
/// snapshot as needing a transaction and throws (the body runs again in one).
private final class OneStatementSnapshot: StoreSnapshot {
    let connection: PGConnection
    let url: String
    /// What the first statement found (nil: absent), by key; nil before it ran.
    private var found: [RecordKey: StoreRecord?]?
    private(set) var needsTransaction = false

    init(connection: PGConnection, url: String) {
        self.connection = connection
        self.url = url
    }

    func get(_ key: RecordKey) throws -> StoreRecord? {
        if needsTransaction { throw NeedsTransaction() }
        guard let found else {
            let read = try RecordSQL.withOwner(key, on: connection, url: url)
            self.found = read
            return read[key] ?? nil
        }
        if let record = found[key] { return record }
        needsTransaction = true
        throw NeedsTransaction()
    }

    /// Thrown to end the first run of a body that reads more than one statement answered.
    struct NeedsTransaction: Error {}
}

/// Reads on the connection `PostgresStore.withSnapshot` holds in a transaction.
private struct PostgresSnapshot: StoreSnapshot {
    let connection: PGConnection
    let url: String

    func get(_ key: RecordKey) throws -> StoreRecord? {
        try PostgresStore.get(key, on: connection, url: url)
    }
}
