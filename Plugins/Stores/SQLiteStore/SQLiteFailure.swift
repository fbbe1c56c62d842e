import CSQLite
import FleetErrors

/// Turns SQLite result codes into the product's errors.
///
/// SQLITE_BUSY and SQLITE_LOCKED (after the busy handler gave up) become `storeBusy`, without
/// SQLite's own "database is locked" wording; SQLITE_CORRUPT and SQLITE_NOTADB become
/// `storeCorrupted`; everything else becomes `storeFailure`. Each carries SQLite's message and what
/// the store was doing.
enum SQLiteFailure {
    /// The error for result code `code` returned while `doing` something with the database at `path`.
    static func error(_ code: Int32, doing: String, path: String, db: OpaquePointer?) -> FleetError {
        let primary = code & 0xff
        if primary == SQLITE_BUSY || primary == SQLITE_LOCKED {
            return FleetError(.storeBusy, detail: "\(doing) in '\(path)': another connection held the database for longer than the busy timeout")
        }
        let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        if primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB {
            return FleetError(.storeCorrupted, detail: "\(doing) in '\(path)': \(message) (SQLite code \(code))")
        }
        if message.contains("no such module: rtree") {
            return FleetError(.storeFailure, detail: "\(doing) in '\(path)': this SQLite library was built without the R*Tree module, which the store needs for nearby search")
        }
        return FleetError(.storeFailure, detail: "\(doing) in '\(path)': \(message) (SQLite code \(code))")
    }

    /// The error for any use of a store after `close()`.
    static func closed(path: String) -> FleetError {
        FleetError(.storeFailure, detail: "the SQLite store '\(path)' was closed; open it again to use it")
    }
}
