import CLibPQ
import Foundation
import FleetErrors
import Synchronization

/// A value bound to a statement parameter, sent in PostgreSQL's binary format.
enum PGValue {
    case text(String)
    case optionalText(String?)
    case bytes([UInt8])
    case int8(Int64)
    case optionalInt8(Int64?)
    case float8(Double?)
    case optionalBytes([UInt8]?)

    /// The parameter's type OID (text 25, bytea 17, int8 20, float8 701).
    var type: Oid {
        switch self {
        case .text, .optionalText: 25
        case .bytes, .optionalBytes: 17
        case .int8, .optionalInt8: 20
        case .float8: 701
        }
    }

    /// Appends the binary encoding to `buffer`; false for SQL NULL, which appends nothing.
    func append(to buffer: inout [UInt8]) -> Bool {
        switch self {
        case .text(let text): buffer.append(contentsOf: text.utf8)
        case .optionalText(let text): guard let text else { return false }; buffer.append(contentsOf: text.utf8)
        case .bytes(let bytes): buffer.append(contentsOf: bytes)
        case .optionalBytes(let bytes): guard let bytes else { return false }; buffer.append(contentsOf: bytes)
        case .int8(let value): Self.appendBigEndian(UInt64(bitPattern: value), to: &buffer)
        case .optionalInt8(let value): guard let value else { return false }; Self.appendBigEndian(UInt64(bitPattern: value), to: &buffer)
        case .float8(let value): guard let value else { return false }; Self.appendBigEndian(value.bitPattern, to: &buffer)
        }
        return true
    }

    private static func appendBigEndian(_ value: UInt64, to buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
    }
}

/// The rows of one statement's answer, in binary format. Valid until the next statement on the
/// connection that made it; read what you need, then let it go.
struct PGRows: ~Copyable {
    fileprivate let result: OpaquePointer

    deinit { PQclear(result) }

    var count: Int { Int(PQntuples(result)) }

    /// How many rows the statement changed (`UPDATE`, `DELETE`, `INSERT`).
    var changed: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    func isNull(_ row: Int, _ column: Int) -> Bool {
        PQgetisnull(result, Int32(row), Int32(column)) == 1
    }

    func bytes(_ row: Int, _ column: Int) -> [UInt8] {
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        guard length > 0, let value = PQgetvalue(result, Int32(row), Int32(column)) else { return [] }
        return value.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }

    func optionalBytes(_ row: Int, _ column: Int) -> [UInt8]? {
        isNull(row, column) ? nil : bytes(row, column)
    }

    func string(_ row: Int, _ column: Int) -> String {
        String(decoding: bytes(row, column), as: UTF8.self)
    }

    func int8(_ row: Int, _ column: Int) -> Int64 {
        Int64(bitPattern: bigEndian(row, column))
    }

    func float8(_ row: Int, _ column: Int) -> Double? {
        isNull(row, column) ? nil : Double(bitPattern: bigEndian(row, column))
    }

    private func bigEndian(_ row: Int, _ column: Int) -> UInt64 {
        bytes(row, column).reduce(0) { $0 << 8 | UInt64($1) }
    }
}

/// Counts the statements a store's connections run and the round trips they took, so that tests and
/// the benchmark can tell what an operation costs. A statement on its own is one round trip (one
/// wait on the network); the statements of a pipeline (`PGConnection.pipeline`) share one.
final class StatementCounter: Sendable {
    private let count = Atomic(0)
    private let trips = Atomic(0)
    var value: Int { count.load(ordering: .relaxed) }
    var roundTrips: Int { trips.load(ordering: .relaxed) }
    func add(statements: Int = 1) {
        count.add(statements, ordering: .relaxed)
        trips.add(1, ordering: .relaxed)
    }
}

/// One statement of a pipeline: its text, its parameters, and whether it is prepared once per
/// connection (as `PGConnection.execute(_:_:prepared:doing:)`).
struct PGStatement {
    let sql: String
    let parameters: [PGValue]
    var prepared = true
}

/// One libpq connection. libpq calls block the calling thread, so a connection is used by one
/// thread at a time (the pool lends it); it is not `Sendable`.
final class PGConnection {
    private let connection: OpaquePointer
    /// The store's URL: what libpq connects with, and what masks the password in its messages.
    private let url: PostgresURL
    /// The store's URL without its password, for messages.
    var displayURL: String { url.display }
    /// Set once the server or network failed under this connection: the pool drops it.
    private(set) var isBroken = false
    /// Counts every statement run (not the one-time preparations).
    private let counter: StatementCounter?
    /// The names of the statements prepared on this connection, by their text.
    private var prepared: [String: String] = [:]

    /// Connects to `url` (its libpq URI). Throws INVALID_ARGUMENT for a URL, user, password or
    /// database the server refuses, UNAVAILABLE when the server cannot be reached; no message holds
    /// the password.
    init(url: PostgresURL, counter: StatementCounter? = nil) throws {
        self.url = url
        self.counter = counter
        guard let connection = PQconnectdb(url.conninfo) else {
            throw FleetError(.storeUnreachable, detail: "\(url.display): libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = url.masked(Self.trimmed(PQerrorMessage(connection)))
            PQfinish(connection)
            throw PostgresFailure.connecting(message: message, url: url.display)
        }
        // Notices (`relation … already exists, skipping`) are not errors: keep them off stderr.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        self.connection = connection
    }

    deinit { PQfinish(connection) }

    /// The libpq socket, for waiting on notifications.
    var socket: Int32 { PQsocket(connection) }

    /// Runs one statement with `parameters` ($1, $2, …) bound in binary format and binary results.
    /// `doing` says what for, in errors. With `prepared`, the statement is parsed and planned once
    /// per connection and only executed afterwards: for the statements of every update and read,
    /// which are short enough that parsing and planning them is a good part of their cost. Prepare
    /// only statements whose parameters keep their types (and whose text does not vary).
    @discardableResult
    func execute(_ sql: String, _ parameters: [PGValue] = [], prepared isPrepared: Bool = false, doing: String) throws -> PGRows {
        var name: String?
        if isPrepared {
            name = try preparedName(of: sql, parameters: parameters, doing: doing)
        }
        counter?.add()
        let result: OpaquePointer? = Self.withEncoded(parameters) { values, lengths, formats in
            if let name {
                return PQexecPrepared(connection, name, Int32(parameters.count), values, lengths, formats, 1)
            }
            return PQexecParams(connection, sql, Int32(parameters.count), parameters.map(\.type), values, lengths, formats, 1)
        }
        return try checked(result, doing: doing)
    }

    /// Sends every statement at once in libpq's pipeline mode, then one sync, and reads their
    /// answers in order: one round trip for all, where `execute` takes one each. `read` gets the
    /// rows of each statement that succeeded, with its index. The first statement that fails makes
    /// PostgreSQL skip the rest up to the sync, and its error is thrown once every answer was read;
    /// a connection lost on the way throws UNAVAILABLE at once. Statements that need a transaction
    /// to be one must say so themselves (BEGIN … COMMIT): after a failure inside one, the
    /// connection is left in the failed transaction, for the caller to roll back.
    func pipeline(_ statements: [PGStatement], doing: String, read: (Int, borrowing PGRows) throws -> Void) throws {
        // Preparing is a call of its own that pipeline mode refuses: prepare first.
        var names: [String?] = []
        for statement in statements {
            names.append(statement.prepared ? try preparedName(of: statement.sql, parameters: statement.parameters, doing: doing) : nil)
        }
        guard PQenterPipelineMode(connection) == 1 else { throw lostOrRefused(doing: doing) }
        counter?.add(statements: statements.count)
        for (index, statement) in statements.enumerated() {
            let count = Int32(statement.parameters.count)
            let sent = Self.withEncoded(statement.parameters) { values, lengths, formats in
                if let name = names[index] {
                    return PQsendQueryPrepared(connection, name, count, values, lengths, formats, 1)
                }
                return PQsendQueryParams(connection, statement.sql, count, statement.parameters.map(\.type), values, lengths, formats, 1)
            }
            guard sent == 1 else { throw lostOrRefused(doing: doing) }
        }
        guard PQpipelineSync(connection) == 1 else { throw lostOrRefused(doing: doing) }
        var failure: (any Error)?
        for index in statements.indices {
            guard let result = PQgetResult(connection) else { throw lostOrRefused(doing: doing) }
            if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                PQclear(result)
            } else {
                do {
                    let rows = try checked(result, doing: doing)
                    if failure == nil { try read(index, rows) }
                } catch {
                    if isBroken { throw error }
                    if failure == nil { failure = error }
                }
            }
            // Each statement's answer ends with a NULL; anything else means libpq lost its place.
            if let extra = PQgetResult(connection) {
                PQclear(extra)
                throw lostOrRefused(doing: doing)
            }
        }
        guard let sync = PQgetResult(connection) else { throw lostOrRefused(doing: doing) }
        let synced = PQresultStatus(sync) == PGRES_PIPELINE_SYNC
        PQclear(sync)
        guard synced, PQexitPipelineMode(connection) == 1 else { throw lostOrRefused(doing: doing) }
        if let failure { throw failure }
    }

    /// libpq refused to send, or its answers ended early or out of order: the connection broke, or
    /// its state is unknown (whether a COMMIT sent ran, too). UNAVAILABLE, and the pool drops the
    /// connection.
    private func lostOrRefused(doing: String) -> FleetError {
        isBroken = true
        return PostgresFailure.lost(message: url.masked(Self.trimmed(PQerrorMessage(connection))), doing: doing, url: displayURL)
    }

    /// Calls `body` with `parameters` in binary format as libpq takes them: values (nil for NULL),
    /// lengths and formats. The values are encoded one after another into one buffer.
    private static func withEncoded<Value>(_ parameters: [PGValue],
                                           _ body: ([UnsafePointer<CChar>?], [Int32], [Int32]) -> Value) -> Value {
        var buffer: [UInt8] = [0]  // never empty, so every offset has an address
        buffer.reserveCapacity(512)
        var offsets: [Int?] = []
        var lengths: [Int32] = []
        offsets.reserveCapacity(parameters.count)
        lengths.reserveCapacity(parameters.count)
        for parameter in parameters {
            let start = buffer.count
            let present = parameter.append(to: &buffer)
            offsets.append(present ? start : nil)
            lengths.append(Int32(buffer.count - start))
        }
        let formats = [Int32](repeating: 1, count: parameters.count)
        return buffer.withUnsafeBufferPointer { bytes in
            let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
            return body(offsets.map { $0.map { base + $0 } }, lengths, formats)
        }
    }

    /// The name `sql` is prepared under on this connection, preparing it the first time.
    private func preparedName(of sql: String, parameters: [PGValue], doing: String) throws -> String {
        if let name = prepared[sql] { return name }
        let name = "fleet_\(prepared.count + 1)"
        _ = try checked(PQprepare(connection, name, sql, Int32(parameters.count), parameters.map(\.type)), doing: doing)
        prepared[sql] = name
        return name
    }

    /// The rows of a statement's `result`, or its failure as the store's error.
    private func checked(_ result: OpaquePointer?, doing: String) throws -> PGRows {
        guard let result else {
            isBroken = PQstatus(connection) != CONNECTION_OK
            throw PostgresFailure.lost(message: url.masked(Self.trimmed(PQerrorMessage(connection))), doing: doing, url: displayURL)
        }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK {
            return PGRows(result: result)
        }
        let message = url.masked(Self.trimmed(PQresultErrorMessage(result)))
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        PQclear(result)
        if PQstatus(connection) != CONNECTION_OK {
            isBroken = true
            throw PostgresFailure.lost(message: message, doing: doing, url: displayURL)
        }
        // A server that only reads stays so: connect again, to whichever host takes writes now.
        if state == PostgresFailure.readOnly { isBroken = true }
        throw PostgresFailure.statement(state: state, message: message, doing: doing, url: displayURL)
    }

    /// Whether the connection is inside a transaction (also a failed one).
    var isInTransaction: Bool {
        let status = PQtransactionStatus(connection)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Reads what the server sent without waiting; false when the connection failed.
    func consumeInput() -> Bool {
        if PQconsumeInput(connection) == 1 { return true }
        isBroken = true
        return false
    }

    /// The next notification already received, if any: its channel and payload.
    func nextNotification() -> (channel: String, payload: String)? {
        guard let notify = PQnotifies(connection) else { return nil }
        defer { PQfreemem(notify) }
        return (String(cString: notify.pointee.relname), String(cString: notify.pointee.extra))
    }

    /// Marks the connection as unusable (its server went away), so that the pool drops it.
    func markBroken() { isBroken = true }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "no message" }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: "\n").joined(separator: "; ")
    }
}
