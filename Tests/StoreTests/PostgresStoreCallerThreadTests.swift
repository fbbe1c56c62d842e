import FleetConcurrency
import FleetStore
import FleetTestSupport
import Foundation
import PostgresStore
import Synchronization
import Testing

/// A commit without waiting from a caller that waits for it anyway (`WaitingCaller`, as the engine's
/// blocking calls are) runs on that caller's thread, saving the two thread switches of the hand-off
/// to a commit thread; any other caller's still runs on a commit thread.
@Suite(.enabled(if: PostgresCluster.isInstalled, Comment(rawValue: PostgresCluster.missingMessage)))
struct PostgresStoreCallerThreadTests {
    let cluster: PostgresCluster

    init() throws {
        cluster = try #require(try PostgresCluster.shared)
    }

    @Test func aWaitingCallersCommitCompletesOnItsThreadBeforeReturningAndOthersOnACommitThread() throws {
        let store = try PostgresStore(url: try cluster.database(named: "caller_thread"))
        defer { try? store.close() }
        try Sample.create(Sample.vehicle("v1"), in: store)
        let caller = pthread_self()
        let completed = Mutex<(thread: pthread_t, versions: [UInt64])?>(nil)
        WaitingCaller.run {
            store.commit([.put(Sample.vehicle("v1", payload: "inline"), expectedVersion: 1)]) { outcome in
                completed.withLock { $0 = (pthread_self(), (try? outcome.get()) ?? []) }
            }
        }
        let inline = try #require(completed.withLock { $0 }, "the completion ran before commit(_:completion:) returned")
        #expect(pthread_equal(inline.thread, caller) != 0)
        #expect(inline.versions == [2])

        let done = DispatchSemaphore(value: 0)
        let queued = Mutex<(thread: pthread_t, versions: [UInt64])?>(nil)
        store.commit([.put(Sample.vehicle("v1", payload: "queued"), expectedVersion: 2)]) { outcome in
            queued.withLock { $0 = (pthread_self(), (try? outcome.get()) ?? []) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        let other = try #require(queued.withLock { $0 })
        #expect(pthread_equal(other.thread, caller) == 0)
        #expect(other.versions == [3])
        #expect(Sample.text(try store.get(RecordKey(.vehicle, provider: "p", id: "v1"))) == "queued")
    }

    /// The benchmark's count of commits in flight includes those on callers' threads: one waits on
    /// the locked table, counted, and is no longer once the lock goes.
    @Test func commitsOnCallersThreadsCountAsInFlight() throws {
        let url = try cluster.database(named: "caller_in_flight")
        let store = try PostgresStore(url: url)
        defer { try? store.close() }
        try Sample.create(Sample.vehicle("v1"), in: store)
        let lock = try PostgresTableLock(cluster: cluster, database: String(url.split(separator: "/").last!), table: "records")
        defer { lock.release() }
        let finished = DispatchSemaphore(value: 0)
        let outcome = Mutex<[UInt64]?>(nil)
        Thread.detachNewThread {
            WaitingCaller.run {
                store.commit([.put(Sample.vehicle("v1", payload: "moved"), expectedVersion: 1)]) { result in
                    outcome.withLock { $0 = try? result.get() }
                }
            }
            finished.signal()
        }
        let deadline = Date().addingTimeInterval(10)
        while store.commitsInFlight == 0 && Date() < deadline { usleep(10_000) }
        #expect(store.commitsInFlight == 1)
        #expect(finished.wait(timeout: .now() + 0.2) == .timedOut, "the commit waits for the lock on its caller's thread")
        lock.release()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(outcome.withLock { $0 } == [2])
        #expect(store.commitsInFlight == 0)
    }
}
