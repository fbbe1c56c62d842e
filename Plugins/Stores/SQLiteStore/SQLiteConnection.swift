import CSQLite
import CSQLiteShim
import FleetErrors

/// One connection to the database file, with its busy handler and its cache of prepared statements.
///
/// Not thread-safe: the store hands each connection to one thread at a time (the group-commit leader
/// for the writer, a borrower for a reader), which is why it is opened with SQLITE_OPEN_NOMUTEX.
final class SQLiteConnection {
    /// The database file, for error messages.
    let path: String
    private let db: OpaquePointer
    private let busyWaiter: BusyWaiter
    private var statements: [String: SQLiteStatement] = [:]
    private var isClosed = false

    /// SQLite's process-wide settings, made once before the first connection opens: no memory
    /// statistics (they take one global mutex on every allocation, which readers on many threads
    /// then queue for).
    private static let configured: Void = {
        _ = csqlite_disable_memory_statistics()  // SQLITE_MISUSE if SQLite is already in use: harmless
    }()

    /// Opens (creating if needed) the database at `path`.
    init(path: String, busyTimeoutMilliseconds: Int) throws {
        _ = Self.configured
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteFailure.error(code, doing: "opening the database", path: path, db: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        self.path = path
        self.db = handle
        self.busyWaiter = BusyWaiter(timeoutMilliseconds: busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(handle, 1)
        busyWaiter.install(on: handle)
    }

    deinit {
        close()
    }

    /// Finalizes every statement and closes the connection. Safe to call twice.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        for statement in statements.values { statement.finalize() }
        statements = [:]
        sqlite3_close_v2(db)
    }

    /// The error for `code`, with SQLite's message for this connection.
    func failure(_ code: Int32, doing: String) -> FleetError {
        SQLiteFailure.error(code, doing: doing, path: path, db: db)
    }

    /// The prepared statement for `sql`, compiled on first use and kept for the connection's life.
    func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw failure(code, doing: "preparing '\(sql)'")
        }
        let statement = SQLiteStatement(handle: handle, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `sql` to completion, ignoring any rows it returns.
    func execute(_ sql: String, doing: @autoclosure () -> String, bind: (SQLiteStatement) -> Void = { _ in }) throws {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        bind(statement)
        while true {
            let code = statement.step()
            if code == SQLITE_DONE { return }
            if code != SQLITE_ROW { throw failure(code, doing: doing()) }
        }
    }

    /// Runs `sql` and reads every row it returns.
    func rows<Row>(_ sql: String, doing: @autoclosure () -> String, bind: (SQLiteStatement) -> Void = { _ in },
                   read: (SQLiteStatement) throws -> Row) throws -> [Row] {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        bind(statement)
        var rows: [Row] = []
        while true {
            let code = statement.step()
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw failure(code, doing: doing()) }
            rows.append(try read(statement))
        }
    }

    /// Runs `sql` and reads its first row, if any.
    func firstRow<Row>(_ sql: String, doing: @autoclosure () -> String, bind: (SQLiteStatement) -> Void = { _ in },
                       read: (SQLiteStatement) throws -> Row) throws -> Row? {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        bind(statement)
        let code = statement.step()
        if code == SQLITE_DONE { return nil }
        guard code == SQLITE_ROW else { throw failure(code, doing: doing()) }
        return try read(statement)
    }

    /// Runs `body` in one `BEGIN IMMEDIATE … COMMIT` transaction, rolled back when it throws. `what` names
    /// the transaction in errors ("the schema migration").
    func immediateTransaction<Result>(_ what: String, _ body: () throws -> Result) throws -> Result {
        try execute("BEGIN IMMEDIATE", doing: "starting \(what)")
        do {
            let result = try body()
            try execute("COMMIT", doing: "committing \(what)")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK", doing: "rolling back \(what)") }
            throw error
        }
    }

    /// Runs one schema statement once, without caching it (for migrations).
    func executeOnce(_ sql: String, doing: String) throws {
        var handle: OpaquePointer?
        let prepared = sqlite3_prepare_v2(db, sql, -1, &handle, nil)
        guard prepared == SQLITE_OK, let handle else { throw failure(prepared, doing: doing) }
        defer { sqlite3_finalize(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            if code != SQLITE_ROW { throw failure(code, doing: doing) }
        }
    }

    /// Rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int64 {
        sqlite3_changes64(db)
    }

    /// Whether a transaction is open (SQLite rolls back by itself after some errors).
    var isInTransaction: Bool {
        sqlite3_get_autocommit(db) == 0
    }
}
