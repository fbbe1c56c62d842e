#if canImport(Glibc)
import Glibc
#endif
import FileIO
import FleetErrors

/// Appends framed records to the journal file and syncs them.
///
/// A failed append cuts the file back to where the record started, so a later record never follows
/// a half-written one; when even that fails, `isDamaged` tells the store to stop writing.
final class JournalWriter {
    private let file: PosixFile
    /// The journal's path in the store directory.
    let path: String
    /// The size of the journal: where the next record goes.
    private(set) var end: Int
    /// How many records the journal holds.
    private(set) var recordCount: Int
    /// Whether a failed append could not be undone, leaving a torn record before future ones.
    private(set) var isDamaged = false

    init(file: PosixFile, path: String, end: Int, recordCount: Int) {
        self.file = file
        self.path = path
        self.end = end
        self.recordCount = recordCount
    }

    /// Writes an empty journal (just the header) to `journal.tmp` and syncs it; the caller renames
    /// it over `journal` (`install`) and syncs the directory.
    static func prepareEmpty(layout: FileStoreLayout) throws -> JournalWriter {
        let file = try PosixFile.open(layout.journalTemporary, O_RDWR | O_CREAT | O_TRUNC)
        do {
            try file.write(JournalFormat.header, at: 0)
            try file.sync()
        } catch {
            file.close()
            _ = try? FileSystem.remove(layout.journalTemporary)
            throw error
        }
        return JournalWriter(file: file, path: layout.journal, end: JournalFormat.headerSize, recordCount: 0)
    }

    /// Renames the prepared `journal.tmp` over `journal`. Sync the directory afterwards.
    func install(layout: FileStoreLayout) throws {
        do {
            try FileSystem.rename(layout.journalTemporary, to: layout.journal)
        } catch {
            close()
            _ = try? FileSystem.remove(layout.journalTemporary)
            throw error
        }
        file.renamed(to: layout.journal)
    }

    /// Appends one record (not yet durable: call `syncData`).
    func append(_ record: JournalRecord) throws {
        let frame = JournalFormat.frame(record)
        guard frame.count - JournalFormat.frameHeaderSize <= JournalFormat.maximumPayloadSize else {
            throw FleetError.invalidArgument("a commit of \(frame.count) bytes is larger than the file store's limit of \(JournalFormat.maximumPayloadSize) bytes per commit")
        }
        do {
            try file.write(frame, at: end)
        } catch {
            do {
                try file.truncate(to: end)
            } catch {
                isDamaged = true
            }
            throw error
        }
        end += frame.count
        recordCount += 1
    }

    /// Makes every appended record durable (`fdatasync`).
    func syncData() throws {
        try file.syncData()
    }

    /// Closes the file.
    func close() {
        file.close()
    }
}
