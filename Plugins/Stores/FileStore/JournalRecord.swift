import FleetStore

/// One change as the journal keeps it: the outcome of a validated write, so replay needs no validation.
enum JournalEntry: Sendable, Hashable {
    /// The record as stored, carrying the version the store assigned.
    case put(StoreRecord)
    /// The record under the key was removed; it was at `version`.
    case delete(RecordKey, version: UInt64)
    /// A point appended to the position history, with the sequence the store gave it.
    case history(HistoryPoint)
    /// The `count` oldest history points older than `before` were removed.
    case historyPruned(before: Int64, count: Int)

    /// The record the entry changes; nil for the history's entries.
    var key: RecordKey? {
        switch self {
        case .put(let record): record.key
        case .delete(let key, _): key
        case .history, .historyPruned: nil
        }
    }

    /// The version the entry leaves the key at (0: deleted).
    var version: UInt64 {
        switch self {
        case .put(let record): record.version
        case .delete, .history, .historyPruned: 0
        }
    }
}

/// One journal record: every change of one commit, applied all together or not at all.
struct JournalRecord: Sendable, Hashable {
    /// Numbers commits 1, 2, 3, … across the store's life; a snapshot names the last one it holds.
    var sequence: UInt64
    var entries: [JournalEntry]
}
