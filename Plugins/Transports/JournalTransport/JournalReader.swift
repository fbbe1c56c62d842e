import FleetErrors

/// Reads the records of a journal file in order, for replaying a session (`fleet-admin replay JOURNAL
/// --to URL`) or inspecting it. Opens the file read-only and takes no lock.
public struct JournalReader: Sendable {
    /// What a read went through.
    public struct Summary: Sendable, Hashable {
        /// The records read.
        public var records: Int
        /// The last record's sequence number (0 for an empty journal).
        public var lastSequence: Int
        /// Bytes after the last complete line: a record being written, or the torn tail of a writer that
        /// died mid-append. Never part of the journal.
        public var incompleteTailBytes: Int
    }

    /// The journal's path.
    public let path: String

    /// A reader of the journal at `path` (opened by each read).
    public init(path: String) {
        self.path = path
    }

    /// Calls `body` with every complete record in order, streaming (the file is read a chunk at a time).
    ///
    /// - Throws: `journalIOFailure` when the file cannot be read; DATA_LOSS naming the line of the
    ///   first corrupt record; `journalFormatTooNew`; `body`'s error.
    @discardableResult
    public func read(_ body: (JournalRecord) throws -> Void) throws -> Summary {
        let file = try JournalFile.open(path, create: false)
        defer { file.close() }
        var cursor = JournalCursor(source: path)
        var count = 0
        let tail = try cursor.advance(in: file) { record in
            try body(record)
            count += 1
        }
        return Summary(records: count, lastSequence: cursor.lastSequence, incompleteTailBytes: tail)
    }

    /// Every complete record, in order.
    public func records() throws -> [JournalRecord] {
        var records: [JournalRecord] = []
        try read { records.append($0) }
        return records
    }
}
