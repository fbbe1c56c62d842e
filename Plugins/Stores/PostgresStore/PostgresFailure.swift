import FleetErrors

/// Turns libpq's failures into the product's errors.
///
/// The server cannot be reached, or the connection broke mid-call: `storeUnreachable`
/// (UNAVAILABLE, retryable). The server refused the URL, user, password or database at connect:
/// `storeSettingRejected` (INVALID_ARGUMENT on the `store` field, the executables' bad-setting
/// exit). A write refused by a server that only reads (a standby after a failover): `storeUnreachable`
/// too. Serialization failures, deadlocks and a full server: `storeBusy` (UNAVAILABLE). Anything
/// else: `storeFailure`. Messages name the URL without its password.
enum PostgresFailure {
    /// libpq's connection messages that mean the settings are wrong, not the network.
    static let settingMessages = [
        "password authentication failed", "no password supplied", "does not exist", "invalid uri",
        "invalid connection option", "invalid integer value", "invalid sslmode", "missing \"=\"",
        "could not translate host name", "pg_hba.conf", "invalid port number", "unexpected spaces",
    ]

    /// Connecting failed with libpq's `message`.
    static func connecting(message: String, url: String) -> FleetError {
        let lowered = message.lowercased()
        if settingMessages.contains(where: lowered.contains) {
            return FleetError(.storeSettingRejected, detail: "'\(url)': \(message)", field: "store")
        }
        return FleetError(.storeUnreachable, detail: "connecting to '\(url)': \(message)")
    }

    /// The connection broke while `doing` something.
    static func lost(message: String, doing: String, url: String) -> FleetError {
        FleetError(.storeUnreachable, detail: "\(doing) in '\(url)': \(message)")
    }

    /// A statement failed with SQLSTATE `state`.
    static func statement(state: String, message: String, doing: String, url: String) -> FleetError {
        // Class 08: connection exception; 57P01–57P03: the server is shutting down or starting;
        // 25006: the server only reads (a standby, or a primary being demoted in a switchover).
        if state.hasPrefix("08") || ["57P01", "57P02", "57P03", readOnly].contains(state) {
            return FleetError(.storeUnreachable, detail: "\(doing) in '\(url)': \(message) (SQLSTATE \(state))")
        }
        // 42501: the user may not do this (create the tables, read them): a setting to fix, not a fault.
        if state == "42501" {
            return FleetError(.storeSettingRejected, detail: "\(doing) in '\(url)': \(message) (SQLSTATE \(state)); the store's user needs to own its database, or rights on its tables", field: "store")
        }
        // 40001 serialization failure, 40P01 deadlock, class 53 insufficient resources, 55P03 lock not available.
        if ["40001", "40P01", "55P03"].contains(state) || state.hasPrefix("53") {
            return FleetError(.storeBusy, detail: "\(doing) in '\(url)': \(message) (SQLSTATE \(state))")
        }
        return FleetError(.storeFailure, detail: "\(doing) in '\(url)': \(message) (SQLSTATE \(state))")
    }

    /// The error for any use of a store after `close()`.
    static func closed(url: String) -> FleetError {
        FleetError(.storeFailure, detail: "the PostgreSQL store '\(url)' was closed; open it again to use it")
    }

    /// SQLSTATE of a write refused because the server only reads: the connection reached a standby
    /// (its server was demoted, or the URL does not ask for `target_session_attrs=read-write`).
    /// UNAVAILABLE, and the connection is dropped, so that the next one looks for the primary again.
    static let readOnly = "25006"

    /// SQLSTATE of a unique violation: two writers created the same record at once.
    static let uniqueViolation = "23505"
}
