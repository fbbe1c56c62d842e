import FleetErrors

extension ErrorCause {
    /// A complete line of a `file:` transport journal cannot be read as a record.
    public static let transportJournalCorrupt = ErrorCause(
        id: "TRANSPORT_JOURNAL_CORRUPT", code: .dataLoss,
        summary: "The transport journal is corrupt",
        remedy: "A complete line of the journal is not a valid record (or its sequence number is out of order), so the calls after it cannot be trusted. Keep a copy of the file and restore it from a backup, or cut it before the line the message names.",
        matchPhrases: ["journal line", "transport journal"])
    /// A journal written by a newer build, in a format this build does not read.
    public static let journalFormatTooNew = ErrorCause(
        id: "JOURNAL_FORMAT_TOO_NEW", code: .failedPrecondition,
        summary: "The journal was written in a newer format than this build reads",
        remedy: "Upgrade this program to the version that wrote the journal (the message names the format versions), or use a fresh journal file.",
        matchPhrases: ["newer format", "format version"])
    /// A record that succeeded when it was written fails when applied in this process.
    public static let journalReplayDiverged = ErrorCause(
        id: "JOURNAL_REPLAY_DIVERGED", code: .dataLoss,
        summary: "A journal record that succeeded when it was written fails when applied here",
        remedy: "The journal was edited, or was written by a different version of the engine. Keep a copy of the file and replay it with the version that wrote it; the message names the line and the error.",
        matchPhrases: ["diverged", "fails when applied"])
    /// The journal could not be opened, locked, read, appended or synced.
    public static let journalIOFailure = ErrorCause(
        id: "JOURNAL_IO_FAILURE", code: .internal,
        summary: "The transport journal could not be read or written",
        remedy: "Check the journal's path, its permissions and the free disk space; the message names the file and the system's reason.",
        matchPhrases: ["journal", "cannot append", "cannot lock"])
    /// A call on a journal transport that was closed, or that stopped after a journal failure.
    public static let journalTransportClosed = ErrorCause(
        id: "JOURNAL_TRANSPORT_CLOSED", code: .failedPrecondition,
        summary: "The journal transport is closed",
        remedy: "Open the journal again (a new connection); if it stopped after an error, that error's message says what to fix first.")
}

/// The error causes JournalTransport reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired (`ErrorCatalogue.register`), so `error-explain` knows them.
public enum JournalTransportCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [
        .transportJournalCorrupt, .journalFormatTooNew, .journalReplayDiverged, .journalIOFailure, .journalTransportClosed,
    ]
}
