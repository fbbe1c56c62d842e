import Foundation

/// At most `capacity` connections, each lent to one thread at a time. The lock is held only to take
/// or return a connection, never while a connection waits on the network.
///
/// A connection that broke (its server went away) is dropped when it comes back, and so are the idle
/// ones opened before it, which broke with it: the next borrower connects afresh.
final class ConnectionPool: @unchecked Sendable {
    let capacity: Int
    private let open: () throws -> PGConnection
    private let closedError: () -> any Error

    // Guarded by `condition`'s lock.
    private let condition = NSCondition()
    private var idle: [PGConnection] = []
    private var opened = 0
    private var isClosed = false

    init(capacity: Int, closedError: @escaping () -> any Error, open: @escaping () throws -> PGConnection) {
        self.capacity = max(1, capacity)
        self.open = open
        self.closedError = closedError
    }

    /// Lends a connection to `body` and takes it back afterwards.
    func withConnection<Value>(_ body: (PGConnection) throws -> Value) throws -> Value {
        let connection = try borrow()
        defer { giveBack(connection) }
        return try body(connection)
    }

    private func borrow() throws -> PGConnection {
        condition.lock()
        while true {
            if isClosed {
                condition.unlock()
                throw closedError()
            }
            if let connection = idle.popLast() {
                condition.unlock()
                return connection
            }
            if opened < capacity {
                opened += 1
                condition.unlock()
                do {
                    return try open()
                } catch {
                    condition.lock()
                    opened -= 1
                    condition.signal()
                    condition.unlock()
                    throw error
                }
            }
            condition.wait()
        }
    }

    private func giveBack(_ connection: PGConnection) {
        condition.lock()
        if isClosed || connection.isBroken {
            opened -= 1
            if connection.isBroken {
                // The server went away under it: the idle connections are as dead, though they
                // do not know it yet. Drop them rather than fail one call on each.
                opened -= idle.count
                idle = []
            }
            condition.broadcast()
        } else {
            idle.append(connection)
            condition.signal()
        }
        condition.unlock()
    }

    /// Refuses new borrowers, waits for lent connections to come back and closes them all.
    func close() {
        condition.lock()
        isClosed = true
        opened -= idle.count
        idle = []
        while opened > 0 {
            condition.wait()
        }
        condition.unlock()
    }
}
