import FleetErrors

extension ErrorCause {
    /// A trace file of recorded drives that cannot be read: no `trip_id,timestamp,latitude,longitude` header,
    /// a short row, a time or coordinate that is not one.
    public static let malformedTraceFile = ErrorCause(
        id: "MALFORMED_TRACE_FILE", code: .invalidArgument,
        summary: "The trace file cannot be read",
        remedy: "Give CSV with the header trip_id,timestamp,latitude,longitude, one reported position per row, the timestamp RFC 3339 or epoch seconds; the message names the line and column at fault.",
        matchPhrases: ["trace file", "trip_id"])
}

/// The error causes FleetEvaluation reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired (`ErrorCatalogue.register`), so `error-explain` knows them.
public enum FleetEvaluationCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [
        .malformedTraceFile,
    ]
}
