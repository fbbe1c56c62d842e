import Foundation

/// Group commit: many writer threads, one transaction (and so one fsync) for all of them.
///
/// A writer queues its batch and waits. Whenever no leader is running, one waiting writer becomes the
/// leader: it takes every queued batch, runs them through `execute` together, hands each writer its
/// own result and steps down. While a leader is at work, new batches queue up for the next group.
///
/// `execute` is only ever called by one thread at a time, which is what makes it safe for it to use a
/// single connection.
final class GroupCommitter<Batch, Output>: @unchecked Sendable {
    /// Runs one group; returns one result per batch, in order.
    typealias Execute = ([Batch]) -> [Result<Output, any Error>]

    private final class Ticket {
        let batch: Batch
        var result: Result<Output, any Error>?

        init(_ batch: Batch) {
            self.batch = batch
        }
    }

    // Everything below is guarded by `condition`'s lock.
    private let condition = NSCondition()
    private var pending: [Ticket] = []
    private var leaderActive = false
    private var isClosed = false
    private var observers = 0
    private var statistics = GroupCommitStatistics()
    private let execute: Execute
    private let closedError: () -> any Error

    /// - Parameters:
    ///   - execute: runs a group of batches (on the calling leader's thread).
    ///   - closedError: the error for batches submitted after `close()`.
    init(closedError: @escaping () -> any Error, execute: @escaping Execute) {
        self.execute = execute
        self.closedError = closedError
    }

    /// Queues `batch`, waits until a group holding it has run, and returns its result.
    func submit(_ batch: Batch) throws -> Output {
        let ticket = Ticket(batch)
        condition.lock()
        guard !isClosed else {
            condition.unlock()
            throw closedError()
        }
        pending.append(ticket)
        if observers > 0 { condition.broadcast() }
        while ticket.result == nil {
            if leaderActive {
                condition.wait()
            } else if isClosed {
                failPending()
            } else {
                lead()
            }
        }
        let result = ticket.result!
        condition.unlock()
        return try result.get()
    }

    /// Throws the closed error once `close()` has begun.
    func checkOpen() throws {
        condition.lock()
        defer { condition.unlock() }
        if isClosed { throw closedError() }
    }

    /// Runs every pending batch as one group. Called and returns with the lock held.
    private func lead() {
        leaderActive = true
        let group = pending
        pending = []
        condition.unlock()
        let results = execute(group.map(\.batch))
        precondition(results.count == group.count, "a group commit returned \(results.count) results for \(group.count) batches")
        condition.lock()
        for (ticket, result) in zip(group, results) {
            ticket.result = result
        }
        statistics.transactions += 1
        statistics.batches += group.count
        leaderActive = false
        condition.broadcast()
    }

    /// Counters of the groups run so far.
    var currentStatistics: GroupCommitStatistics {
        condition.lock()
        defer { condition.unlock() }
        return statistics
    }

    /// Fails every queued batch with the closed error. Called with the lock held.
    private func failPending() {
        for ticket in pending {
            ticket.result = .failure(closedError())
        }
        pending = []
        condition.broadcast()
    }

    /// Refuses new batches, waits for the running group, fails the queued ones, then calls `finally`
    /// (where the owner closes the connection `execute` uses). Returns false if already closed.
    @discardableResult
    func close(finally: () -> Void) -> Bool {
        condition.lock()
        guard !isClosed else {
            condition.unlock()
            return false
        }
        isClosed = true
        while leaderActive {
            condition.wait()
        }
        failPending()
        condition.unlock()
        finally()
        return true
    }

    /// For tests: waits until at least `count` batches are queued behind the running leader.
    func waitUntilPending(_ count: Int) {
        condition.lock()
        observers += 1
        while pending.count < count {
            condition.wait()
        }
        observers -= 1
        condition.unlock()
    }
}
