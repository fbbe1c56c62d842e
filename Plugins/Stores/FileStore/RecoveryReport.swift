/// What opening a file store found and repaired.
public struct RecoveryReport: Sendable, Hashable {
    /// The journal sequence the snapshot held (0 without a snapshot).
    public var snapshotSequence: UInt64 = 0
    /// Records loaded from the snapshot.
    public var snapshotRecords: Int = 0
    /// Journal records applied on top of the snapshot.
    public var replayedCommits: Int = 0
    /// Journal records skipped because the snapshot already held them (a compaction was cut short).
    public var skippedCommits: Int = 0
    /// Bytes of a torn last journal record that were cut away (a commit a crash interrupted; never acknowledged).
    public var truncatedBytes: Int = 0
    /// Where the torn record started, when there was one.
    public var truncatedAtOffset: Int?
    /// Leftover files of an interrupted compaction that were removed.
    public var removedTemporaryFiles: [String] = []
    /// Whether the open finished a compaction a crash interrupted after its snapshot was in place.
    public var completedCompaction: Bool = false

    /// A report of a store that opened with nothing to repair.
    public init() {}
}
