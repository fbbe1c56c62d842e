import FleetErrors

extension ErrorCause {
    /// A record in the middle of a file store's journal is damaged (not a torn tail left by a crash).
    public static let journalCorrupt = ErrorCause(
        id: "JOURNAL_CORRUPT", code: .dataLoss,
        summary: "The file store's journal is corrupt",
        remedy: "A record in the middle of the journal is damaged, so the records after it cannot be trusted. Restore the store directory from a backup; the message names the file and the byte offset.")
    /// A file store's snapshot fails its checksum or cannot be decoded.
    public static let snapshotCorrupt = ErrorCause(
        id: "SNAPSHOT_CORRUPT", code: .dataLoss,
        summary: "The file store's snapshot is corrupt",
        remedy: "The snapshot was damaged after it was written. Restore the store directory from a backup; the message names the file.")
}

/// The error causes FileStore reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired (`ErrorCatalogue.register`), so `error-explain` knows them.
public enum FileStoreCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [
        .journalCorrupt, .snapshotCorrupt,
    ]
}
