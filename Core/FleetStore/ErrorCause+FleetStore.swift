import FleetErrors

extension ErrorCause {
    /// The database file was written by a newer version of the engine (its schema version is higher
    /// than this code knows). To be moved into the catalogue.
    public static let storeSchemaTooNew = ErrorCause(
        id: "STORE_SCHEMA_TOO_NEW", code: .failedPrecondition,
        summary: "The store file was written by a newer version of the engine",
        remedy: "Open it with that version or a newer one; this version would not understand its records.",
        publicMessage: "The store was written by a newer version of the engine (the server's log has the details)")
}

/// The error causes FleetStore reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired (`ErrorCatalogue.register`), so `error-explain` knows them.
public enum FleetStoreCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [
        .storeSchemaTooNew,
    ]
}
