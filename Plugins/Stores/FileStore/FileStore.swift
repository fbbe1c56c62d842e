import Foundation
import FleetErrors
import FleetStore

/// A store in a directory: the records live in memory, every commit is appended to a write-ahead
/// journal, and the journal is folded into a snapshot from time to time (`file:PATH`).
///
/// - Durability: a durable commit returns once its journal record is synced. Concurrent committers
///   share syncs (group commit): one of them syncs everything appended so far while the others
///   wait for that sync, or for the next one.
/// - Visibility: readers see a commit once it is durable, so nothing a reader sees can be lost by a
///   crash. Validation also counts commits still waiting for their sync.
/// - Atomicity: one commit is one journal record, framed and checksummed, so after a crash it is
///   replayed whole or, if its append was cut, not at all.
/// - One process: the directory is locked with `flock` at open; a second opener gets `storeBusy`.
///
/// All state is guarded by one condition lock; syncs and snapshot writes run outside it.
public final class FileStore: Store, @unchecked Sendable {
    /// The files of the store's directory.
    public let layout: FileStoreLayout
    /// How the store was opened.
    public let options: StoreOptions
    /// When the journal is folded into a snapshot.
    public let compaction: CompactionPolicy
    /// What the open found and repaired.
    public let recovery: RecoveryReport

    private let log: @Sendable (String) -> Void
    private let condition = NSCondition()

    // Everything below is guarded by `condition`.
    /// The records readers see: every commit up to `visibleSequence`.
    private var table: RecordTable
    private var journal: JournalWriter
    private var directoryLock: DirectoryLock?
    /// Commits appended but not yet synced (durable stores only), in sequence order.
    private var pending: [JournalRecord] = []
    /// The newest version each key has in `pending`, with the commit that wrote it (0: deleted).
    private var pendingVersions: [RecordKey: (version: UInt64, sequence: UInt64)] = [:]
    private var appendedSequence: UInt64
    private var visibleSequence: UInt64
    private var syncInProgress = false
    private var compacting = false
    /// After a compaction failed: the journal size at which to try again.
    private var compactionRetry: (bytes: Int, records: Int)?
    /// Set when the journal can no longer be trusted to match memory; writes then fail.
    private var failure: FleetError?
    private var isClosed = false
    private var counters = FileStoreStatistics()

    /// Opens (creating if missing) the store in `directory`, recovering from any crash.
    ///
    /// - Parameters:
    ///   - compaction: when to fold the journal into a snapshot.
    ///   - log: where recovery and compaction notices go (standard error by default).
    /// - Throws: `storeBusy` when another process has the directory open, `journalCorrupt` or
    ///   `snapshotCorrupt` (DATA_LOSS) when the files are damaged beyond a torn last record,
    ///   `storeFailure` when the files cannot be read or written.
    public init(directory: String, options: StoreOptions = .init(), compaction: CompactionPolicy = .init(),
                log: @escaping @Sendable (String) -> Void = FileStore.logToStandardError) throws {
        let layout = FileStoreLayout(directory: directory)
        try FileSystem.createDirectory(directory)
        let directoryLock = try DirectoryLock(layout: layout)
        let recovered: StoreRecovery.Recovered
        do {
            recovered = try StoreRecovery.recover(layout: layout) { log("file store \(directory): \($0)") }
        } catch {
            directoryLock.release()
            throw error
        }
        self.layout = layout
        self.options = options
        self.compaction = compaction
        self.log = log
        self.directoryLock = directoryLock
        self.table = recovered.table
        self.journal = recovered.journal
        self.recovery = recovered.report
        self.appendedSequence = recovered.sequence
        self.visibleSequence = recovered.sequence
    }

    deinit {
        if !isClosed {
            journal.close()
            directoryLock?.release()
        }
    }

    /// Writes a notice to standard error.
    public static func logToStandardError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Counters since the store was opened.
    public var statistics: FileStoreStatistics {
        condition.lock()
        defer { condition.unlock() }
        return counters
    }

    // MARK: Reads

    /// The record under `key` as of the last durable commit, or nil.
    public func get(_ key: RecordKey) throws -> StoreRecord? {
        try reading { $0.record(key) }
    }

    /// Runs `body` under the store's lock: no write lands between its reads.
    public func withSnapshot<Value>(_ body: (any StoreSnapshot) throws -> Value) throws -> Value {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { throw closedError }
        return try body(FileSnapshot(table: table))
    }

    /// Up to `limit` records of one kind and provider after `afterID`, ordered by the IDs' UTF-8 bytes.
    public func list(_ kind: RecordKind, provider: String, afterID: String?, limit: Int) throws -> [StoreRecord] {
        try reading { $0.list(kind, provider: provider, afterID: afterID, limit: limit) }
    }

    /// The payloads are in memory anyway: the entries come from `nearby`.
    public func nearbyIndex(provider: String, center: IndexPoint, radiusMeters: Double) throws -> [IndexEntry] {
        try indexEntries(nearbyProvider: provider, center: center, radiusMeters: radiusMeters)
    }

    /// This process's alone.
    public var isSharedWithOtherProcesses: Bool { false }

    /// Every change passes through this process's engine, which tells its watchers itself.
    public func observeChanges(_ handler: @escaping @Sendable ([RecordKey]) -> Void) -> (any StoreChangeObservation)? { nil }

    /// The provider's vehicles whose point lies in the bounding box of the circle (a superset of the
    /// circle: the caller filters by exact distance), ordered by ID. Throws INVALID_ARGUMENT for a
    /// negative or non-finite radius.
    public func nearby(provider: String, center: IndexPoint, radiusMeters: Double) throws -> [StoreRecord] {
        guard radiusMeters.isFinite, radiusMeters >= 0 else {
            throw FleetError.invalidArgument("the search radius must be a finite number of metres >= 0, got \(radiusMeters)", field: "radiusMeters")
        }
        return try reading { $0.nearby(provider: provider, center: center, radiusMeters: radiusMeters) }
    }

    /// The provider's trips whose owner is `owner`, ordered by ID.
    public func owned(by owner: String, provider: String) throws -> [StoreRecord] {
        try reading { $0.owned(by: owner, provider: provider) }
    }

    private func reading<T>(_ body: (inout RecordTable) -> T) throws -> T {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { throw closedError }
        return body(&table)
    }

    // MARK: Commits

    /// Commits on the calling thread (which, when durable, waits for the journal's sync).
    public func commit(_ writes: [StoreWrite], completion: @escaping @Sendable (Result<[UInt64], any Error>) -> Void) {
        commitAtOnce(writes, completion: completion)
    }

    /// Validates every write against the newest versions, appends them as one journal record and,
    /// when durable, returns once a sync covers it (shared with concurrent committers).
    @discardableResult
    public func commit(_ writes: [StoreWrite]) throws -> [UInt64] {
        condition.lock()
        defer { condition.unlock() }
        while compacting { condition.wait() }
        try checkWritable()
        guard !writes.isEmpty else { return [] }

        // Validate in order against the newest versions, pending ones included; a key written twice
        // in one commit sees its first write. Deleting a record that does not exist is a conflict.
        var versionsInCommit: [RecordKey: UInt64] = [:]
        var entries: [JournalEntry] = []
        entries.reserveCapacity(writes.count)
        var newVersions: [UInt64] = []
        newVersions.reserveCapacity(writes.count)
        for write in writes {
            let current = versionsInCommit[write.key] ?? newestVersion(write.key)
            let isDeleteOfNothing = if case .delete = write { current == 0 } else { false }
            guard current == write.expectedVersion, !isDeleteOfNothing else {
                // The caller read before a commit still waiting for its sync: wait for it, so that a
                // retry reads the version the conflict names instead of spinning on the old one.
                if versionsInCommit[write.key] == nil, let pending = pendingVersions[write.key] {
                    try waitUntilVisible(pending.sequence)
                }
                let actual = versionsInCommit[write.key] ?? newestVersion(write.key)
                throw StoreConflict(key: write.key, expectedVersion: write.expectedVersion, actualVersion: actual)
            }
            switch write {
            case .put(var record, let expected):
                record.version = expected + 1
                entries.append(.put(record))
                versionsInCommit[record.key] = record.version
                newVersions.append(record.version)
            case .delete(let key, let expected):
                entries.append(.delete(key, version: expected))
                versionsInCommit[key] = 0
                newVersions.append(0)
            }
        }

        if !entries.isEmpty {
            let record = JournalRecord(sequence: appendedSequence + 1, entries: entries)
            do {
                try journal.append(record)
            } catch {
                if journal.isDamaged {
                    failure = FleetError(.storeFailure, detail: "a failed append to \(journal.path) could not be undone; reopen the store (\(error))")
                }
                throw error
            }
            appendedSequence = record.sequence
            counters.commits += 1
            if options.durable {
                pending.append(record)
                for entry in entries {
                    pendingVersions[entry.key] = (entry.version, record.sequence)
                }
            } else {
                try makeVisible(record)
                visibleSequence = record.sequence
            }
        }
        if options.durable {
            try waitUntilVisible(appendedSequence)
        }
        compactIfDue()
        return newVersions
    }

    /// The version a new write must expect: the newest one, durable or not (0: no record).
    private func newestVersion(_ key: RecordKey) -> UInt64 {
        pendingVersions[key]?.version ?? table.version(key)
    }

    /// Returns once every commit up to `sequence` is synced and visible. The first waiter to find no
    /// sync running syncs everything appended so far; the others wait for it (group commit).
    private func waitUntilVisible(_ sequence: UInt64) throws {
        while visibleSequence < sequence {
            if let failure { throw failure }
            if syncInProgress {
                condition.wait()
                continue
            }
            syncInProgress = true
            let target = appendedSequence
            let journal = self.journal
            condition.unlock()
            let synced = Result { try journal.syncData() }
            condition.lock()
            syncInProgress = false
            switch synced {
            case .success:
                counters.syncs += 1
                try publish(upTo: target)
            case .failure(let error):
                failure = FleetError(.storeFailure, detail: "the journal could not be synced, so recent commits may not be durable; reopen the store (\(error))")
            }
            condition.broadcast()
        }
    }

    /// Moves the synced pending commits into the table readers see.
    private func publish(upTo sequence: UInt64) throws {
        var published = 0
        for record in pending {
            guard record.sequence <= sequence else { break }
            try makeVisible(record)
            for entry in record.entries where pendingVersions[entry.key]?.sequence == record.sequence {
                pendingVersions[entry.key] = nil
            }
            published += 1
        }
        pending.removeFirst(published)
        visibleSequence = max(visibleSequence, sequence)
    }

    private func makeVisible(_ record: JournalRecord) throws {
        do {
            for entry in record.entries { try table.apply(entry) }
        } catch let mismatch as RecordTable.Mismatch {
            let error = FleetError.internal("file store \(layout.directory): commit \(record.sequence) was validated but does not apply: \(mismatch.message)")
            failure = error
            throw error
        }
    }

    private func checkWritable() throws {
        guard !isClosed else { throw closedError }
        if let failure { throw failure }
    }

    private var closedError: FleetError {
        FleetError(.storeFailure, detail: "the file store at \(layout.directory) is closed")
    }

    // MARK: Compaction

    /// Folds the journal into a new snapshot now, whatever the policy says.
    ///
    /// Steps, each safe to be cut by a crash: sync the journal; write `snapshot.tmp` (every record
    /// and the last journal sequence), sync it, rename it over `snapshot`, sync the directory; write
    /// an empty `journal.tmp`, sync it, rename it over `journal`, sync the directory. An open skips
    /// journal records the snapshot already holds and removes leftover `.tmp` files.
    public func compact() throws {
        condition.lock()
        defer { condition.unlock() }
        while compacting { condition.wait() }
        try checkWritable()
        try compactHoldingLock()
    }

    private func compactIfDue() {
        guard !compacting, !isClosed, failure == nil,
              compaction.isDue(journalBytes: journal.end, journalRecords: journal.recordCount)
        else { return }
        if let retry = compactionRetry, journal.end < retry.bytes, journal.recordCount < retry.records { return }
        do {
            try compactHoldingLock()
            compactionRetry = nil
        } catch {
            compactionRetry = (journal.end * 2, journal.recordCount * 2)
            log("file store \(layout.directory): compaction failed, will retry when the journal has doubled: \(error)")
        }
    }

    /// Commits wait while this runs; reads go on while the snapshot is written.
    private func compactHoldingLock() throws {
        compacting = true
        defer {
            compacting = false
            condition.broadcast()
        }
        while syncInProgress { condition.wait() }
        do {
            try journal.syncData()
        } catch {
            failure = FleetError(.storeFailure, detail: "the journal could not be synced, so recent commits may not be durable; reopen the store (\(error))")
            throw error
        }
        try publish(upTo: appendedSequence)
        condition.broadcast()

        let snapshot = table
        let sequence = appendedSequence
        condition.unlock()
        let written = Result { try SnapshotFile.write(snapshot, sequence: sequence, layout: layout) }
        condition.lock()
        try written.get()

        let fresh = try JournalWriter.prepareEmpty(layout: layout)
        try fresh.install(layout: layout)
        journal.close()
        journal = fresh
        do {
            try FileSystem.syncDirectory(layout.directory)
        } catch {
            failure = FleetError(.storeFailure, detail: "the new journal may not survive a crash; reopen the store (\(error))")
            throw error
        }
        counters.compactions += 1
    }

    // MARK: Closing

    /// Syncs the journal, releases the directory lock and closes the files. Later calls fail.
    public func close() throws {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { throw closedError }
        while compacting || syncInProgress { condition.wait() }
        var syncError: (any Error)?
        if failure == nil {
            do {
                try journal.syncData()
                try publish(upTo: appendedSequence)
            } catch {
                failure = FleetError(.storeFailure, detail: "the journal could not be synced at close (\(error))")
                syncError = failure
            }
        }
        isClosed = true
        journal.close()
        directoryLock?.release()
        directoryLock = nil
        condition.broadcast()
        if let syncError { throw syncError }
    }
}

/// The table as it is while `FileStore.withSnapshot` holds the lock.
private struct FileSnapshot: StoreSnapshot {
    let table: RecordTable

    func get(_ key: RecordKey) throws -> StoreRecord? { table.record(key) }
}
