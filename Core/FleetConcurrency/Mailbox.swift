import Foundation

/// Hands items from producers to one blocking consumer, in order. Bounded: a consumer that falls
/// more than `capacity` items behind skips to the newest (for feeds whose items each hold a whole
/// state, nothing but intermediate states is lost). Closing wakes the consumer for good.
public final class Mailbox<Item: Sendable>: @unchecked Sendable {
    // Guarded by `condition`'s lock.
    private let condition = NSCondition()
    private var items: [Item] = []
    private var isClosed = false
    private let capacity: Int

    /// An open, empty mailbox holding at most `capacity` items.
    public init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// Queues an item, dropping the oldest beyond `capacity`; false once closed.
    @discardableResult
    public func put(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { return false }
        if items.count >= capacity { items.removeFirst(items.count - capacity + 1) }
        items.append(item)
        condition.signal()
        return true
    }

    /// Closes the mailbox: `put` refuses, and `take` returns nil.
    public func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next item, waiting for one; nil once closed.
    public func take() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while !isClosed {
            if !items.isEmpty { return items.removeFirst() }
            condition.wait()
        }
        return nil
    }
}
