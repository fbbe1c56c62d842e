import FleetErrors

/// What a journal transport guards with its lock: the open file, how far it has applied the journal,
/// and whether it can still serve calls.
struct JournalState {
    /// The open journal; nil once closed.
    var file: JournalFile?
    /// How far the journal has been read and applied.
    var cursor: JournalCursor
    /// The error every call throws once the journal cannot be trusted (corrupt, diverged, a failed
    /// append), or nil.
    var failure: FleetError?
    /// Counters.
    var statistics = JournalStatistics()

    /// The open file, or the error calls throw now.
    func usableFile(path: String) throws -> JournalFile {
        if let failure { throw failure }
        guard let file else {
            throw FleetError(.journalTransportClosed, detail: "the journal transport for \(path) was closed")
        }
        return file
    }
}
