import FleetErrors
import Foundation
@testable import SQLiteStore
import Synchronization
import Testing

/// The group-commit queue, with a stand-in for the transaction so that grouping is observable.
@Suite("GroupCommitter")
struct GroupCommitterTests {
    /// A group executor that records each group and, when asked, holds the first one until released.
    final class Executor: Sendable {
        let groups = Mutex<[[Int]]>([])
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holdFirst: Bool

        init(holdFirst: Bool) {
            self.holdFirst = holdFirst
        }

        func run(_ group: [Int]) -> [Result<Int, any Error>] {
            let isFirst = groups.withLock { groups in
                groups.append(group)
                return groups.count == 1
            }
            if isFirst && holdFirst {
                entered.signal()
                release.wait()
            }
            return group.map { $0 < 0 ? .failure(FleetError.internal("batch \($0) failed")) : .success($0 * 10) }
        }
    }

    @Test func batchesQueuedBehindTheLeaderRunAsOneGroup() throws {
        let executor = Executor(holdFirst: true)
        let committer = GroupCommitter<Int, Int>(closedError: { FleetError.internal("closed") }) { executor.run($0) }
        let results = Mutex<[Int: Int]>([:])
        let failures = Mutex<[Int]>([])
        try ThreadGroup.run(5) { index in
            if index == 0 {
                let output = try committer.submit(1)
                results.withLock { $0[1] = output }
                return
            }
            if index == 4 {
                // The coordinator: once the leader is inside its group and three batches wait, let it go.
                executor.entered.wait()
                executor.entered.signal()
                committer.waitUntilPending(3)
                executor.release.signal()
                return
            }
            // Wait until the leader holds its group, and pass the news on.
            executor.entered.wait()
            executor.entered.signal()
            let batch = index == 2 ? -2 : index + 1
            do {
                let output = try committer.submit(batch)
                results.withLock { $0[batch] = output }
            } catch {
                failures.withLock { $0.append(batch) }
            }
        }
        let groups = executor.groups.withLock { $0 }
        #expect(groups.count == 2)
        #expect(groups.first == [1])
        #expect(groups.last?.sorted() == [-2, 2, 4])
        #expect(results.withLock { $0 } == [1: 10, 2: 20, 4: 40])
        #expect(failures.withLock { $0 } == [-2])
    }

    @Test func submitsAfterCloseFailAndCloseRunsItsFinalStepOnce() throws {
        let executor = Executor(holdFirst: false)
        let committer = GroupCommitter<Int, Int>(closedError: { FleetError.internal("closed") }) { executor.run($0) }
        #expect(try committer.submit(3) == 30)
        let finals = Mutex(0)
        #expect(committer.close { finals.withLock { $0 += 1 } })
        #expect(!committer.close { finals.withLock { $0 += 1 } })
        #expect(finals.withLock { $0 } == 1)
        #expect(throws: FleetError.self) { try committer.submit(4) }
        #expect(executor.groups.withLock { $0 } == [[3]])
    }

    @Test func manyThreadsEachGetTheirOwnResult() throws {
        let executor = Executor(holdFirst: false)
        let committer = GroupCommitter<Int, Int>(closedError: { FleetError.internal("closed") }) { executor.run($0) }
        let mismatches = Mutex(0)
        try ThreadGroup.run(8) { thread in
            for n in 0..<300 {
                let batch = thread * 1000 + n
                if try committer.submit(batch) != batch * 10 {
                    mismatches.withLock { $0 += 1 }
                }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
        let groups = executor.groups.withLock { $0 }
        #expect(groups.reduce(0) { $0 + $1.count } == 8 * 300)
        #expect(Set(groups.joined()).count == 8 * 300)
    }

    @Test func submissionsWithACompletionAreGroupedAndEachCompletionGetsItsOwnResult() throws {
        let executor = Executor(holdFirst: true)
        let committer = GroupCommitter<Int, Int>(closedError: { FleetError.internal("closed") }) { executor.run($0) }
        let results = Mutex<[Int: Result<Int, FleetError>]>([:])
        let done = DispatchSemaphore(value: 0)
        @Sendable func record(_ batch: Int) -> @Sendable (Result<Int, any Error>) -> Void {
            { outcome in
                results.withLock { $0[batch] = outcome.mapError { $0 as? FleetError ?? FleetError.internal("\($0)") } }
                done.signal()
            }
        }
        committer.submit(1, completion: record(1))  // runs alone and is held inside `execute`
        executor.entered.wait()
        for batch in [2, -3, 4] {
            committer.submit(batch, completion: record(batch))  // returns at once though a group is running
        }
        committer.waitUntilPending(3)
        executor.release.signal()
        for _ in 0..<4 { #expect(done.wait(timeout: .now() + 20) == .success) }
        let groups = executor.groups.withLock { $0 }
        #expect(groups == [[1], [2, -3, 4]])
        let outcomes = results.withLock { $0 }
        #expect(try outcomes[1]?.get() == 10)
        #expect(try outcomes[2]?.get() == 20)
        #expect(try outcomes[4]?.get() == 40)
        #expect(throws: FleetError.self) { try outcomes[-3]?.get() }
    }

    @Test func aCompletionMaySubmitAgainWithoutDeadlockAndCloseFailsLaterSubmissions() throws {
        let executor = Executor(holdFirst: false)
        let committer = GroupCommitter<Int, Int>(closedError: { FleetError.internal("closed") }) { executor.run($0) }
        let finished = DispatchSemaphore(value: 0)
        // Like an engine retrying after a conflict: each completion submits the next batch.
        @Sendable func chain(_ remaining: Int) {
            committer.submit(remaining) { outcome in
                if remaining > 0 { chain(remaining - 1) } else { finished.signal() }
            }
        }
        chain(20)
        #expect(finished.wait(timeout: .now() + 20) == .success)
        #expect(executor.groups.withLock { $0 }.reduce(0) { $0 + $1.count } == 21)
        #expect(committer.close {})
        let refused = DispatchSemaphore(value: 0)
        committer.submit(5) { outcome in
            if case .failure = outcome { refused.signal() }
        }
        #expect(refused.wait(timeout: .now() + 1) == .success)
    }

    /// Waiting and non-waiting writers, groups that take a while, and pauses long enough for the
    /// writer thread to exit and be started again: every batch gets its own result, none is lost.
    @Test func mixedWritersAcrossWriterThreadRestartsAllGetTheirResults() throws {
        let executor = Executor(holdFirst: false)
        let committer = GroupCommitter<Int, Int>(closedError: { FleetError.internal("closed") }, idleSeconds: 0.001) { group in
            if group.count % 3 == 0 { usleep(50) }
            return executor.run(group)
        }
        let mismatches = Mutex(0)
        let answered = DispatchSemaphore(value: 0)
        let threads = 8, perThread = 300
        try ThreadGroup.run(threads) { thread in
            for n in 0..<perThread {
                let batch = thread * 10_000 + n
                if n % 2 == 0 {
                    if try committer.submit(batch) != batch * 10 { mismatches.withLock { $0 += 1 } }
                } else {
                    committer.submit(batch) { outcome in
                        if (try? outcome.get()) != batch * 10 { mismatches.withLock { $0 += 1 } }
                        answered.signal()
                    }
                }
                if n % 50 == 0 { usleep(3_000) }  // long enough for the writer thread to exit
            }
        }
        for _ in 0..<(threads * perThread / 2) { #expect(answered.wait(timeout: .now() + 20) == .success) }
        #expect(mismatches.withLock { $0 } == 0)
        #expect(executor.groups.withLock { $0 }.reduce(0) { $0 + $1.count } == threads * perThread)
        #expect(committer.close {})
    }

    // MARK: Commit and sync as two stages

    /// What happened, in the order it happened: commits (when `execute` returned), syncs (begun and
    /// ended) and completions.
    final class EventLog: Sendable {
        enum Event: Equatable {
            case committed([Int])
            case syncBegan(Int)
            case syncEnded(Int)
            case completed(Int)
            case closed
        }

        let events = Mutex<[Event]>([])
        /// Signalled once per committed group.
        let committedGroup = DispatchSemaphore(value: 0)
        let syncEntered = DispatchSemaphore(value: 0)
        /// The first sync waits for it when `holdFirstSync`.
        let releaseSync = DispatchSemaphore(value: 0)
        let holdFirstSync: Bool
        let failingSync: Int?

        init(holdFirstSync: Bool, failingSync: Int? = nil) {
            self.holdFirstSync = holdFirstSync
            self.failingSync = failingSync
        }

        func record(_ event: Event) { events.withLock { $0.append(event) } }

        func execute(_ group: [Int]) -> [Result<Int, any Error>] {
            record(.committed(group))
            committedGroup.signal()
            return group.map { .success($0 * 10) }
        }

        func sync() throws {
            let number = events.withLock { events -> Int in
                let number = events.filter { if case .syncBegan = $0 { return true } else { return false } }.count + 1
                events.append(.syncBegan(number))
                return number
            }
            if number == 1 && holdFirstSync {
                syncEntered.signal()
                releaseSync.wait()
            }
            if number == failingSync { throw FleetError(.storeFailure, detail: "fdatasync failed (injected)") }
            record(.syncEnded(number))
        }

        /// Checks that every completed batch was committed, then covered by a sync that began after
        /// its commit and ended before its completion; returns the batches that were not.
        func uncovered() -> [Int] {
            let events = events.withLock { $0 }
            var bad: [Int] = []
            for (index, event) in events.enumerated() {
                guard case .completed(let batch) = event else { continue }
                guard let commit = events.firstIndex(where: { if case .committed(let group) = $0 { return group.contains(batch) } else { return false } }),
                      commit < index else {
                    bad.append(batch)
                    continue
                }
                let covered = events[commit..<index].contains { began in
                    guard case .syncBegan(let number) = began else { return false }
                    return events[commit..<index].contains(.syncEnded(number))
                }
                if !covered { bad.append(batch) }
            }
            return bad
        }
    }

    /// The ordering guarantee, checked without timing: with the first sync held, groups committed
    /// meanwhile are not answered by it, only by a sync begun after their commit.
    @Test func noResultIsHandedOutBeforeASyncBegunAfterItsCommit() throws {
        let log = EventLog(holdFirstSync: true)
        let committer = GroupCommitter<Int, Int>(closedError: { FleetError.internal("closed") }, sync: log.sync) { log.execute($0) }
        let answered = DispatchSemaphore(value: 0)
        @Sendable func submit(_ batch: Int) {
            committer.submit(batch) { outcome in
                if (try? outcome.get()) == batch * 10 { log.record(.completed(batch)) }
                answered.signal()
            }
        }
        submit(1)
        #expect(log.syncEntered.wait(timeout: .now() + 20) == .success)
        // The first sync is running: the writer thread goes on committing.
        submit(2)
        submit(3)
        #expect(log.committedGroup.wait(timeout: .now() + 20) == .success)  // [1]
        #expect(log.committedGroup.wait(timeout: .now() + 20) == .success)  // [2, 3] or [2]
        let committed = log.events.withLock { $0 }.reduce(into: [Int]()) { if case .committed(let group) = $1 { $0 += group } }
        if committed.count < 3 { #expect(log.committedGroup.wait(timeout: .now() + 20) == .success) }
        #expect(!log.events.withLock { $0 }.contains { if case .completed = $0 { return true } else { return false } },
                "a batch was answered while the only sync begun was still running")
        log.releaseSync.signal()
        for _ in 0..<3 { #expect(answered.wait(timeout: .now() + 20) == .success) }
        #expect(log.uncovered() == [])
        #expect(log.events.withLock { $0 }.filter { if case .completed = $0 { return true } else { return false } }.count == 3)
        let statistics = committer.currentStatistics
        #expect(statistics.batches == 3)
        #expect(statistics.syncs == 2, "one sync for [1], one for what was committed while it ran")
        #expect(committer.close {})
    }

    /// Many writers, waiting and not, with syncs that take a while: every result is handed out after
    /// a sync that covers it, and syncs are shared.
    @Test func underLoadEveryResultFollowsASyncThatCoversIt() throws {
        let log = EventLog(holdFirstSync: false)
        let committer = GroupCommitter<Int, Int>(closedError: { FleetError.internal("closed") }, idleSeconds: 0.001, sync: {
            usleep(200)
            try log.sync()
        }) { log.execute($0) }
        let answered = DispatchSemaphore(value: 0)
        let threads = 8, perThread = 100
        try ThreadGroup.run(threads) { thread in
            for n in 0..<perThread {
                let batch = thread * 10_000 + n
                if n % 2 == 0 {
                    if try committer.submit(batch) == batch * 10 { log.record(.completed(batch)) }
                } else {
                    committer.submit(batch) { outcome in
                        if (try? outcome.get()) == batch * 10 { log.record(.completed(batch)) }
                        answered.signal()
                    }
                }
            }
        }
        for _ in 0..<(threads * perThread / 2) { #expect(answered.wait(timeout: .now() + 20) == .success) }
        #expect(log.uncovered() == [])
        let completed = log.events.withLock { $0 }.filter { if case .completed = $0 { return true } else { return false } }.count
        #expect(completed == threads * perThread)
        let statistics = committer.currentStatistics
        #expect(statistics.syncs >= 1 && statistics.syncs <= statistics.transactions)
        #expect(committer.close {})
    }

    /// A failed sync fails every commit it covered and refuses every later one with its error, without
    /// running it: a later sync could succeed without the data the failed one lost.
    @Test func aFailedSyncFailsWhatItCoveredAndRefusesLaterWrites() throws {
        let log = EventLog(holdFirstSync: false, failingSync: 1)
        let committer = GroupCommitter<Int, Int>(closedError: { FleetError.internal("closed") }, sync: log.sync) { log.execute($0) }
        let first = #expect(throws: FleetError.self) { try committer.submit(1) }
        #expect(first?.message.contains("fdatasync failed") == true)
        let second = #expect(throws: FleetError.self) { try committer.submit(2) }
        #expect(second?.message.contains("fdatasync failed") == true)
        #expect(throws: FleetError.self) { try committer.checkOpen() }
        let refused = DispatchSemaphore(value: 0)
        committer.submit(3) { outcome in
            if case .failure(let error) = outcome, "\(error)".contains("fdatasync failed") { refused.signal() }
        }
        #expect(refused.wait(timeout: .now() + 20) == .success)
        #expect(log.events.withLock { $0 }.filter { if case .committed = $0 { return true } else { return false } } == [.committed([1])])
        #expect(committer.close {})
    }

    /// `close()` returns only after every committed group was synced and answered.
    @Test func closeWaitsUntilEveryCommittedGroupIsSyncedAndAnswered() throws {
        let log = EventLog(holdFirstSync: true)
        let committer = GroupCommitter<Int, Int>(closedError: { FleetError.internal("closed") }, sync: log.sync) { log.execute($0) }
        let answered = DispatchSemaphore(value: 0)
        for batch in 1...3 {
            committer.submit(batch) { outcome in
                if (try? outcome.get()) == batch * 10 { log.record(.completed(batch)) }
                answered.signal()
            }
        }
        #expect(log.syncEntered.wait(timeout: .now() + 20) == .success)
        let closed = DispatchSemaphore(value: 0)
        Thread {
            committer.close { log.record(.closed) }
            closed.signal()
        }.start()
        log.releaseSync.signal()
        #expect(closed.wait(timeout: .now() + 20) == .success)
        let events = log.events.withLock { $0 }
        #expect(events.last == .closed)
        #expect(events.filter { if case .completed = $0 { return true } else { return false } }.count == 3)
        #expect(log.uncovered() == [])
    }

    /// Without a sync (a store that is not durable) results come straight from the commit and no
    /// sync is counted.
    @Test func withoutASyncNothingIsSynced() throws {
        let committer = GroupCommitter<Int, Int>(closedError: { FleetError.internal("closed") }) { group in group.map { .success($0) } }
        #expect(try committer.submit(7) == 7)
        #expect(committer.currentStatistics == GroupCommitStatistics(transactions: 1, batches: 1, syncs: 0, groupSizes: [1: 1]))
        #expect(committer.close {})
    }
}
