import Foundation

/// Group commit: many writer threads, one transaction (and so one fsync) for all of them.
///
/// A writer that finds nothing running and nothing queued runs its batch itself, at once. Otherwise it
/// queues its batch and sleeps on its own ticket: one dedicated thread, the committer's writer, takes
/// every queued batch, runs them through `execute` together and wakes each writer with its own
/// result. While a group runs, new batches queue up for the next one. A writer that cannot wait
/// (a server thread serving many connections) submits with a completion instead, which the writer
/// thread calls.
///
/// Each queued writer is woken exactly once, when its result is ready: with dozens of server threads
/// waiting, waking them all after every group (and letting one of them lead the next) cost more than
/// the transactions themselves. A lone writer pays no thread switch at all. The writer thread exits
/// after `idleSeconds` without work and is started again when needed, so an idle store holds no thread.
///
/// `execute` is only ever called by one thread at a time, which is what makes it safe for it to use a
/// single connection.
final class GroupCommitter<Batch, Output>: @unchecked Sendable {
    /// Runs one group; returns one result per batch, in order.
    typealias Execute = ([Batch]) -> [Result<Output, any Error>]

    typealias Completion = @Sendable (Result<Output, any Error>) -> Void

    private final class Ticket {
        let batch: Batch
        /// Set by the writer thread before it signals `done` (tickets without a completion).
        var result: Result<Output, any Error>?
        let done: DispatchSemaphore?
        let completion: Completion?

        init(_ batch: Batch, completion: Completion?) {
            self.batch = batch
            self.completion = completion
            done = completion == nil ? DispatchSemaphore(value: 0) : nil
        }

        func finish(_ outcome: Result<Output, any Error>) {
            if let completion {
                completion(outcome)
            } else {
                result = outcome
                done?.signal()
            }
        }
    }

    /// How long the writer thread waits for work before it exits.
    let idleSeconds: Double

    // Everything below is guarded by `condition`'s lock.
    private let condition = NSCondition()
    private var pending: [Ticket] = []
    /// A group (or a lone batch) is in `execute`.
    private var executing = false
    private var writerRunning = false
    private var writerWaiting = false
    private var isClosed = false
    private var observers = 0
    private var statistics = GroupCommitStatistics()
    private let execute: Execute
    private let closedError: () -> any Error

    /// - Parameters:
    ///   - execute: runs a group of batches (on the writer thread, or a lone writer's own).
    ///   - closedError: the error for batches submitted after `close()`.
    init(closedError: @escaping () -> any Error, idleSeconds: Double = 2, execute: @escaping Execute) {
        self.idleSeconds = idleSeconds
        self.execute = execute
        self.closedError = closedError
    }

    /// Queues `batch`, waits until a group holding it has run, and returns its result.
    func submit(_ batch: Batch) throws -> Output {
        condition.lock()
        guard !isClosed else {
            condition.unlock()
            throw closedError()
        }
        if !executing && pending.isEmpty {
            executing = true
            condition.unlock()
            return try run([batch])[0].get()
        }
        let ticket = Ticket(batch, completion: nil)
        enqueue(ticket)
        condition.unlock()
        ticket.done?.wait()
        return try ticket.result!.get()
    }

    /// Queues `batch` and returns at once; `completion` runs on the writer thread with its result
    /// (or at once, on this thread, with the closed error after `close()`).
    func submit(_ batch: Batch, completion: @escaping Completion) {
        condition.lock()
        guard !isClosed else {
            condition.unlock()
            completion(.failure(closedError()))
            return
        }
        enqueue(Ticket(batch, completion: completion))
        condition.unlock()
    }

    /// Queues a ticket for the writer thread. Called with the lock held.
    private func enqueue(_ ticket: Ticket) {
        pending.append(ticket)
        if observers > 0 { condition.broadcast() }
        wakeWriter()
    }

    /// Runs `batches` as one group (the caller has set `executing` and holds no lock), counts it
    /// before anyone hears of its results, and hands what queued meanwhile to the writer thread.
    private func run(_ batches: [Batch]) -> [Result<Output, any Error>] {
        let results = execute(batches)
        precondition(results.count == batches.count, "a group commit returned \(results.count) results for \(batches.count) batches")
        condition.lock()
        executing = false
        statistics.transactions += 1
        statistics.batches += batches.count
        if !pending.isEmpty { wakeWriter() }
        if isClosed { condition.broadcast() }
        condition.unlock()
        return results
    }

    /// Wakes the writer thread, starting it if it is not running. Called with the lock held.
    private func wakeWriter() {
        if writerWaiting {
            condition.broadcast()
        } else if !writerRunning {
            writerRunning = true
            let thread = Thread { [self] in writerLoop() }
            thread.name = "sqlite-group-commit"
            thread.start()
        }
    }

    /// Throws the closed error once `close()` has begun.
    func checkOpen() throws {
        condition.lock()
        defer { condition.unlock() }
        if isClosed { throw closedError() }
    }

    /// The writer thread: runs every queued batch as one group, again and again, until the queue has
    /// stayed empty for `idleSeconds` or the committer is closed and drained.
    private func writerLoop() {
        condition.lock()
        while true {
            if pending.isEmpty || executing {
                if isClosed && !executing { break }
                writerWaiting = true
                let woken = condition.wait(until: Date(timeIntervalSinceNow: idleSeconds))
                writerWaiting = false
                if !woken && pending.isEmpty && !executing { break }
                continue
            }
            let group = pending
            pending = []
            executing = true
            condition.unlock()
            for (ticket, result) in zip(group, run(group.map(\.batch))) {
                ticket.finish(result)
            }
            condition.lock()
        }
        writerRunning = false
        condition.broadcast()
        condition.unlock()
    }

    /// Counters of the groups run so far.
    var currentStatistics: GroupCommitStatistics {
        condition.lock()
        defer { condition.unlock() }
        return statistics
    }

    /// Refuses new batches, lets the writer thread run those already queued, then calls `finally`
    /// (where the owner closes the connection `execute` uses). Returns false if already closed.
    @discardableResult
    func close(finally: () -> Void) -> Bool {
        condition.lock()
        guard !isClosed else {
            condition.unlock()
            return false
        }
        isClosed = true
        condition.broadcast()
        while writerRunning || executing {
            condition.wait()
        }
        condition.unlock()
        finally()
        return true
    }

    /// For tests: waits until at least `count` batches are queued behind the running group.
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
