#if canImport(Glibc)
import Glibc
#endif
import FileIO
import FleetErrors

/// Opens a store directory: removes a compaction's leftovers, loads the snapshot, replays the
/// journal after it, cuts away a torn last record, and finishes a compaction cut short.
enum StoreRecovery {
    /// A directory brought back to a consistent state, ready for appends.
    struct Recovered {
        var table: RecordTable
        var journal: JournalWriter
        /// The sequence of the last commit in the table.
        var sequence: UInt64
        var report: RecoveryReport
    }

    static func recover(layout: FileStoreLayout, log: (String) -> Void) throws -> Recovered {
        var report = RecoveryReport()
        for leftover in [layout.snapshotTemporary, layout.journalTemporary] where try FileSystem.remove(leftover) {
            report.removedTemporaryFiles.append(leftover)
            log("removed \(leftover), left by a compaction a crash interrupted")
        }

        var table = RecordTable()
        var snapshotSequence: UInt64 = 0
        let hasSnapshot = FileSystem.exists(layout.snapshot)
        if hasSnapshot {
            (table, snapshotSequence) = try SnapshotFile.read(layout: layout)
            report.snapshotSequence = snapshotSequence
            report.snapshotRecords = table.count
        }

        guard FileSystem.exists(layout.journal) else {
            if hasSnapshot {
                throw FleetError(.journalCorrupt, detail: "\(layout.journal) is missing beside \(layout.snapshot); the commits after the snapshot (sequence \(snapshotSequence)) are lost")
            }
            let journal = try installEmptyJournal(layout: layout)
            return Recovered(table: table, journal: journal, sequence: 0, report: report)
        }

        let file = try PosixFile.open(layout.journal, O_RDWR)
        let scanner = JournalScanner(path: layout.journal, bytes: try file.readAll())
        var isFirst = true
        let outcome = try scanner.scan { record, offset in
            if isFirst {
                isFirst = false
                guard record.sequence <= snapshotSequence + 1 else {
                    throw FleetError(.journalCorrupt, detail: "\(layout.journal) at offset \(offset): the journal starts at sequence \(record.sequence) but the snapshot ends at \(snapshotSequence); the commits between are lost")
                }
            }
            guard record.sequence > snapshotSequence else {
                report.skippedCommits += 1
                return
            }
            for entry in record.entries {
                do {
                    try table.apply(entry)
                } catch let mismatch as RecordTable.Mismatch {
                    throw FleetError(.journalCorrupt, detail: "\(layout.journal) at offset \(offset): commit \(record.sequence) does not follow the state before it: \(mismatch.message)")
                }
            }
            report.replayedCommits += 1
        }

        if outcome.tornBytes > 0 {
            try file.truncate(to: outcome.validEnd)
            try file.syncData()
            report.truncatedBytes = outcome.tornBytes
            report.truncatedAtOffset = outcome.validEnd
            log("cut a torn last record of \(outcome.tornBytes) bytes at offset \(outcome.validEnd) from \(layout.journal): a commit a crash interrupted, never acknowledged")
        }
        let sequence = max(snapshotSequence, outcome.lastSequence ?? 0)

        if report.skippedCommits > 0 && report.replayedCommits == 0 {
            // The snapshot holds everything the journal does: a compaction stopped before replacing it.
            file.close()
            let journal = try installEmptyJournal(layout: layout)
            report.completedCompaction = true
            log("replaced \(layout.journal), whose \(report.skippedCommits) commits the snapshot already holds: finished a compaction a crash interrupted")
            return Recovered(table: table, journal: journal, sequence: sequence, report: report)
        }
        let journal = JournalWriter(file: file, path: layout.journal, end: outcome.validEnd, recordCount: outcome.recordCount)
        return Recovered(table: table, journal: journal, sequence: sequence, report: report)
    }

    /// Puts an empty journal in place, durably.
    static func installEmptyJournal(layout: FileStoreLayout) throws -> JournalWriter {
        let journal = try JournalWriter.prepareEmpty(layout: layout)
        try journal.install(layout: layout)
        try FileSystem.syncDirectory(layout.directory)
        return journal
    }
}
