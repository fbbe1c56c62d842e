import FleetErrors
import FleetModel

/// How far a reader has got in a journal, and the reading of the complete lines after that point.
///
/// Only complete lines (ending in `\n`) are read. Bytes after the last newline are a record still being
/// written, or the torn tail of a writer that died mid-append (never acknowledged); they are left for
/// a later read, and a writer holding the lock cuts them off.
struct JournalCursor {
    /// The journal's path, for messages.
    let source: String
    /// The bytes read: every line before this offset has been handed out.
    private(set) var offset = 0
    /// The number of lines read.
    private(set) var lineNumber = 0
    /// The sequence number of the last record read (0 before the first).
    private(set) var lastSequence = 0
    /// The time of the last record read.
    private(set) var lastTime: Timestamp?

    /// How much is read from the file at a time.
    static let chunkSize = 1 << 20

    init(source: String) {
        self.source = source
    }

    /// Reads the complete lines appended since the cursor, handing each record to `body` in order;
    /// the cursor passes a record only once `body` returned. Returns the number of bytes after the last
    /// complete line (0 when the file ends with a newline).
    ///
    /// - Throws: DATA_LOSS naming the line when a complete line is not the next record, or when the file
    ///   is shorter than what was already read; `body`'s error.
    mutating func advance(in file: JournalFile, _ body: (JournalRecord) throws -> Void) throws -> Int {
        let size = try file.size()
        guard size >= offset else {
            throw FleetError(.transportJournalCorrupt,
                             detail: "\(source) is \(size) bytes, shorter than the \(offset) bytes already read: it was cut or replaced")
        }
        var pending: [UInt8] = []
        var position = offset
        while position < size {
            let chunk = try file.read(at: position, count: min(Self.chunkSize, size - position))
            if chunk.isEmpty { break }
            position += chunk.count
            pending.append(contentsOf: chunk)
            var start = 0
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                try take(pending[start..<newline], body)
                offset += newline - start + 1
                start = newline + 1
            }
            pending.removeFirst(start)
        }
        return pending.count
    }

    /// Moves past a record this process appended itself (`length` bytes, newline included), which the
    /// caller has applied already.
    mutating func passAppended(_ record: JournalRecord, length: Int) {
        offset += length
        lineNumber += 1
        lastSequence = record.sequence
        lastTime = record.at
    }

    /// Decodes one complete line, checks it is the next record and hands it to `body`.
    private mutating func take(_ line: ArraySlice<UInt8>, _ body: (JournalRecord) throws -> Void) throws {
        let number = lineNumber + 1
        let record = try JournalRecord(line: line, lineNumber: number, source: source)
        guard record.sequence == lastSequence + 1 else {
            throw FleetError(.transportJournalCorrupt,
                             detail: "\(source) line \(number): sequence number \(record.sequence), expected \(lastSequence + 1) (a record is missing or repeated)")
        }
        try body(record)
        lineNumber = number
        lastSequence = record.sequence
        lastTime = record.at
    }
}
