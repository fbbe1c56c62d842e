import FleetErrors

extension ErrorCause {
    /// A file fleet-admin was told to write (`export --output`) cannot be created or written.
    public static let unwritableOutput = ErrorCause(
        id: "UNWRITABLE_OUTPUT", code: .invalidArgument,
        summary: "The output file could not be written",
        remedy: "Give a path in a folder that exists and that you may write to, on a disk with free space; the message says what the system answered.",
        matchPhrases: ["cannot be written", "cannot create", "no space left"])
    /// A line of an export file that is not a fleet record.
    public static let badExportLine = ErrorCause(
        id: "BAD_EXPORT_LINE", code: .invalidArgument,
        summary: "A line of the import file is not a fleet record",
        remedy: "Import files hold one JSON object per line, {\"kind\":\"vehicle\"|\"trip\",\"resource\":{…}}, as `fleet-admin export` writes them; fix or remove the line named in the message.",
        matchPhrases: ["import file", "line", "kind"])
    /// A file of tasks (`tasks batch-create`) that is not one.
    public static let badTaskFile = ErrorCause(
        id: "BAD_TASK_FILE", code: .invalidArgument,
        summary: "The task file cannot be read as tasks",
        remedy: "Give CSV with a header naming at least task_id,type,duration (optional: tracking_id, latitude, longitude, window_start, window_end, attribute.KEY), one task per row; or a JSON array of CreateTaskRequests or Tasks. The message names the line or element at fault; nothing was created.",
        matchPhrases: ["task file", "column", "task_id"])
    /// A trip report asked for a trip that is still under way.
    public static let tripNotFinished = ErrorCause(
        id: "TRIP_NOT_FINISHED", code: .failedPrecondition,
        summary: "The trip is not finished yet",
        remedy: "A trip report adds up a finished trip (COMPLETE or CANCELED); wait until the trip ends, or read its path so far with `fleet-admin history --trip`.",
        matchPhrases: ["not finished", "trip report"])
}

/// The error causes FleetOperator reports (fleet-admin's export, import and task files), in catalogue order:
/// composed into the product's one catalogue where the executables are wired (`ErrorCatalogue.register`).
public enum FleetOperatorCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [.unwritableOutput, .badExportLine, .badTaskFile, .tripNotFinished]
}
