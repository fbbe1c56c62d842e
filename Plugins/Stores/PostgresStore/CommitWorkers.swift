import FleetConcurrency
import Foundation

/// Runs the commits of callers that cannot wait (a server thread serving many connections) on a few
/// threads of the store's own, so that the caller returns at once and only these threads wait for
/// PostgreSQL's answer.
///
/// At most `limit` threads run at a time, each using one connection of the store's pool while it
/// commits, so commits in flight never take more than `limit` connections and reads keep the rest.
/// PostgreSQL flushes the WAL of concurrent commits together, so a few commits in flight share
/// one flush, much as the SQLite store's group commit shares one fsync. A thread exits after
/// `idleSeconds` without work; an idle store holds no thread.
final class CommitWorkers: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    /// The most threads running commits at once.
    let limit: Int
    /// How long a thread waits for work before it exits.
    let idleSeconds: Double
    private let name: String

    // Guarded by `condition`'s lock.
    private let condition = NSCondition()
    /// The commit threads carry it.
    private let workerThreads = ThreadMark()
    private var queue: [Job] = []
    private var head = 0
    private var running = 0
    private var waiting = 0
    private var busy = 0
    private var isClosed = false

    init(limit: Int, idleSeconds: Double = 2, name: String = "postgres-commit") {
        self.limit = max(1, limit)
        self.idleSeconds = idleSeconds
        self.name = name
    }

    /// Queues `job` for a worker thread and returns at once; false (and `job` not run) once `close()`
    /// has begun.
    func submit(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { return false }
        queue.append(job)
        if waiting > 0 { condition.signal() }
        if queue.count - head > waiting && running < limit {
            running += 1
            let thread = Thread { [self] in work() }
            thread.name = name
            thread.start()
        }
        return true
    }

    /// Commits queued or running right now, for tests and statistics.
    var inFlight: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count - head + busy
    }

    /// Whether the caller runs on one of the commit threads (in a commit's completion): `close()`
    /// there would wait for the thread it runs on.
    var isOnWorkerThread: Bool { workerThreads.isCurrentThreadMarked }

    private func work() {
        workerThreads.markCurrentThread()
        condition.lock()
        while true {
            if head < queue.count {
                let job = queue[head]
                head += 1
                if head == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    head = 0
                }
                busy += 1
                condition.unlock()
                job()
                condition.lock()
                busy -= 1
                continue
            }
            if isClosed { break }
            waiting += 1
            let woken = condition.wait(until: Date(timeIntervalSinceNow: idleSeconds))
            waiting -= 1
            if !woken && head == queue.count { break }
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Refuses new jobs, lets the threads run those already queued, and waits until they have exited.
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        while running > 0 {
            condition.wait()
        }
        condition.unlock()
    }
}
