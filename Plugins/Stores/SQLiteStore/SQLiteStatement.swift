import CSQLite

/// Tells SQLite to copy a bound text or blob before `bind` returns.
private let transientDestructor = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// One prepared statement of a connection: values are only ever bound, never spliced into SQL.
///
/// Used by one thread at a time (its connection's). Every use ends with `reset()`, so that no
/// statement keeps a read transaction open.
final class SQLiteStatement {
    let handle: OpaquePointer
    /// The SQL text, for error messages.
    let sql: String

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    /// Clears the bindings and rewinds the statement for its next use.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func finalize() {
        sqlite3_finalize(handle)
    }

    // MARK: Binding (parameters are numbered from 1).

    func bind(_ index: Int32, _ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            if let base = utf8.baseAddress {
                base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { text in
                    _ = sqlite3_bind_text(handle, index, text, Int32(utf8.count), transientDestructor)
                }
            } else {
                _ = sqlite3_bind_text(handle, index, "", 0, transientDestructor)
            }
        }
    }

    func bind(_ index: Int32, _ value: String?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: Double) {
        sqlite3_bind_double(handle, index, value)
    }

    func bind(_ index: Int32, _ value: Double?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ bytes: [UInt8]) {
        if bytes.isEmpty {
            sqlite3_bind_zeroblob(handle, index, 0)
            return
        }
        bytes.withUnsafeBytes { buffer in
            _ = sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count), transientDestructor)
        }
    }

    // MARK: Stepping and reading columns (numbered from 0).

    /// Runs one step: SQLITE_ROW, SQLITE_DONE or an error code.
    func step() -> Int32 {
        sqlite3_step(handle)
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// The integer in `column`, or nil if it is NULL.
    func optionalInt64(_ column: Int32) -> Int64? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column)
    }

    func double(_ column: Int32) -> Double? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_double(handle, column)
    }

    func string(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let blob = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: blob, count: count))
    }
}
