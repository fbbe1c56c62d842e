import FleetConcurrency

/// A few read connections, lent to one thread at a time. In WAL mode readers never wait for the
/// writer, and each sees the last committed state when its statement (or read transaction) starts.
/// A connection given back after `close()` is closed.
typealias ReaderPool = BlockingPool<SQLiteConnection>

extension BlockingPool where Resource == SQLiteConnection {
    /// A pool of at most `capacity` read connections opened by `open`.
    convenience init(capacity: Int, closedError: @escaping () -> any Error, open: @escaping () throws -> SQLiteConnection) {
        self.init(capacity: capacity, closedError: closedError, discard: { $0.close() }, open: open)
    }

    /// Lends a connection to `body` and takes it back afterwards.
    func withConnection<Value>(_ body: (SQLiteConnection) throws -> Value) throws -> Value {
        try withResource(body)
    }
}
