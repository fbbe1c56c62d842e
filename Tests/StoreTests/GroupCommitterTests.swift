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

    /// Group sizes are counted per group: a lone batch as a group of one, a queued group by its size.
    @Test func groupSizesAreCounted() throws {
        let executor = Executor(holdFirst: true)
        let committer = GroupCommitter<Int, Int>(closedError: { FleetError.internal("closed") }) { executor.run($0) }
        let done = DispatchSemaphore(value: 0)
        committer.submit(1) { _ in done.signal() }
        executor.entered.wait()
        for batch in 2...4 { committer.submit(batch) { _ in done.signal() } }
        committer.waitUntilPending(3)
        executor.release.signal()
        for _ in 0..<4 { #expect(done.wait(timeout: .now() + 20) == .success) }
        #expect(try committer.submit(5) == 50)
        let statistics = committer.currentStatistics
        #expect(statistics == GroupCommitStatistics(transactions: 3, batches: 5, groupSizes: [1: 2, 3: 1]))
        #expect(statistics.since(GroupCommitStatistics(transactions: 1, batches: 1, groupSizes: [1: 1]))
                == GroupCommitStatistics(transactions: 2, batches: 4, groupSizes: [1: 1, 3: 1]))
        #expect(committer.close {})
    }
}
