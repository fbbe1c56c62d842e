import FleetConcurrency
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
        /// Given by the writer thread to the submitter waiting for it (tickets without a completion).
        let result: Handoff<Result<Output, any Error>>?
        let completion: Completion?

        init(_ batch: Batch, completion: Completion?) {
            self.batch = batch
            self.completion = completion
            result = completion == nil ? Handoff() : nil
        }

        func finish(_ outcome: Result<Output, any Error>) {
            if let completion {
                completion(outcome)
            } else {
                result?.give(outcome)
            }
        }
    }

    /// How long the writer thread waits for work before it exits.
    let idleSeconds: Double

    private struct Queue {
        var pending: [Ticket] = []
        /// A group (or a lone batch) is in `execute`.
        var executing = false
        var writerRunning = false
        var isClosed = false
        var statistics = GroupCommitStatistics()

        /// The writer thread has a group to take (nothing else runs), or is to stop.
        var writerHasWork: Bool { !executing && (!pending.isEmpty || isClosed) }
    }

    /// The writer thread waits on it for batches, `close()` for the writer to stop.
    private let queue = WaitableState(Queue())
    /// The writer thread carries it.
    private let writerThreads = ThreadMark()
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

    /// What a submitter does after queueing.
    private enum Admission {
        case closed
        /// Nothing ran and nothing was queued: run the batch on this thread.
        case runAlone
        case queued
    }

    /// Queues `batch`, waits until a group holding it has run, and returns its result.
    func submit(_ batch: Batch) throws -> Output {
        let ticket = Ticket(batch, completion: nil)
        // A lone batch concerns no waiter: only a queued one wakes the writer thread.
        let admission = queue.withLock { queue -> Admission in
            guard !queue.isClosed else { return .closed }
            if !queue.executing && queue.pending.isEmpty {
                queue.executing = true
                return .runAlone
            }
            enqueue(ticket, in: &queue)
            return .queued
        }
        switch admission {
        case .closed:
            throw closedError()
        case .runAlone:
            return try run([batch])[0].get()
        case .queued:
            queue.wakeWaiters()
            return try ticket.result!.take().get()
        }
    }

    /// Queues `batch` and returns at once; `completion` runs on the writer thread with its result
    /// (or at once, on this thread, with the closed error after `close()`).
    func submit(_ batch: Batch, completion: @escaping Completion) {
        let queued = queue.update { queue -> Bool in
            guard !queue.isClosed else { return false }
            enqueue(Ticket(batch, completion: completion), in: &queue)
            return true
        }
        if !queued { completion(.failure(closedError())) }
    }

    /// Queues a ticket for the writer thread (which the caller wakes).
    private func enqueue(_ ticket: Ticket, in queue: inout Queue) {
        queue.pending.append(ticket)
        startWriterIfStopped(&queue)
    }

    /// Runs `batches` as one group (the caller has set `executing` and holds no lock), counts it
    /// before anyone hears of its results, and hands what queued meanwhile to the writer thread.
    private func run(_ batches: [Batch]) -> [Result<Output, any Error>] {
        let results = execute(batches)
        precondition(results.count == batches.count, "a group commit returned \(results.count) results for \(batches.count) batches")
        // The writer thread waits for this group to end only when batches queued behind it, and
        // `close()` only once closing: a lone writer's commit wakes nobody.
        let concernsWaiters = queue.withLock { queue -> Bool in
            queue.executing = false
            queue.statistics.transactions += 1
            queue.statistics.batches += batches.count
            queue.statistics.groupSizes[batches.count, default: 0] += 1
            if !queue.pending.isEmpty { startWriterIfStopped(&queue) }
            return !queue.pending.isEmpty || queue.isClosed
        }
        if concernsWaiters { queue.wakeWaiters() }
        return results
    }

    /// Starts the writer thread if it is not running; a running one is woken by the state's update.
    private func startWriterIfStopped(_ queue: inout Queue) {
        guard !queue.writerRunning else { return }
        queue.writerRunning = true
        WorkerThread.start(name: "sqlite-commit") { [self] in writerLoop() }
    }

    /// Throws the closed error once `close()` has begun.
    func checkOpen() throws {
        if queue.withLock({ $0.isClosed }) { throw closedError() }
    }

    /// The writer thread: runs every queued batch as one group, again and again, until the queue has
    /// stayed empty for `idleSeconds` or the committer is closed and drained.
    private func writerLoop() {
        writerThreads.markCurrentThread()
        while true {
            let group = queue.wait(until: \.writerHasWork, deadline: .now + .seconds(idleSeconds)) { queue, hasWork -> [Ticket]? in
                if hasWork && !queue.pending.isEmpty {
                    let group = queue.pending
                    queue.pending = []
                    queue.executing = true
                    return group
                }
                // Timed out while a lone batch runs: it may leave work behind, so look again.
                if !hasWork && queue.executing { return [] }
                // Closed and drained, or idle for `idleSeconds`: the thread ends.
                queue.writerRunning = false
                return nil
            }
            guard let group else { return }
            if group.isEmpty { continue }
            for (ticket, result) in zip(group, run(group.map(\.batch))) {
                ticket.finish(result)
            }
        }
    }

    /// Whether the caller runs on the writer thread (in a completion): `close()` there would wait
    /// for the thread it runs on.
    var isOnWriterThread: Bool { writerThreads.isCurrentThreadMarked }

    /// Counters of the groups run so far.
    var currentStatistics: GroupCommitStatistics {
        queue.withLock { $0.statistics }
    }

    /// Refuses new batches, lets the writer thread run those already queued, then calls `finally`
    /// (where the owner closes the connection `execute` uses). Returns false if already closed.
    @discardableResult
    func close(finally: () -> Void) -> Bool {
        let closing = queue.update { queue -> Bool in
            defer { queue.isClosed = true }
            return !queue.isClosed
        }
        guard closing else { return false }
        queue.wait(until: { !$0.writerRunning && !$0.executing })
        finally()
        return true
    }

    /// For tests: waits until at least `count` batches are queued behind the running group.
    func waitUntilPending(_ count: Int) {
        queue.wait(until: { $0.pending.count >= count })
    }
}
