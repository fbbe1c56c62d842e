/// The files of a file store's directory.
///
/// `snapshot` holds every record as of one journal sequence; `journal` holds the commits after it
/// (and, for a moment after a compaction, some before it, which replay skips). The `.tmp` files
/// exist only while a compaction writes them; an open removes any a crash left behind.
public struct FileStoreLayout: Sendable, Hashable {
    /// The store's directory.
    public var directory: String

    /// The layout of the store in `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// Every record as of one journal sequence, sealed by a checksum.
    public var snapshot: String { path("snapshot") }
    /// The write-ahead journal: one framed record per commit.
    public var journal: String { path("journal") }
    /// Held with `flock` by the one process that has the store open; it holds that process's ID.
    public var lock: String { path("LOCK") }
    /// A snapshot being written by a compaction.
    public var snapshotTemporary: String { path("snapshot.tmp") }
    /// A fresh journal being prepared by a compaction.
    public var journalTemporary: String { path("journal.tmp") }

    private func path(_ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
