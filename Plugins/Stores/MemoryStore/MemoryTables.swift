import FleetErrors
import FleetStore

/// The records of a `MemoryStore`, one table per kind and provider, plus whether the store is closed.
struct MemoryTables: Sendable {
    /// The records of one kind and provider.
    struct TableKey: Hashable, Sendable {
        var kind: RecordKind
        var provider: String
    }

    private var tables: [TableKey: [String: StoreRecord]] = [:]
    private var isClosed = false
    /// The position history.
    private(set) var history = HistoryLog()

    /// Throws once the store is closed.
    func checkOpen() throws {
        if isClosed {
            throw FleetError(.storeFailure, detail: "the memory store was closed; open a new one")
        }
    }

    /// Marks the store closed and drops its records.
    mutating func close() {
        isClosed = true
        tables = [:]
        history = HistoryLog()
    }

    func record(_ key: RecordKey) -> StoreRecord? {
        tables[TableKey(kind: key.kind, provider: key.provider)]?[key.id]
    }

    /// The records of one kind and provider, by ID.
    func table(_ kind: RecordKind, _ provider: String) -> [String: StoreRecord] {
        tables[TableKey(kind: kind, provider: provider)] ?? [:]
    }

    /// Checks every write against the current versions (each write sees the ones before it),
    /// then applies all of them, or throws `StoreConflict` and applies none.
    mutating func apply(_ writes: [StoreWrite]) throws -> [UInt64] {
        var staged: [RecordKey: StoreRecord?] = [:]
        var appended: [HistoryPoint] = []
        var versions: [UInt64] = []
        versions.reserveCapacity(writes.count)
        for write in writes {
            let key = write.key
            let current = staged[key] ?? record(key)
            let actual = current?.version ?? 0
            switch write {
            case .put(var newRecord, let expected):
                guard actual == expected else {
                    throw StoreConflict(key: key, expectedVersion: expected, actualVersion: actual)
                }
                newRecord.version = expected + 1
                if let point = newRecord.historyPoint { appended.append(point) }
                newRecord.historyPoint = nil
                staged[key] = .some(newRecord)
                versions.append(newRecord.version)
            case .delete(_, let expected):
                guard current != nil, actual == expected else {
                    throw StoreConflict(key: key, expectedVersion: expected, actualVersion: actual)
                }
                staged[key] = .some(nil)
                versions.append(0)
            }
        }
        for (key, record) in staged {
            let tableKey = TableKey(kind: key.kind, provider: key.provider)
            if let record {
                tables[tableKey, default: [:]][key.id] = record
            } else {
                tables[tableKey]?[key.id] = nil
            }
        }
        for point in appended { history.append(point) }
        return versions
    }

    /// Removes up to `limit` of the oldest history points older than `time`.
    mutating func pruneHistory(before time: Int64, limit: Int) -> Int {
        history.prune(before: time, limit: limit)
    }
}
