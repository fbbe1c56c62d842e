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
    /// A trip report asked for a trip that is still under way.
    public static let tripNotFinished = ErrorCause(
        id: "TRIP_NOT_FINISHED", code: .failedPrecondition,
        summary: "The trip is not finished yet",
        remedy: "A trip report adds up a finished trip (COMPLETE or CANCELED); wait until the trip ends, or read its path so far with `fleet-admin history --trip`.",
        matchPhrases: ["not finished", "trip report"])
}

/// The error causes FleetOperator reports (fleet-admin's export and import files), in catalogue order:
/// composed into the product's one catalogue where the executables are wired (`ErrorCatalogue.register`).
public enum FleetOperatorCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [.unwritableOutput, .badExportLine, .tripNotFinished]
}
