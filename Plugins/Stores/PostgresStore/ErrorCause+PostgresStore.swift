import FleetErrors

extension ErrorCause {
    /// The PostgreSQL server cannot be reached, or the connection broke during a call (server
    /// restarted, network down). A write in flight was not acknowledged: it may or may not have
    /// been applied, and the engine's versions make a retry safe.
    public static let storeUnreachable = ErrorCause(
        id: "STORE_UNREACHABLE", code: .unavailable,
        summary: "The store's database server cannot be reached",
        remedy: "Retry with backoff: the store reconnects by itself. If it lasts, check that PostgreSQL is running and reachable at the store URL's host and port.",
        matchPhrases: ["server closed the connection unexpectedly", "connection to server at", "could not connect to server"],
        publicMessage: "The database is unavailable (the server's log has the details)")
    /// The database server refused the store's settings: a malformed URL, an unknown user, a wrong
    /// password or a database that does not exist.
    public static let storeSettingRejected = ErrorCause(
        id: "STORE_SETTING_REJECTED", code: .invalidArgument,
        summary: "The store URL was rejected",
        remedy: "Fix --store (or FLEET_STORE): postgres://USER@HOST:PORT/DATABASE with a user the server knows, its password (in ~/.pgpass or PGPASSWORD rather than the URL) and a database that exists (createdb).",
        matchPhrases: ["password authentication failed", "invalid connection option", "store url"],
        publicMessage: "The database refused the server's store settings (the server's log has the details)")
}

/// The error causes PostgresStore reports, in catalogue order: composed into the product's one catalogue
/// where the executables are wired (`ErrorCatalogue.register`), so `error-explain` knows them.
public enum PostgresStoreCauses {
    /// Every cause this module reports.
    public static let all: [ErrorCause] = [
        .storeUnreachable, .storeSettingRejected,
    ]
}
