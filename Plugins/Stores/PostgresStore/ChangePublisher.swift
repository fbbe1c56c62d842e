import FleetConcurrency
import FleetStore
import Foundation

/// Tells the LISTENing stores (other nodes) which records commits changed, for many commits in one
/// statement, on a thread of its own.
///
/// A commit hands its keys over and is acknowledged at once; it does not wait for a NOTIFY of its
/// own. Sent by the commit threads themselves, the NOTIFY was a second round trip after every
/// COMMIT, during which that thread had no commit in flight (PostgreSQL flushes fewer commits
/// together when fewer are waiting), and a second transaction per update. Here one statement carries the keys of every commit that ended while the
/// previous one was sent or within `interval` of it: a busy store sends one per many commits, an
/// idle one within a round trip of the commit, both far inside the 100 ms a watch on another node
/// may take.
///
/// The keys are sent after their commits returned, so a node that hears of a key reads the
/// committed record. A notification lost with a broken connection is found by the watchers' poll.
/// The thread exits after `idleSeconds` without keys; an idle store holds no thread.
final class ChangePublisher: Sendable {
    /// Sends one batch of keys (a statement on a connection of the store's pool).
    typealias Send = @Sendable ([RecordKey]) -> Void

    /// The most keys one statement names (one element each of its array parameter).
    static let keysPerStatement = 500

    let idleSeconds: Double
    /// The least time between the starts of two statements. Without it a statement left as soon as
    /// the previous one returned, and notifications, which need no WAL flush, returned so fast that
    /// a busy store still sent 0.76 of them per update (`fleet-bench postgres short`; 0.07–0.16
    /// with 2 ms). At 2 ms the notifying thread (its statements and its sleeps) still took 8–10% of
    /// the benchmark process's samples with 8 writers; 5 ms sends fewer, and a watcher on another
    /// node waits at most 3 ms longer, far inside the 100 ms it may take.
    let interval: Duration
    private let send: Send
    private let state = WaitableState(State())
    /// Rung when keys arrive while the thread waits.
    private let doorbell = Doorbell()

    private struct State: Sendable {
        var pending: [RecordKey] = []
        var pendingSet: Set<RecordKey> = []
        var isRunning = false
        var isWaiting = false
        var isSending = false
        var isClosed = false
    }

    init(idleSeconds: Double = 2, interval: Duration = .milliseconds(5), send: @escaping Send) {
        self.idleSeconds = idleSeconds
        self.interval = interval
        self.send = send
    }

    /// Queues `keys` for the next statement and returns at once. After `close()` they are dropped
    /// (the watchers' poll finds the change).
    func publish(_ keys: [RecordKey]) {
        guard !keys.isEmpty else { return }
        let (start, ring) = state.withLock { state -> (Bool, Bool) in
            guard !state.isClosed else { return (false, false) }
            for key in keys where state.pendingSet.insert(key).inserted {
                state.pending.append(key)
            }
            if state.isRunning { return (false, state.isWaiting) }
            state.isRunning = true
            return (true, false)
        }
        if ring { doorbell.signal() }
        if start {
            WorkerThread.start(name: "postgres-notify") { [self] in run() }
        }
    }

    /// Keys queued and not yet sent, for tests.
    var pendingCount: Int { state.withLock { $0.pending.count } }

    private func run() {
        var lastSent: ContinuousClock.Instant?
        while true {
            if let lastSent, case let next = lastSent + interval, next > .now {
                Thread.sleep(forTimeInterval: ContinuousClock.now.duration(to: next) / .seconds(1))
            }
            let batch = state.withLock { state -> [RecordKey]? in
                if !state.pending.isEmpty {
                    let batch = Array(state.pending.prefix(Self.keysPerStatement))
                    state.pending.removeFirst(batch.count)
                    for key in batch { state.pendingSet.remove(key) }
                    state.isSending = true
                    return batch
                }
                if state.isClosed {
                    state.isRunning = false
                    return nil
                }
                state.isWaiting = true
                return []
            }
            guard let batch else { break }
            if !batch.isEmpty {
                lastSent = .now
                send(batch)
                state.update { $0.isSending = false }
                continue
            }
            let rung = doorbell.wait(seconds: idleSeconds)
            // Leaving is decided under the same lock `publish` looks at: keys published after it
            // start a new thread.
            let leave = state.withLock { state -> Bool in
                state.isWaiting = false
                guard !rung, state.pending.isEmpty, !state.isClosed else { return false }
                state.isRunning = false
                return true
            }
            if leave { return }
        }
        state.wakeWaiters()
    }

    /// Waits until every key published so far has been sent.
    func flush() {
        state.wait(until: { $0.pending.isEmpty && !$0.isSending })
    }

    /// Sends what is queued, then stops the thread and drops later keys. Calling it again does nothing.
    func close() {
        let running = state.update { state -> Bool in
            state.isClosed = true
            return state.isRunning
        }
        guard running else { return }
        doorbell.signal()
        state.wait(until: { !$0.isRunning })
    }
}
