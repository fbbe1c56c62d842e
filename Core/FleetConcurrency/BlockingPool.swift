import Foundation

/// At most `capacity` resources (database connections), each lent to one thread at a time; further
/// borrowers wait for one to come back. The lock is held only to take or return a resource, never
/// while one is opened or used.
///
/// A resource that comes back broken (`isBroken`) is discarded, and so are the idle ones opened
/// before it, which broke with it (their server went away): the next borrower opens afresh.
public final class BlockingPool<Resource>: @unchecked Sendable {
    /// The most resources the pool opens.
    public let capacity: Int
    private let open: () throws -> Resource
    private let discard: (Resource) -> Void
    private let isBroken: (Resource) -> Bool
    private let closedError: () -> any Error

    // Guarded by `condition`'s lock.
    private let condition = NSCondition()
    private var idle: [Resource] = []
    private var opened = 0
    private var isClosed = false

    /// A pool that opens resources with `open`, lets go of them with `discard`, and after `close()`
    /// answers borrowers with `closedError()`.
    public init(capacity: Int, closedError: @escaping () -> any Error, isBroken: @escaping (Resource) -> Bool = { _ in false },
                discard: @escaping (Resource) -> Void = { _ in }, open: @escaping () throws -> Resource) {
        self.capacity = max(1, capacity)
        self.open = open
        self.discard = discard
        self.isBroken = isBroken
        self.closedError = closedError
    }

    /// Lends a resource to `body` and takes it back afterwards.
    public func withResource<Value>(_ body: (Resource) throws -> Value) throws -> Value {
        let resource = try borrow()
        defer { giveBack(resource) }
        return try body(resource)
    }

    private func borrow() throws -> Resource {
        condition.lock()
        while true {
            if isClosed {
                condition.unlock()
                throw closedError()
            }
            if let resource = idle.popLast() {
                condition.unlock()
                return resource
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

    private func giveBack(_ resource: Resource) {
        condition.lock()
        let broken = isBroken(resource)
        if isClosed || broken {
            opened -= 1
            discard(resource)
            if broken {
                opened -= idle.count
                idle.forEach(discard)
                idle = []
            }
            condition.broadcast()  // `close()` waits for every resource
        } else {
            idle.append(resource)
            condition.signal()     // one resource back: one waiting borrower
        }
        condition.unlock()
    }

    /// Refuses new borrowers, waits for lent resources to come back and discards them all.
    public func close() {
        condition.lock()
        isClosed = true
        idle.forEach(discard)
        opened -= idle.count
        idle = []
        while opened > 0 {
            condition.wait()
        }
        condition.unlock()
    }
}
