import Foundation
import FleetConcurrency
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
/// All state is behind one lock (`WaitableState`); syncs and snapshot writes run outside it.
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
    /// Committers wait on it for a sync to end, and for a compaction to end before they append.
    private let state: WaitableState<FileStoreState>

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
        self.recovery = recovered.report
        self.state = WaitableState(FileStoreState(directory: directory, table: recovered.table, journal: recovered.journal,
                                                  directoryLock: directoryLock, sequence: recovered.sequence))
    }

    deinit {
        state.withLock { state in
            if !state.isClosed {
                state.journal.close()
                state.directoryLock?.release()
            }
        }
    }

    /// Writes a notice to standard error.
    public static func logToStandardError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Counters since the store was opened.
    public var statistics: FileStoreStatistics {
        state.withLock { $0.counters }
    }

    // MARK: Reads

    /// The record under `key` as of the last durable commit, or nil.
    public func get(_ key: RecordKey) throws -> StoreRecord? {
        try reading { $0.record(key) }
    }

    /// Runs `body` under the store's lock: no write lands between its reads.
    public func withSnapshot<Value>(_ body: (any StoreSnapshot) throws -> Value) throws -> Value {
        try state.withLock { state in
            guard !state.isClosed else { throw state.closedError }
            return try body(FileSnapshot(table: state.table))
        }
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

    /// Points of the history in time order, from memory, as of the last durable commit.
    public func history(_ query: HistoryQuery, after cursor: HistoryCursor?, limit: Int) throws -> [HistoryPoint] {
        try reading { $0.history.page(query, after: cursor, limit: limit) }
    }

    /// Journals and applies the removal of up to `limit` of the oldest points older than `time`
    /// (without a sync of its own; the next commit's sync covers it).
    @discardableResult
    public func pruneHistory(before time: Int64, limit: Int) throws -> Int {
        guard limit > 0 else { return 0 }
        return try state.wait(until: { !$0.compacting }) { state, _ in
            try state.checkWritable()
            return try state.pruneHistory(before: time, limit: limit)
        }
    }

    private func reading<T>(_ body: (inout RecordTable) -> T) throws -> T {
        try state.withLock { state in
            guard !state.isClosed else { throw state.closedError }
            return body(&state.table)
        }
    }

    // MARK: Commits

    /// Commits on the calling thread (which, when durable, waits for the journal's sync).
    public func commit(_ writes: [StoreWrite], completion: @escaping @Sendable (Result<[UInt64], any Error>) -> Void) {
        commitAtOnce(writes, completion: completion)
    }

    /// What validating and appending a commit came to.
    fileprivate enum AppendOutcome {
        case appended(versions: [UInt64], sequence: UInt64)
        /// A write expected another version; `pendingSequence` is the commit still waiting for its
        /// sync that wrote the key, if one did.
        case conflict(key: RecordKey, expectedVersion: UInt64, pendingSequence: UInt64?)
    }

    /// Validates every write against the newest versions, appends them as one journal record and,
    /// when durable, returns once a sync covers it (shared with concurrent committers).
    @discardableResult
    public func commit(_ writes: [StoreWrite]) throws -> [UInt64] {
        let durable = options.durable
        // A compaction swaps the journal: appends wait for it to end.
        let appended = try state.wait(until: { !$0.compacting }) { state, _ -> AppendOutcome in
            try state.checkWritable()
            return try state.append(writes, durable: durable)
        }
        switch appended {
        case .conflict(let key, let expected, let pendingSequence):
            // The caller read before a commit still waiting for its sync: wait for it, so that a
            // retry reads the version the conflict names instead of spinning on the old one.
            if let pendingSequence { try waitUntilVisible(pendingSequence) }
            let actual = state.withLock { $0.newestVersion(key) }
            throw StoreConflict(key: key, expectedVersion: expected, actualVersion: actual)
        case .appended(let versions, let sequence):
            if writes.isEmpty { return [] }
            if durable {
                try waitUntilVisible(sequence)
            }
            compactIfDue()
            return versions
        }
    }

    /// What a committer waiting for visibility does next.
    private enum SyncStep {
        case visible
        case failed(FleetError)
        /// This committer syncs everything appended up to `target`.
        case sync(JournalWriter, target: UInt64)
    }

    /// Returns once every commit up to `sequence` is synced and visible. The first waiter to find no
    /// sync running syncs everything appended so far; the others wait for it (group commit).
    private func waitUntilVisible(_ sequence: UInt64) throws {
        while true {
            let step = state.wait(until: { $0.visibleSequence >= sequence || $0.failure != nil || !$0.syncInProgress }) { state, _ -> SyncStep in
                if state.visibleSequence >= sequence { return .visible }
                if let failure = state.failure { return .failed(failure) }
                state.syncInProgress = true
                return .sync(state.journal, target: state.appendedSequence)
            }
            switch step {
            case .visible:
                return
            case .failed(let failure):
                throw failure
            case .sync(let journal, let target):
                let synced = Result { try journal.syncData() }
                try state.update { state in
                    state.syncInProgress = false
                    switch synced {
                    case .success:
                        state.counters.syncs += 1
                        try state.publish(upTo: target)
                    case .failure(let error):
                        state.failure = FleetError(.storeFailure, detail: "the journal could not be synced, so recent commits may not be durable; reopen the store (\(error))")
                    }
                }
            }
        }
    }

    // MARK: Compaction

    /// Folds the journal into a new snapshot now, whatever the policy says.
    ///
    /// Steps, each safe to be cut by a crash: sync the journal; write `snapshot.tmp` (every record
    /// and the last journal sequence), sync it, rename it over `snapshot`, sync the directory; write
    /// an empty `journal.tmp`, sync it, rename it over `journal`, sync the directory. An open skips
    /// journal records the snapshot already holds and removes leftover `.tmp` files.
    public func compact() throws {
        try state.wait(until: { !$0.compacting }) { state, _ in
            try state.checkWritable()
            state.compacting = true
        }
        try runCompaction()
    }

    private func compactIfDue() {
        let compaction = self.compaction
        let due = state.withLock { state -> Bool in
            guard !state.compacting, !state.isClosed, state.failure == nil,
                  compaction.isDue(journalBytes: state.journal.end, journalRecords: state.journal.recordCount)
            else { return false }
            if let retry = state.compactionRetry, state.journal.end < retry.bytes, state.journal.recordCount < retry.records { return false }
            state.compacting = true
            return true
        }
        guard due else { return }
        do {
            try runCompaction()
            state.withLock { $0.compactionRetry = nil }
        } catch {
            state.withLock { $0.compactionRetry = ($0.journal.end * 2, $0.journal.recordCount * 2) }
            log("file store \(layout.directory): compaction failed, will retry when the journal has doubled: \(error)")
        }
    }

    /// Runs a compaction the caller has marked as begun (`compacting`). Commits wait while this
    /// runs; reads go on while the snapshot is written.
    private func runCompaction() throws {
        defer { state.update { $0.compacting = false } }
        let (snapshot, sequence) = try state.wait(until: { !$0.syncInProgress }) { state, _ -> (RecordTable, UInt64) in
            do {
                try state.journal.syncData()
            } catch {
                state.failure = FleetError(.storeFailure, detail: "the journal could not be synced, so recent commits may not be durable; reopen the store (\(error))")
                throw error
            }
            try state.publish(upTo: state.appendedSequence)
            return (state.table, state.appendedSequence)
        }
        try SnapshotFile.write(snapshot, sequence: sequence, layout: layout)
        let layout = self.layout
        try state.withLock { state in
            let fresh = try JournalWriter.prepareEmpty(layout: layout)
            try fresh.install(layout: layout)
            state.journal.close()
            state.journal = fresh
            do {
                try FileSystem.syncDirectory(layout.directory)
            } catch {
                state.failure = FleetError(.storeFailure, detail: "the new journal may not survive a crash; reopen the store (\(error))")
                throw error
            }
            state.counters.compactions += 1
        }
    }

    // MARK: Closing

    /// Syncs the journal, releases the directory lock and closes the files. Later calls fail.
    public func close() throws {
        try state.wait(until: { $0.isClosed || (!$0.compacting && !$0.syncInProgress) }) { state, _ in
            guard !state.isClosed else { throw state.closedError }
            var syncError: (any Error)?
            if state.failure == nil {
                do {
                    try state.journal.syncData()
                    try state.publish(upTo: state.appendedSequence)
                } catch {
                    state.failure = FleetError(.storeFailure, detail: "the journal could not be synced at close (\(error))")
                    syncError = state.failure
                }
            }
            state.isClosed = true
            state.journal.close()
            state.directoryLock?.release()
            state.directoryLock = nil
            if let syncError { throw syncError }
        }
    }
}

/// What `FileStore` keeps behind its lock.
private struct FileStoreState {
    let directory: String
    /// The records readers see: every commit up to `visibleSequence`.
    var table: RecordTable
    var journal: JournalWriter
    var directoryLock: DirectoryLock?
    /// Commits appended but not yet synced (durable stores only), in sequence order.
    var pending: [JournalRecord] = []
    /// The newest version each key has in `pending`, with the commit that wrote it (0: deleted).
    var pendingVersions: [RecordKey: (version: UInt64, sequence: UInt64)] = [:]
    var appendedSequence: UInt64
    var visibleSequence: UInt64
    /// The sequence of the last history point appended (visible or not).
    var historySequence: Int64
    var syncInProgress = false
    var compacting = false
    /// After a compaction failed: the journal size at which to try again.
    var compactionRetry: (bytes: Int, records: Int)?
    /// Set when the journal can no longer be trusted to match memory; writes then fail.
    var failure: FleetError?
    var isClosed = false
    var counters = FileStoreStatistics()

    init(directory: String, table: RecordTable, journal: JournalWriter, directoryLock: DirectoryLock, sequence: UInt64) {
        self.directory = directory
        self.table = table
        self.journal = journal
        self.directoryLock = directoryLock
        appendedSequence = sequence
        visibleSequence = sequence
        historySequence = table.history.lastSequence
    }

    /// Journals the removal of up to `limit` of the oldest visible history points older than
    /// `time` and removes them from memory at once, without waiting for a sync: a prune a crash
    /// loses is done again.
    mutating func pruneHistory(before time: Int64, limit: Int) throws -> Int {
        let count = min(limit, table.history.points.prefix { $0.time < time }.count)
        guard count > 0 else { return 0 }
        let record = JournalRecord(sequence: appendedSequence + 1, entries: [.historyPruned(before: time, count: count)])
        do {
            try journal.append(record)
        } catch {
            if journal.isDamaged {
                failure = FleetError(.storeFailure, detail: "a failed append to \(journal.path) could not be undone; reopen the store (\(error))")
            }
            throw error
        }
        appendedSequence = record.sequence
        if pending.isEmpty { visibleSequence = record.sequence }
        try table.apply(.historyPruned(before: time, count: count))
        return count
    }

    /// Validates `writes` in order against the newest versions, pending ones included (a key written
    /// twice in one commit sees its first write; deleting a record that does not exist is a
    /// conflict), and appends them as one journal record.
    mutating func append(_ writes: [StoreWrite], durable: Bool) throws -> FileStore.AppendOutcome {
        guard !writes.isEmpty else { return .appended(versions: [], sequence: appendedSequence) }
        var versionsInCommit: [RecordKey: UInt64] = [:]
        var entries: [JournalEntry] = []
        entries.reserveCapacity(writes.count)
        var newVersions: [UInt64] = []
        newVersions.reserveCapacity(writes.count)
        for write in writes {
            let current = versionsInCommit[write.key] ?? newestVersion(write.key)
            let isDeleteOfNothing = if case .delete = write { current == 0 } else { false }
            guard current == write.expectedVersion, !isDeleteOfNothing else {
                if let inCommit = versionsInCommit[write.key] {
                    throw StoreConflict(key: write.key, expectedVersion: write.expectedVersion, actualVersion: inCommit)
                }
                return .conflict(key: write.key, expectedVersion: write.expectedVersion, pendingSequence: pendingVersions[write.key]?.sequence)
            }
            switch write {
            case .put(var record, let expected):
                record.version = expected + 1
                let point = record.historyPoint
                record.historyPoint = nil
                entries.append(.put(record))
                if var point {
                    historySequence += 1
                    point.sequence = historySequence
                    entries.append(.history(point))
                }
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
            if durable {
                pending.append(record)
                for entry in entries {
                    if let key = entry.key { pendingVersions[key] = (entry.version, record.sequence) }
                }
            } else {
                try makeVisible(record)
                visibleSequence = record.sequence
            }
        }
        return .appended(versions: newVersions, sequence: appendedSequence)
    }

    /// The version a new write must expect: the newest one, durable or not (0: no record).
    func newestVersion(_ key: RecordKey) -> UInt64 {
        pendingVersions[key]?.version ?? table.version(key)
    }

    /// Moves the synced pending commits into the table readers see.
    mutating func publish(upTo sequence: UInt64) throws {
        var published = 0
        for record in pending {
            guard record.sequence <= sequence else { break }
            try makeVisible(record)
            for entry in record.entries {
                if let key = entry.key, pendingVersions[key]?.sequence == record.sequence { pendingVersions[key] = nil }
            }
            published += 1
        }
        pending.removeFirst(published)
        visibleSequence = max(visibleSequence, sequence)
    }

    private mutating func makeVisible(_ record: JournalRecord) throws {
        do {
            for entry in record.entries { try table.apply(entry) }
        } catch let mismatch as RecordTable.Mismatch {
            let error = FleetError.internal("file store \(directory): commit \(record.sequence) was validated but does not apply: \(mismatch.message)")
            failure = error
            throw error
        }
    }

    func checkWritable() throws {
        guard !isClosed else { throw closedError }
        if let failure { throw failure }
    }

    var closedError: FleetError {
        FleetError(.storeFailure, detail: "the file store at \(directory) is closed")
    }
}

/// The table as it is while `FileStore.withSnapshot` holds the lock.
private struct FileSnapshot: StoreSnapshot {
    let table: RecordTable

    func get(_ key: RecordKey) throws -> StoreRecord? { table.record(key) }
}
