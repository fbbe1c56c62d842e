/// When a file store folds its journal into a new snapshot.
///
/// A compaction runs after the commit that crosses either limit, on that committer's thread;
/// commits wait meanwhile, reads do not.
public struct CompactionPolicy: Sendable, Hashable {
    /// Compact when the journal file reaches this many bytes.
    public var maxJournalBytes: Int
    /// Compact when the journal holds this many records (commits).
    public var maxJournalRecords: Int

    /// The default compacts at 64 MiB of journal and never by record count.
    public init(maxJournalBytes: Int = 64 << 20, maxJournalRecords: Int = .max) {
        self.maxJournalBytes = maxJournalBytes
        self.maxJournalRecords = maxJournalRecords
    }

    /// Whether a journal of this size calls for a compaction.
    public func isDue(journalBytes: Int, journalRecords: Int) -> Bool {
        journalBytes >= maxJournalBytes || journalRecords >= maxJournalRecords
    }
}
