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
final class CommitWorkers: Sendable {
    typealias Job = @Sendable () -> Void

    /// The most threads running commits at once.
    let limit: Int
    /// How long a thread waits for work before it exits.
    let idleSeconds: Double
    private let name: String

    /// The commit threads carry it.
    private let workerThreads = ThreadMark()
    private let state = WaitableState(State())

    private struct State: Sendable {
        var queue: [Job] = []
        var head = 0
        var running = 0
        var busy = 0
        /// The doorbells of the threads waiting for work: a job rings one of them, not all.
        var idle: [Doorbell] = []
        var isClosed = false

        var queued: Int { queue.count - head }

        mutating func next() -> Job? {
            guard head < queue.count else { return nil }
            let job = queue[head]
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
            return job
        }
    }

    init(limit: Int, idleSeconds: Double = 2, name: String = "postgres-commit") {
        self.limit = max(1, limit)
        self.idleSeconds = idleSeconds
        self.name = name
    }

    /// Queues `job` for a worker thread and returns at once; false (and `job` not run) once `close()`
    /// has begun.
    func submit(_ job: @escaping Job) -> Bool {
        let limit = self.limit
        let (queued, wake, start) = state.withLock { state -> (Bool, Doorbell?, Bool) in
            guard !state.isClosed else { return (false, nil, false) }
            state.queue.append(job)
            if let waiting = state.idle.popLast() { return (true, waiting, false) }
            guard state.running < limit else { return (true, nil, false) }
            state.running += 1
            return (true, nil, true)
        }
        wake?.signal()
        if start {
            let thread = Thread { [self] in work() }
            thread.name = name
            thread.start()
        }
        return queued
    }

    /// Commits queued or running right now, for tests and statistics.
    var inFlight: Int {
        state.withLock { $0.queued + $0.busy }
    }

    /// Whether the caller runs on one of the commit threads (in a commit's completion): `close()`
    /// there would wait for the thread it runs on.
    var isOnWorkerThread: Bool { workerThreads.isCurrentThreadMarked }

    private enum Step {
        case run(Job)
        case wait
        case exit
    }

    private func work() {
        workerThreads.markCurrentThread()
        let doorbell = Doorbell()
        loop: while true {
            let step = state.withLock { state -> Step in
                if let job = state.next() {
                    state.busy += 1
                    return .run(job)
                }
                if state.isClosed { return .exit }
                state.idle.append(doorbell)
                return .wait
            }
            switch step {
            case .run(let job):
                job()
                state.withLock { $0.busy -= 1 }
            case .exit:
                break loop
            case .wait:
                if doorbell.wait(seconds: idleSeconds) { continue }
                // Idle for `idleSeconds`: leave, unless a job took this thread's doorbell meanwhile
                // (then its ring is on the way and the job is in the queue).
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

    /// Refuses new jobs, lets the threads run those already queued, and waits until they have exited.
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
