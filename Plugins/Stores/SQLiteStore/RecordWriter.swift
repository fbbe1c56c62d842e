import FleetErrors
import FleetStore

/// Applies groups of write batches on the store's one writer connection.
///
/// A group is one `BEGIN IMMEDIATE … COMMIT` transaction, so one fsync when durable. Each batch runs
/// inside its own savepoint: a batch whose expected versions do not match is rolled back to its
/// savepoint and gets a `StoreConflict`, the others commit. Versions are read inside the transaction,
/// after the write lock is taken, so writes from other processes are never missed. The usual batch,
/// one update of a record at its expected version that stays in its grid cell, is a single
/// statement that checks the version in its `WHERE` and needs no savepoint (`updateInPlace`).
///
/// History points are appended to `history` alone; once `historyFilingInterval` of them are
/// appended, the next group's transaction first files them by vehicle and by time (`fileHistory`).
/// The writer counts the points it appends itself, and every eighth of the interval it reads how
/// many the file holds unfiled, so that with several processes writing one file the tail stays near
/// the interval instead of growing to the interval times the processes.
///
/// Unchecked `Sendable`: only the group-commit leader (one thread at a time) calls `run`.
final class RecordWriter: @unchecked Sendable {
    let connection: SQLiteConnection
    /// How many points this writer appends between two filings of the history.
    let historyFilingInterval: Int
    /// Points appended since the last filing; starts due, so that a tail another run of the
    /// program left (it stopped before its next filing) is filed by the first write.
    private var pointsSinceFiling: Int
    /// How many points this writer appends between two reads of the file's unfiled tail.
    private let tailCheckInterval: Int
    /// Points this writer appended since it last read the file's unfiled tail.
    private var pointsSinceTailCheck = 0

    init(connection: SQLiteConnection, historyFilingInterval: Int) {
        self.connection = connection
        self.historyFilingInterval = max(1, historyFilingInterval)
        self.pointsSinceFiling = self.historyFilingInterval
        self.tailCheckInterval = max(1, self.historyFilingInterval / 8)
    }

    /// Runs `group` as one transaction; one result per batch, in order.
    func run(_ group: [[StoreWrite]]) -> [Result<[UInt64], any Error>] {
        do {
            try connection.execute("BEGIN IMMEDIATE", doing: "starting a write transaction")
            if pointsSinceTailCheck >= tailCheckInterval {
                // The file's tail, read under the write lock: other processes' points count too,
                // and a filing of theirs counts as this writer's own.
                pointsSinceTailCheck = 0
                if let unfiled = try? HistorySQL.unfiledCount(on: connection) { pointsSinceFiling = unfiled }
            }
            if pointsSinceFiling >= historyFilingInterval { try fileHistory() }
        } catch {
            if connection.isInTransaction {
                try? connection.execute("ROLLBACK", doing: "rolling back a write transaction")
            }
            return group.map { _ in .failure(error) }
        }
        var results: [Result<[UInt64], any Error>] = []
        results.reserveCapacity(group.count)
        for batch in group {
            // The usual update (one record, still at the version and in the grid cell the caller
            // knows) is one statement, atomic by itself: no savepoint and no read before it.
            switch updateInPlace(batch) {
            case .updated(let version):
                // The point goes with the update it records; should it fail, so does the group.
                if case .put(let record, _) = batch[0], let point = record.historyPoint {
                    do {
                        try appendHistory(point)
                    } catch {
                        return abandon(results, remaining: group.count - results.count, error: error)
                    }
                }
                results.append(.success([version]))
                continue
            case .failed(let error):
                guard connection.isInTransaction else {
                    return abandon(results, remaining: group.count - results.count, error: error)
                }
                results.append(.failure(error))
                continue
            case .notApplied:
                break
            }
            do {
                try connection.execute("SAVEPOINT batch", doing: "opening a savepoint")
            } catch {
                return abandon(results, remaining: group.count - results.count, error: error)
            }
            do {
                let versions = try apply(batch)
                try connection.execute("RELEASE batch", doing: "releasing a savepoint")
                results.append(.success(versions))
            } catch {
                // SQLite rolls the whole transaction back by itself after some errors (disk full, I/O).
                guard connection.isInTransaction else {
                    return abandon(results, remaining: group.count - results.count, error: error)
                }
                do {
                    try connection.execute("ROLLBACK TO batch", doing: "rolling back a savepoint")
                    try connection.execute("RELEASE batch", doing: "releasing a savepoint")
                } catch let rollbackError {
                    return abandon(results, remaining: group.count - results.count, error: rollbackError)
                }
                results.append(.failure(error))
            }
        }
        do {
            try connection.execute("COMMIT", doing: "committing \(group.count) write batch(es)")
        } catch {
            return abandon(results, remaining: 0, error: error)
        }
        return results
    }

    /// Rolls the transaction back and fails every batch that had succeeded so far and every remaining one.
    private func abandon(_ results: [Result<[UInt64], any Error>], remaining: Int,
                         error: any Error) -> [Result<[UInt64], any Error>] {
        if connection.isInTransaction {
            try? connection.execute("ROLLBACK", doing: "rolling back a write transaction")
        }
        let done: [Result<[UInt64], any Error>] = results.map { result in
            if case .success = result { return .failure(error) }
            return result
        }
        return done + Array(repeating: .failure(error), count: remaining)
    }

    /// What `updateInPlace` did.
    private enum InPlace {
        case updated(UInt64)
        /// The statement failed (nothing of it applied).
        case failed(any Error)
        /// Not such a batch, or the record is not at the expected version and cell: take the
        /// general path, which reads the record first.
        case notApplied
    }

    /// A batch of one `put` of an existing record as one `UPDATE` whose `WHERE` checks the expected
    /// version and that the record stays in its grid cell; the general path costs a savepoint, a
    /// read and its release besides (four statements instead of one). A record another process
    /// changed meanwhile matches no row, and the general path then reports the conflict.
    private func updateInPlace(_ batch: [StoreWrite]) -> InPlace {
        guard batch.count == 1, case .put(let record, let expected) = batch[0], expected > 0 else { return .notApplied }
        let point = record.point
        let cell: Int64?
        do {
            cell = try Self.cell(of: record)
        } catch {
            return .notApplied  // a point that cannot be indexed: the general path refuses it
        }
        let version = expected + 1
        do {
            try connection.execute(RecordSQL.updateInPlace, doing: "updating \(record.key)") {
                RecordSQL.bind(record.key, to: $0)
                $0.bind(4, Int64(bitPattern: version))
                $0.bind(5, record.payload)
                $0.bind(6, point?.latitude)
                $0.bind(7, point?.longitude)
                $0.bind(8, record.owner)
                $0.bind(9, Int64(bitPattern: expected))
                $0.bind(10, cell)
            }
        } catch {
            return .failed(error)
        }
        return connection.changes == 1 ? .updated(version) : .notApplied
    }

    /// Applies one batch inside the open transaction, write after write.
    private func apply(_ batch: [StoreWrite]) throws -> [UInt64] {
        var versions: [UInt64] = []
        versions.reserveCapacity(batch.count)
        for write in batch {
            let key = write.key
            let current = try connection.firstRow(RecordSQL.current, doing: "reading the version of \(key)") {
                RecordSQL.bind(key, to: $0)
            } read: { row in
                StoredRow(rowid: row.int64(0), version: UInt64(bitPattern: row.int64(1)), cell: row.optionalInt64(2))
            }
            let actual = current?.version ?? 0
            switch write {
            case .put(let record, let expected):
                guard actual == expected else {
                    throw StoreConflict(key: key, expectedVersion: expected, actualVersion: actual)
                }
                // A record created again continues from the version it was deleted at: a version
                // another process remembers from before the delete can never match it.
                let version = current == nil ? try buriedVersion(of: key) + 1 : expected + 1
                try put(record, version: version, replacing: current)
                if let point = record.historyPoint { try appendHistory(point) }
                versions.append(version)
            case .delete(_, let expected):
                guard let current, actual == expected else {
                    throw StoreConflict(key: key, expectedVersion: expected, actualVersion: actual)
                }
                try connection.execute(RecordSQL.delete, doing: "deleting \(key)") { $0.bind(1, current.rowid) }
                try connection.execute(RecordSQL.bury, doing: "remembering the version of deleted \(key)") {
                    RecordSQL.bind(key, to: $0)
                    $0.bind(4, Int64(bitPattern: current.version))
                }
                versions.append(0)
            }
        }
        return versions
    }

    /// Appends a point to the position history, in the open transaction.
    private func appendHistory(_ point: HistoryPoint) throws {
        try connection.execute(HistorySQL.insert, doing: "keeping a history point of vehicle \(point.vehicleID)") {
            HistorySQL.bind(point, to: $0)
        }
        pointsSinceFiling += 1
        pointsSinceTailCheck += 1
    }

    /// Files the unfiled tail of the history by vehicle and by time, at the start of the open transaction, in
    /// a savepoint of its own: should it fail, it is undone alone, the group's writes go on, and it
    /// is tried again after the next interval. Throws only when SQLite rolled the whole transaction
    /// back (an I/O error, a full disk), which the group's writes could not have outlived either.
    private func fileHistory() throws {
        pointsSinceFiling = 0
        try connection.execute("SAVEPOINT filing", doing: "opening a savepoint")
        do {
            try HistorySQL.file(on: connection)
            try connection.execute("RELEASE filing", doing: "releasing a savepoint")
        } catch {
            guard connection.isInTransaction else { throw error }
            try connection.execute("ROLLBACK TO filing", doing: "rolling back a savepoint")
            try connection.execute("RELEASE filing", doing: "releasing a savepoint")
        }
    }

    /// The version `key` was deleted at (0 if never), forgetting it.
    private func buriedVersion(of key: RecordKey) throws -> UInt64 {
        try connection.firstRow(RecordSQL.exhume, doing: "looking up an earlier \(key)") {
            RecordSQL.bind(key, to: $0)
        } read: { UInt64(bitPattern: $0.int64(0)) } ?? 0
    }

    /// Inserts or updates the row of `record`, filed under the grid cell of its point.
    private func put(_ record: StoreRecord, version: UInt64, replacing current: StoredRow?) throws {
        let key = record.key
        let point = record.point
        let cell = try Self.cell(of: record)
        guard let current else {
            try connection.execute(RecordSQL.insert, doing: "inserting \(key)") {
                RecordSQL.bind(key, to: $0)
                $0.bind(4, Int64(bitPattern: version))
                $0.bind(5, record.payload)
                $0.bind(6, point?.latitude)
                $0.bind(7, point?.longitude)
                $0.bind(8, record.owner)
                $0.bind(9, cell)
            }
            return
        }
        let moving = cell != current.cell
        try connection.execute(moving ? RecordSQL.updateMoving : RecordSQL.update, doing: "updating \(key)") {
            $0.bind(1, current.rowid)
            $0.bind(2, Int64(bitPattern: version))
            $0.bind(3, record.payload)
            $0.bind(4, point?.latitude)
            $0.bind(5, point?.longitude)
            $0.bind(6, record.owner)
            if moving { $0.bind(7, cell) }
        }
    }
}

extension RecordWriter {
    /// The grid cell `record` is filed under (`GeoBox.cellNumber(of:)`), nil without a point;
    /// INVALID_ARGUMENT for a point that is not finite.
    static func cell(of record: StoreRecord) throws -> Int64? {
        guard let point = record.point else { return nil }
        guard point.latitude.isFinite && point.longitude.isFinite else {
            throw FleetError.invalidArgument("cannot index the point of \(record.key): latitude and longitude must be finite numbers")
        }
        return GeoBox.cellNumber(of: point)
    }
}

/// What the writer reads of a record before changing it.
struct StoredRow {
    var rowid: Int64
    var version: UInt64
    /// The grid cell it is filed under (`GeoBox.cellNumber(of:)`), nil without a point.
    var cell: Int64?
}
