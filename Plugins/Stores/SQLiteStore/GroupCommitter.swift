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
///
/// With a `sync` (a durable store), a group's commit and its fsync are two stages, as in PostgreSQL's
/// WAL flush: `execute` commits without syncing, and a second thread, the syncer, calls `sync` for
/// every group committed before that call began. No result is handed out before a `sync` that began
/// after its group's commit returned; meanwhile the writer thread already runs the next group, so one
/// fsync covers the groups of writers that would otherwise alternate between two transactions (see
/// docs/scaling.md). A lone writer with no sync in flight syncs on its own thread. After a failed
/// `sync` every commit it covered fails with its error, and so does every later one: the OS may have
/// dropped the data it could not write, so no later sync can vouch for it.
final class GroupCommitter<Batch, Output>: @unchecked Sendable {
    /// Runs one group; returns one result per batch, in order.
    typealias Execute = ([Batch]) -> [Result<Output, any Error>]

    /// Makes durable everything committed before it was called (fdatasync of the log); throws if it could not.
    typealias Sync = () throws -> Void

    typealias Completion = @Sendable (Result<Output, any Error>) -> Void

    private final class Ticket {
        let batch: Batch
        /// Set before `done` is signalled (tickets without a completion), and before a committed
        /// ticket is handed to the syncer.
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

    private struct Queue {
        var pending: [Ticket] = []
        /// A group (or a lone batch) is in `execute`.
        var executing = false
        var writerRunning = false
        var isClosed = false
        var statistics = GroupCommitStatistics()

        /// Lone batches run on their submitters' threads that are not yet synced or handed to the
        /// syncer: `close()` waits for them too.
        var loneUnsynced = 0
        /// The first failed sync's error: every batch is refused with it.
        var syncFailure: (any Error)?

        /// The writer thread has a group to take (nothing else runs), or is to stop.
        var writerHasWork: Bool { !executing && (!pending.isEmpty || isClosed) }
    }

    /// The sync stage: committed tickets waiting for a sync that begins after their commit.
    private struct SyncQueue {
        /// Committed, with their results set, not yet covered by a sync.
        var committed: [Ticket] = []
        /// A sync is running (on the syncer, or on a lone writer's own thread).
        var syncing = false
        var syncerRunning = false
        var isClosed = false
        var failure: (any Error)?
        var syncs = 0

        /// The syncer has tickets to cover, or is to stop.
        var syncerHasWork: Bool { !syncing && (!committed.isEmpty || isClosed) }
    }

    /// The writer thread waits on it for batches, `close()` for the writer to stop.
    private let queue = WaitableState(Queue())
    /// The syncer waits on it for committed tickets, `close()` for them to be covered.
    private let syncQueue = WaitableState(SyncQueue())
    /// The writer thread and the syncer carry it (completions run on them).
    private let writerThreads = ThreadMark()
    private let execute: Execute
    private let sync: Sync?
    private let closedError: () -> any Error

    /// - Parameters:
    ///   - execute: runs a group of batches (on the writer thread, or a lone writer's own).
    ///   - sync: makes committed groups durable (nil: results are handed out when `execute` returns,
    ///     and there is no syncer).
    ///   - closedError: the error for batches submitted after `close()`.
    init(closedError: @escaping () -> any Error, idleSeconds: Double = 2, sync: Sync? = nil, execute: @escaping Execute) {
        self.idleSeconds = idleSeconds
        self.execute = execute
        self.sync = sync
        self.closedError = closedError
    }

    /// What a submitter does after queueing.
    private enum Admission {
        case closed
        case refused(any Error)
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
            if let failure = queue.syncFailure { return .refused(failure) }
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
        case .refused(let failure):
            throw failure
        case .runAlone:
            ticket.result = run([batch], lone: true)[0]
            guard sync != nil else { return try ticket.result!.get() }
            return try syncAlone(ticket)
        case .queued:
            queue.wakeWaiters()
            ticket.done?.wait()
            return try ticket.result!.get()
        }
    }

    /// Queues `batch` and returns at once; `completion` runs on the writer thread with its result
    /// (or at once, on this thread, with the closed error after `close()`).
    func submit(_ batch: Batch, completion: @escaping Completion) {
        let refusal = queue.update { queue -> (any Error)? in
            guard !queue.isClosed else { return closedError() }
            if let failure = queue.syncFailure { return failure }
            enqueue(Ticket(batch, completion: completion), in: &queue)
            return nil
        }
        if let refusal { completion(.failure(refusal)) }
    }

    /// Queues a ticket for the writer thread (which the caller wakes).
    private func enqueue(_ ticket: Ticket, in queue: inout Queue) {
        queue.pending.append(ticket)
        startWriterIfStopped(&queue)
    }

    /// Runs `batches` as one group (the caller has set `executing` and holds no lock), counts it
    /// before anyone hears of its results, and hands what queued meanwhile to the writer thread.
    /// A `lone` batch to be synced is counted in `loneUnsynced` until `syncAlone` is done with it.
    private func run(_ batches: [Batch], lone: Bool = false) -> [Result<Output, any Error>] {
        let results = execute(batches)
        precondition(results.count == batches.count, "a group commit returned \(results.count) results for \(batches.count) batches")
        // The writer thread waits for this group to end only when batches queued behind it, and
        // `close()` only once closing: a lone writer's commit wakes nobody.
        let concernsWaiters = queue.withLock { queue -> Bool in
            queue.executing = false
            queue.statistics.transactions += 1
            queue.statistics.batches += batches.count
            queue.statistics.groupSizes[batches.count, default: 0] += 1
            if lone && sync != nil { queue.loneUnsynced += 1 }
            if !queue.pending.isEmpty { startWriterIfStopped(&queue) }
            return !queue.pending.isEmpty || queue.isClosed
        }
        if concernsWaiters { queue.wakeWaiters() }
        return results
    }

    /// What a lone writer does after its commit.
    private enum LoneSync {
        /// No sync runs and none waits: sync on this thread.
        case here
        /// A sync runs (begun before this commit): the syncer covers it with the next one.
        case handedOver
        case refused(any Error)
    }

    /// Makes a lone writer's committed ticket durable: on its own thread when no sync is running
    /// (no thread switch), else by the syncer's next sync. Returns or throws its result.
    private func syncAlone(_ ticket: Ticket) throws -> Output {
        let next = syncQueue.withLock { state -> LoneSync in
            if let failure = state.failure { return .refused(failure) }
            if state.syncing || !state.committed.isEmpty {
                state.committed.append(ticket)
                startSyncerIfStopped(&state)
                return .handedOver
            }
            state.syncing = true
            return .here
        }
        switch next {
        case .handedOver:
            syncQueue.wakeWaiters()
            loneDone()
            ticket.done?.wait()
            return try ticket.result!.get()
        case .refused(let failure):
            loneDone()
            throw failure
        case .here:
            let failure = runSync()
            let concernsWaiters = syncQueue.withLock { state -> Bool in
                state.syncing = false
                return !state.committed.isEmpty || state.isClosed
            }
            if concernsWaiters { syncQueue.wakeWaiters() }
            loneDone()
            if let failure { throw failure }
            return try ticket.result!.get()
        }
    }

    /// A lone batch is synced or in the syncer's hands: `close()` need not wait for it any more.
    private func loneDone() {
        let closing = queue.withLock { queue -> Bool in
            queue.loneUnsynced -= 1
            return queue.isClosed
        }
        if closing { queue.wakeWaiters() }
    }

    /// Calls `sync` (the caller has set `syncing`), counts it, and on failure records the error so
    /// that every later batch is refused with it. Returns the error.
    private func runSync() -> (any Error)? {
        var failure: (any Error)?
        do {
            try sync?()
        } catch {
            failure = error
        }
        syncQueue.withLock { state in
            state.syncs += 1
            if let failure, state.failure == nil { state.failure = failure }
        }
        if let failure {
            queue.withLock { queue in
                if queue.syncFailure == nil { queue.syncFailure = failure }
            }
        }
        return failure
    }

    /// Hands a group's tickets, their results set, to the syncer: their commit has returned.
    private func handOver(_ tickets: [Ticket]) {
        syncQueue.update { state in
            state.committed.append(contentsOf: tickets)
            startSyncerIfStopped(&state)
        }
    }

    /// Starts the syncer if it is not running.
    private func startSyncerIfStopped(_ state: inout SyncQueue) {
        guard !state.syncerRunning else { return }
        state.syncerRunning = true
        let thread = Thread { [self] in syncLoop() }
        thread.name = "sqlite-wal-sync"
        thread.start()
    }

    /// What the syncer does next.
    private enum SyncWork {
        case stop
        case again
        /// Cover these tickets with one sync.
        case sync([Ticket])
        /// A sync failed before: fail them with its error.
        case refuse([Ticket], any Error)
    }

    /// The syncer: takes every committed ticket, syncs once, hands out their results (or the sync's
    /// error), again and again, until nothing was committed for `idleSeconds` or the committer is
    /// closed and drained.
    private func syncLoop() {
        writerThreads.markCurrentThread()
        while true {
            let work = syncQueue.wait(until: \.syncerHasWork, deadline: .now + .seconds(idleSeconds)) { state, hasWork -> SyncWork in
                if state.committed.isEmpty {
                    // Nothing committed, for `idleSeconds` or since closing: the thread ends (a new
                    // commit starts another).
                    state.syncerRunning = false
                    return .stop
                }
                // Timed out while a lone writer's sync runs, with tickets waiting behind it.
                guard hasWork else { return .again }
                let tickets = state.committed
                state.committed = []
                if let failure = state.failure { return .refuse(tickets, failure) }
                state.syncing = true
                return .sync(tickets)
            }
            switch work {
            case .stop:
                return
            case .again:
                continue
            case .refuse(let tickets, let failure):
                for ticket in tickets { ticket.finish(.failure(failure)) }
            case .sync(let tickets):
                let failure = runSync()
                syncQueue.withLock { $0.syncing = false }
                for ticket in tickets {
                    ticket.finish(failure.map { .failure($0) } ?? ticket.result!)
                }
            }
        }
    }

    /// Starts the writer thread if it is not running; a running one is woken by the state's update.
    private func startWriterIfStopped(_ queue: inout Queue) {
        guard !queue.writerRunning else { return }
        queue.writerRunning = true
        let thread = Thread { [self] in writerLoop() }
        thread.name = "sqlite-group-commit"
        thread.start()
    }

    /// Throws the closed error once `close()` has begun, and a failed sync's error once one failed.
    func checkOpen() throws {
        let failure = queue.withLock { queue -> (any Error)? in
            queue.isClosed ? closedError() : queue.syncFailure
        }
        if let failure { throw failure }
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
            if let failure = queue.withLock({ $0.syncFailure }) {
                // Queued before a sync failed: the store writes nothing more.
                for ticket in group { ticket.finish(.failure(failure)) }
                continue
            }
            let results = run(group.map(\.batch))
            guard sync != nil else {
                for (ticket, result) in zip(group, results) { ticket.finish(result) }
                continue
            }
            for (ticket, result) in zip(group, results) { ticket.result = result }
            handOver(group)
        }
    }

    /// Whether the caller runs on the writer thread or the syncer (in a completion): `close()` there
    /// would wait for the thread it runs on.
    var isOnWriterThread: Bool { writerThreads.isCurrentThreadMarked }

    /// Counters of the groups run so far.
    var currentStatistics: GroupCommitStatistics {
        var statistics = queue.withLock { $0.statistics }
        statistics.syncs = syncQueue.withLock { $0.syncs }
        return statistics
    }

    /// Refuses new batches, lets the writer thread run those already queued and the syncer make
    /// every committed group durable and hand out its results, then calls `finally` (where the owner
    /// closes the connection `execute` uses and what `sync` syncs). Returns false if already closed.
    @discardableResult
    func close(finally: () -> Void) -> Bool {
        let closing = queue.update { queue -> Bool in
            defer { queue.isClosed = true }
            return !queue.isClosed
        }
        guard closing else { return false }
        queue.wait(until: { !$0.writerRunning && !$0.executing && $0.loneUnsynced == 0 })
        // Nothing commits any more: what was committed is with the syncer, or synced.
        syncQueue.update { $0.isClosed = true }
        syncQueue.wait(until: { !$0.syncerRunning && !$0.syncing && $0.committed.isEmpty })
        finally()
        return true
    }

    /// For tests: waits until at least `count` batches are queued behind the running group.
    func waitUntilPending(_ count: Int) {
        queue.wait(until: { $0.pending.count >= count })
    }
}
