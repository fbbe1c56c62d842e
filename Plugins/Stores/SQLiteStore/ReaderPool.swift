import Foundation

/// A few read connections, lent to one thread at a time. In WAL mode readers never wait for the
/// writer, and each sees the last committed state when its statement (or read transaction) starts.
final class ReaderPool: @unchecked Sendable {
    /// The most connections the pool opens; further readers wait for one to come back.
    let capacity: Int
    private let open: () throws -> SQLiteConnection
    private let closedError: () -> any Error

    // Guarded by `condition`'s lock.
    private let condition = NSCondition()
    private var idle: [SQLiteConnection] = []
    private var opened = 0
    private var isClosed = false

    init(capacity: Int, closedError: @escaping () -> any Error, open: @escaping () throws -> SQLiteConnection) {
        self.capacity = max(1, capacity)
        self.open = open
        self.closedError = closedError
    }

    /// Lends a connection to `body` and takes it back afterwards.
    func withConnection<Value>(_ body: (SQLiteConnection) throws -> Value) throws -> Value {
        let connection = try borrow()
        defer { giveBack(connection) }
        return try body(connection)
    }

    private func borrow() throws -> SQLiteConnection {
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

    private func giveBack(_ connection: SQLiteConnection) {
        condition.lock()
        if isClosed {
            opened -= 1
            connection.close()
            condition.broadcast()  // `close()` waits for every connection
        } else {
            idle.append(connection)
            condition.signal()     // one connection back: one waiting borrower
        }
        condition.unlock()
    }

    /// Refuses new borrowers, waits for lent connections to come back and closes them all.
    func close() {
        condition.lock()
        isClosed = true
        for connection in idle {
            connection.close()
        }
        opened -= idle.count
        idle = []
        while opened > 0 {
            condition.wait()
        }
        condition.unlock()
    }
}
