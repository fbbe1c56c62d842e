import FleetErrors
import FleetStore
import FleetTestSupport
import Foundation
import PostgresStore
import Synchronization
import Testing

/// Commits without waiting (the server's) that queue behind the store's commit threads are
/// committed together: one transaction and one round trip for those of one write each, while every
/// commit keeps the outcome it would have had alone. On the test process's own PostgreSQL cluster.
///
/// To queue commits behind a busy thread, a store of pool 2 (one commit thread) starts with a
/// commit that waits on a table another session locked; what is submitted meanwhile queues.
@Suite(.enabled(if: PostgresCluster.isInstalled, Comment(rawValue: PostgresCluster.missingMessage)))
struct PostgresStoreBatchTests {
    let cluster: PostgresCluster

    init() throws {
        cluster = try #require(try PostgresCluster.shared)
    }

    /// Outcomes of completion-form commits, by the order they were submitted.
    final class Outcomes: Sendable {
        private let state = Mutex<[Int: Result<[UInt64], any Error>]>([:])
        private let done = DispatchSemaphore(value: 0)

        func submit(_ writes: [StoreWrite], as index: Int, to store: PostgresStore) {
            store.commit(writes) { [self] outcome in
                state.withLock { $0[index] = outcome }
                done.signal()
            }
        }

        /// Waits for `count` completions; false when they did not all come within 30 s.
        func wait(_ count: Int) -> Bool {
            for _ in 0..<count where done.wait(timeout: .now() + 30) == .timedOut { return false }
            return true
        }

        func versions(_ index: Int) -> [UInt64]? { state.withLock { try? $0[index]?.get() } }

        func error(_ index: Int) -> (any Error)? {
            state.withLock { state in
                guard case .failure(let error) = state[index] else { return nil }
                return error
            }
        }
    }

    /// Waits until a session of `database` other than `excluded` waits for a lock; its process ID.
    @discardableResult
    func waitForLockWaiter(database: String, excluding excluded: Int? = nil) throws -> Int? {
        let query = "SELECT pid FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'"
            + (excluded.map { " AND pid <> \($0)" } ?? "")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let pid = Int(try cluster.psql(query).split(separator: "\n").first ?? "") { return pid }
            Thread.sleep(forTimeInterval: 0.02)
        }
        Issue.record("no session of \(database) waited for a lock")
        return nil
    }

    @Test func queuedCommitsOfOneWriteShareOneRoundTripEachWithItsOwnVersion() throws {
        let url = try cluster.database(named: "batch_round_trips")
        let database = String(url.split(separator: "/").last!)
        let store = try PostgresStore(url: url, options: StoreOptions(settings: ["pool": "2"]))
        defer { try? store.close() }
        for n in 0...20 { try Sample.create(Sample.vehicle("v\(n)"), in: store) }
        let lock = try PostgresTableLock(cluster: cluster, database: database, table: "records")
        defer { lock.release() }
        let outcomes = Outcomes()
        outcomes.submit([.put(Sample.vehicle("v0", payload: "first"), expectedVersion: 1)], as: 0, to: store)
        try waitForLockWaiter(database: database)
        for n in 1...20 {
            outcomes.submit([.put(Sample.vehicle("v\(n)", payload: "batched \(n)"), expectedVersion: 1)], as: n, to: store)
        }
        #expect(store.commitsInFlight == 21)
        store.waitForNotifications()
        let (trips, statements) = (store.roundTrips, store.statementsRun)
        lock.release()
        #expect(outcomes.wait(21))
        store.waitForNotifications()
        // The 20 queued commits: BEGIN, 20 UPDATEs and COMMIT in one round trip; besides, the
        // notifications of the changed keys (one statement per 5 ms at most).
        let notifications = store.roundTrips - trips - 1
        #expect((1...3).contains(notifications), "round trips: \(store.roundTrips - trips)")
        #expect(store.statementsRun - statements == 22 + notifications)
        for n in 0...20 { #expect(outcomes.versions(n) == [2], "commit \(n)") }
        for n in 0...20 {
            #expect(Sample.text(try store.get(RecordKey(.vehicle, provider: "p", id: "v\(n)"))) == (n == 0 ? "first" : "batched \(n)"))
        }
        #expect(store.commitsInFlight == 0)
    }

    /// Many commits from many threads at once, as a server's: fewer transactions than commits.
    @Test func concurrentCommitsFromManyThreadsTakeFewerRoundTripsThanCommits() throws {
        let store = try PostgresStore(url: try cluster.database(named: "batch_threads"))
        defer { try? store.close() }
        store.waitForNotifications()
        let before = store.roundTrips
        let outcomes = Outcomes()
        try ThreadGroup.run(8) { thread in
            for i in 0..<25 { outcomes.submit([.put(Sample.vehicle("t\(thread)v\(i)"), expectedVersion: 0)], as: thread * 25 + i, to: store) }
        }
        #expect(outcomes.wait(200))
        store.waitForNotifications()
        for index in 0..<200 { #expect(outcomes.versions(index) == [1], "commit \(index)") }
        let trips = store.roundTrips - before
        #expect(trips < 100, "200 creates took \(trips) round trips")
        #expect(try store.list(.vehicle, provider: "p", afterID: nil, limit: 500).count == 200)
    }

    /// In one batch a stale version, a record that is gone, a create of a record that exists and
    /// a second update of a record the batch updated each get the conflict they would get alone,
    /// while the others commit; a commit of several writes queued among them stays all or nothing.
    @Test func conflictsInABatchFailOnlyTheirOwnCommitAndAreReportedExactly() throws {
        let url = try cluster.database(named: "batch_conflicts")
        let database = String(url.split(separator: "/").last!)
        let store = try PostgresStore(url: url, options: StoreOptions(settings: ["pool": "2"]))
        defer { try? store.close() }
        for n in 0...9 { try Sample.create(Sample.vehicle("v\(n)"), in: store) }
        let lock = try PostgresTableLock(cluster: cluster, database: database, table: "records")
        defer { lock.release() }
        let outcomes = Outcomes()
        outcomes.submit([.put(Sample.vehicle("v0", payload: "first"), expectedVersion: 1)], as: 0, to: store)
        try waitForLockWaiter(database: database)
        let ghost = RecordKey(.vehicle, provider: "p", id: "ghost")
        let queued: [[StoreWrite]] = [
            [.put(Sample.vehicle("v2", payload: "changed"), expectedVersion: 1)],               // 1: commits
            [.put(Sample.vehicle("v3", payload: "stale"), expectedVersion: 5)],                 // 2: conflict, at 1
            [.put(Sample.vehicle("ghost", payload: "gone"), expectedVersion: 1)],               // 3: not found
            [.put(Sample.vehicle("v4", payload: "again"), expectedVersion: 0)],                 // 4: exists already
            [.delete(RecordKey(.vehicle, provider: "p", id: "v5"), expectedVersion: 1)],         // 5: deleted
            [.put(Sample.vehicle("v2", payload: "twice"), expectedVersion: 1)],                 // 6: conflict with 1, at 2
            [.put(Sample.vehicle("new", payload: "created"), expectedVersion: 0)],              // 7: created
            [.put(Sample.vehicle("v6", payload: "pair"), expectedVersion: 1),
             .put(Sample.vehicle("v7", payload: "pair"), expectedVersion: 3)],                  // 8: conflict on v7: neither
            [.put(Sample.vehicle("v8", payload: "pair"), expectedVersion: 1),
             .put(Sample.vehicle("v9", payload: "pair"), expectedVersion: 1)],                  // 9: both
        ]
        for (offset, writes) in queued.enumerated() { outcomes.submit(writes, as: offset + 1, to: store) }
        lock.release()
        #expect(outcomes.wait(1 + queued.count))

        func conflict(_ index: Int) -> StoreConflict? { outcomes.error(index) as? StoreConflict }
        #expect(outcomes.versions(0) == [2])
        #expect(outcomes.versions(1) == [2])
        #expect(conflict(2) == StoreConflict(key: RecordKey(.vehicle, provider: "p", id: "v3"), expectedVersion: 5, actualVersion: 1))
        #expect(conflict(3) == StoreConflict(key: ghost, expectedVersion: 1, actualVersion: 0))
        #expect(conflict(4) == StoreConflict(key: RecordKey(.vehicle, provider: "p", id: "v4"), expectedVersion: 0, actualVersion: 1))
        #expect(outcomes.versions(5) == [0])
        #expect(conflict(6) == StoreConflict(key: RecordKey(.vehicle, provider: "p", id: "v2"), expectedVersion: 1, actualVersion: 2))
        #expect(outcomes.versions(7) == [1])
        #expect(conflict(8) == StoreConflict(key: RecordKey(.vehicle, provider: "p", id: "v7"), expectedVersion: 3, actualVersion: 1))
        #expect(outcomes.versions(9) == [2, 2])

        func stored(_ id: String) throws -> StoreRecord? { try store.get(RecordKey(.vehicle, provider: "p", id: id)) }
        #expect(Sample.text(try stored("v2")) == "changed")
        #expect(try stored("v3")?.version == 1)
        #expect(try stored("ghost") == nil)
        #expect(Sample.text(try stored("v4")) == "vehicle")
        #expect(try stored("v5") == nil)
        #expect(Sample.text(try stored("new")) == "created")
        #expect(Sample.text(try stored("v6")) == "vehicle", "a commit of several writes is all or nothing")
        #expect(Sample.text(try stored("v8")) == "pair")
        #expect(Sample.text(try stored("v9")) == "pair")
    }

    /// A batch whose connection the server drops fails every member UNAVAILABLE, applies none of
    /// them, and the next commits succeed on a new connection. The batch is held in PostgreSQL by
    /// a delete (which writes the locked tombstones table), sorted after its updates.
    @Test func aBatchCutByATerminatedBackendFailsEveryMemberUnavailableAndTheNextCommitsSucceed() throws {
        let url = try cluster.database(named: "batch_terminated")
        let database = String(url.split(separator: "/").last!)
        let store = try PostgresStore(url: url, options: StoreOptions(settings: ["pool": "2"]))
        defer { try? store.close() }
        for n in 1...5 { try Sample.create(Sample.vehicle("v\(n)"), in: store) }
        for id in ["a", "z"] { try Sample.create(Sample.vehicle(id), in: store) }
        let lock = try PostgresTableLock(cluster: cluster, database: database, table: "tombstones")
        defer { lock.release() }
        let outcomes = Outcomes()
        // Alone, first: it holds the only commit thread while the batch queues.
        outcomes.submit([.delete(RecordKey(.vehicle, provider: "p", id: "a"), expectedVersion: 1)], as: 0, to: store)
        let alone = try #require(try waitForLockWaiter(database: database))
        for n in 1...5 { outcomes.submit([.put(Sample.vehicle("v\(n)", payload: "lost"), expectedVersion: 1)], as: n, to: store) }
        outcomes.submit([.delete(RecordKey(.vehicle, provider: "p", id: "z"), expectedVersion: 1)], as: 6, to: store)
        try cluster.psql("SELECT pg_terminate_backend(\(alone))")
        #expect(outcomes.wait(1))
        let batch = try #require(try waitForLockWaiter(database: database, excluding: alone))
        #expect(store.commitsInFlight == 6)
        try cluster.psql("SELECT pg_terminate_backend(\(batch))")
        #expect(outcomes.wait(6))
        lock.release()

        for index in 0...6 {
            let error = outcomes.error(index) as? FleetError
            #expect(error?.code == .unavailable, "commit \(index): \(String(describing: outcomes.error(index)))")
            #expect(error?.cause == ErrorCause.storeUnreachable.id)
        }
        for id in ["a", "v1", "v3", "v5", "z"] {
            #expect(try store.get(RecordKey(.vehicle, provider: "p", id: id))?.version == 1, "\(id) was not changed")
        }
        let next = Outcomes()
        for n in 1...5 { next.submit([.put(Sample.vehicle("v\(n)", payload: "after"), expectedVersion: 1)], as: n, to: store) }
        #expect(next.wait(5))
        for n in 1...5 { #expect(next.versions(n) == [2], "commit \(n) after the connection was lost") }
    }

    /// Closing the store lets the commit threads commit what is queued: every completion runs.
    @Test func closingCommitsWhatIsQueuedAndRunsEveryCompletion() throws {
        let store = try PostgresStore(url: try cluster.database(named: "batch_close"), options: StoreOptions(settings: ["pool": "2"]))
        let outcomes = Outcomes()
        for n in 0..<40 { outcomes.submit([.put(Sample.vehicle("v\(n)"), expectedVersion: 0)], as: n, to: store) }
        try store.close()
        #expect(outcomes.wait(40))
        for n in 0..<40 { #expect(outcomes.versions(n) == [1], "commit \(n)") }
    }
}
