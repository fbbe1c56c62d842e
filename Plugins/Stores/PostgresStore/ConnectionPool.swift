import FleetConcurrency

/// At most `capacity` connections, each lent to one thread at a time. The lock is held only to take
/// or return a connection, never while a connection waits on the network.
///
/// A connection that broke (its server went away) is dropped when it comes back, and so are the idle
/// ones opened before it, which broke with it: the next borrower connects afresh.
typealias ConnectionPool = BlockingPool<PGConnection>

extension BlockingPool where Resource == PGConnection {
    /// A pool of at most `capacity` connections opened by `open`; a dropped connection closes when released.
    convenience init(capacity: Int, closedError: @escaping () -> any Error, open: @escaping () throws -> PGConnection) {
        self.init(capacity: capacity, closedError: closedError, isBroken: { $0.isBroken }, open: open)
    }

    /// Lends a connection to `body` and takes it back afterwards.
    func withConnection<Value>(_ body: (PGConnection) throws -> Value) throws -> Value {
        try withResource(body)
    }
}
