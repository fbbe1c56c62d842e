import FleetConcurrency
import Foundation

/// Runs the commits of callers that cannot wait (a server thread serving many connections) on a few
/// threads of the store's own, so that the caller returns at once and only these threads wait for
/// PostgreSQL's answer.
///
/// At most `limit` threads run at a time, each using one connection of the store's pool while it
/// commits, so commits in flight never take more than `limit` connections and reads keep the rest.
/// PostgreSQL flushes the WAL of concurrent commits together, so a few commits in flight share
/// one flush, much as the SQLite store's group commit shares one fsync. A thread that finds several
/// `batchable` items at the head of the queue takes them together, up to `batchLimit`, and hands
/// them to `run` at once, which commits them in one transaction: a server queues many more commits
/// than there are threads (64 connections, 8 threads), and each transaction costs PostgreSQL a
/// round trip, a COMMIT and a WAL flush of its own. Any other item is taken alone, so it neither
/// waits for a batch nor holds one up. A thread exits after `idleSeconds` without work; an idle
/// store holds no thread.
final class CommitWorkers<Item: Sendable>: Sendable {
    /// Commits the items a thread took together.
    typealias Run = @Sendable ([Item]) -> Void

    /// The most threads running commits at once.
    let limit: Int
    /// The most items a thread takes at once.
    let batchLimit: Int
    private let batchable: @Sendable (Item) -> Bool
    private let run: Run
    /// How long a thread waits for work before it exits.
    let idleSeconds: Double
    private let name: String

    /// The commit threads carry it.
    private let workerThreads = ThreadMark()
    private let state = WaitableState(State())

    private struct State: Sendable {
        var queue: [Item] = []
        var head = 0
        var running = 0
        var busy = 0
        /// The doorbells of the threads waiting for work: an item rings one of them, not all.
        var idle: [Doorbell] = []
        var isClosed = false

        var queued: Int { queue.count - head }

        /// The item at the head of the queue, with those after it while they and it are
        /// `batchable`, up to `limit` in all; empty when none is queued.
        mutating func next(_ limit: Int, batchable: (Item) -> Bool) -> [Item] {
            guard head < queue.count else { return [] }
            var end = head + 1
            if batchable(queue[head]) {
                while end < queue.count && end - head < limit && batchable(queue[end]) { end += 1 }
            }
            let taken = Array(queue[head..<end])
            head = end
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
            return taken
        }
    }

    init(limit: Int, batchLimit: Int = 1, idleSeconds: Double = 2, name: String = "postgres-commit",
         batchable: @escaping @Sendable (Item) -> Bool = { _ in true }, run: @escaping Run) {
        self.limit = max(1, limit)
        self.batchLimit = max(1, batchLimit)
        self.batchable = batchable
        self.run = run
        self.idleSeconds = idleSeconds
        self.name = name
    }

    /// Queues `item` for a worker thread and returns at once; false (and `item` not run) once `close()`
    /// has begun.
    func submit(_ item: Item) -> Bool {
        let limit = self.limit
        let (queued, wake, start) = state.withLock { state -> (Bool, Doorbell?, Bool) in
            guard !state.isClosed else { return (false, nil, false) }
            state.queue.append(item)
            if let waiting = state.idle.popLast() { return (true, waiting, false) }
            guard state.running < limit else { return (true, nil, false) }
            state.running += 1
            return (true, nil, true)
        }
        wake?.signal()
        if start {
            WorkerThread.start(name: name) { [self] in work() }
        }
        return queued
    }

    /// Items queued or running right now (each item of a batch counts), for tests and statistics.
    var inFlight: Int {
        state.withLock { $0.queued + $0.busy }
    }

    /// Whether the caller runs on one of the commit threads (in a commit's completion): `close()`
    /// there would wait for the thread it runs on.
    var isOnWorkerThread: Bool { workerThreads.isCurrentThreadMarked }

    private enum Step {
        case run([Item])
        case wait
        case exit
    }

    private func work() {
        workerThreads.markCurrentThread()
        let doorbell = Doorbell()
        loop: while true {
            let step = state.withLock { state -> Step in
                let items = state.next(batchLimit, batchable: batchable)
                if !items.isEmpty {
                    state.busy += items.count
                    return .run(items)
                }
                if state.isClosed { return .exit }
                state.idle.append(doorbell)
                return .wait
            }
            switch step {
            case .run(let items):
                run(items)
                state.withLock { $0.busy -= items.count }
            case .exit:
                break loop
            case .wait:
                if doorbell.wait(seconds: idleSeconds) { continue }
                // Idle for `idleSeconds`: leave, unless an item took this thread's doorbell meanwhile
                // (then its ring is on the way and the item is in the queue).
                let leave = state.withLock { state -> Bool in
                    guard let index = state.idle.firstIndex(where: { $0 === doorbell }) else { return false }
                    state.idle.remove(at: index)
                    return true
                }
                if leave { break loop }
            }
        }
        state.update { $0.running -= 1 }
    }

    /// Refuses new items, lets the threads run those already queued, and waits until they have exited.
    func close() {
        let waiting = state.update { state -> [Doorbell] in
            state.isClosed = true
            defer { state.idle = [] }
            return state.idle
        }
        for doorbell in waiting { doorbell.signal() }
        state.wait(until: { $0.running == 0 })
    }
}
