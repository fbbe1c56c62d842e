import FleetErrors
import FleetStore
import FleetTestSupport
import MemoryStore
import Foundation
import Synchronization
import PostgresStore
import Testing

/// What the PostgreSQL store does beyond the contract: several stores (as several nodes) on one
/// database, clear errors for bad URLs, and recovery from lost connections. On the test process's
/// own PostgreSQL cluster.
@Suite(.enabled(if: PostgresCluster.isInstalled, Comment(rawValue: PostgresCluster.missingMessage)))
struct PostgresStoreTests {
    let cluster: PostgresCluster

    init() throws {
        cluster = try #require(try PostgresCluster.shared)
    }

    @Test func twoStoresOnOneDatabaseLoseNoIncrement() throws {
        let url = try cluster.database(named: "two_stores")
        let a = try PostgresStore(url: url), b = try PostgresStore(url: url)
        defer { try? a.close(); try? b.close() }
        let key = RecordKey(.vehicle, provider: "p", id: "counter")
        try Sample.create(Sample.vehicle("counter", payload: "0"), in: a)
        try ThreadGroup.run(6) { index in
            for _ in 0..<50 { try Counter.increment(key, in: index % 2 == 0 ? a : b) }
        }
        #expect(Sample.text(try b.get(key)) == "300")
        #expect(try a.get(key)?.version == 301)
    }

    @Test func aVersionRememberedInOneStoreNeverMatchesARecordTheOtherCreatedAgain() throws {
        let url = try cluster.database(named: "tombstones")
        let a = try PostgresStore(url: url), b = try PostgresStore(url: url)
        defer { try? a.close(); try? b.close() }
        let key = RecordKey(.trip, provider: "p", id: "t1")
        try Sample.create(Sample.trip("t1"), in: a)
        try b.commit(.delete(key, expectedVersion: 1))
        #expect(try b.commit(.put(Sample.trip("t1", payload: "again"), expectedVersion: 0)) == 2)
        let stale = #expect(throws: StoreConflict.self) {
            try a.commit(.put(Sample.trip("t1", payload: "stale"), expectedVersion: 1))
        }
        #expect(stale?.actualVersion == 2)
    }

    @Test func aStoreHearsOfTheCommitsOfAnotherUntilItsObservationIsCancelled() throws {
        let url = try cluster.database(named: "notify")
        let a = try PostgresStore(url: url), b = try PostgresStore(url: url)
        defer { try? a.close(); try? b.close() }
        let heard = Mutex<[RecordKey]>([])
        let arrived = DispatchSemaphore(value: 0)
        let observation = try #require(b.observeChanges { keys in
            heard.withLock { $0 += keys }
            arrived.signal()
        })
        // LISTEN starts on the store's own thread: commit until the first notification is heard.
        let odd = "p/ü\u{0}"
        var created = 0
        repeat {
            created += 1
            try Sample.create(Sample.vehicle("v\(created)", provider: odd), in: a)
        } while arrived.wait(timeout: .now() + 0.2) == .timedOut && created < 50
        #expect(heard.withLock { $0.last } == RecordKey(.vehicle, provider: odd, id: "v\(created)"))

        try a.commit(.delete(RecordKey(.vehicle, provider: odd, id: "v1"), expectedVersion: 1))
        #expect(arrived.wait(timeout: .now() + 5) == .success)
        #expect(heard.withLock { $0.last } == RecordKey(.vehicle, provider: odd, id: "v1"))

        observation.cancel()
        Thread.sleep(forTimeInterval: 0.3)
        let before = heard.withLock { $0.count }
        try Sample.create(Sample.trip("after"), in: a)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(heard.withLock { $0.count } == before)
    }

    /// A commit without waiting returns at once and runs on the store's commit threads, at most
    /// half the pool of them: with the records table locked, six such commits on a store of pool 4
    /// return at once, two of them wait in PostgreSQL, and all six complete once the lock goes.
    /// Each writes two records, so that none is committed in a batch with others (a thread takes
    /// such a commit alone).
    @Test func commitsWithoutWaitingRunOnABoundedNumberOfCommitThreads() throws {
        let url = try cluster.database(named: "commit_threads")
        let database = String(url.split(separator: "/").last!)
        let store = try PostgresStore(url: url, options: StoreOptions(settings: ["pool": "4"]))
        defer { try? store.close() }
        for n in 1...12 { try Sample.create(Sample.vehicle("v\(n)"), in: store) }
        let lock = try PostgresTableLock(cluster: cluster, database: database, table: "records")
        defer { lock.release() }

        let outcomes = Mutex<[Result<[UInt64], any Error>]>([])
        let done = DispatchSemaphore(value: 0)
        let started = Date()
        for n in 1...6 {
            store.commit([.put(Sample.vehicle("v\(n)", payload: "moved"), expectedVersion: 1),
                          .put(Sample.vehicle("v\(n + 6)", payload: "moved"), expectedVersion: 1)]) { outcome in
                outcomes.withLock { $0.append(outcome) }
                done.signal()
            }
        }
        #expect(Date().timeIntervalSince(started) < 2, "commit(_:completion:) waited for its commit")
        let count = "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'"
        var waiting = 0
        let deadline = Date().addingTimeInterval(10)
        repeat {
            Thread.sleep(forTimeInterval: 0.05)
            waiting = Int(try cluster.psql(count).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        } while waiting < 2 && Date() < deadline
        Thread.sleep(forTimeInterval: 0.3)  // time for a third, if the bound did not hold
        waiting = Int(try cluster.psql(count).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(waiting == 2)
        #expect(store.commitsInFlight == 6)
        #expect(outcomes.withLock { $0.isEmpty })

        lock.release()
        for _ in 1...6 { #expect(done.wait(timeout: .now() + 10) == .success) }
        #expect(outcomes.withLock { $0.compactMap { try? $0.get() } } == [[UInt64]](repeating: [2, 2], count: 6))
        #expect(Sample.text(try store.get(RecordKey(.vehicle, provider: "p", id: "v6"))) == "moved")
        #expect(store.commitsInFlight == 0)
    }

    @Test func storesOpeningANewDatabaseAtOnceMigrateItOnce() throws {
        let url = try cluster.database(named: "migrate_once")
        let opened = try ThreadGroup.collect(6) { _ in try PostgresStore(url: url) }
        defer { for store in opened { try? store.close() } }
        let database = String(url.split(separator: "/").last!)
        let rows = try cluster.psql("SELECT count(*), max(version) FROM schema_migrations", database: database)
        #expect(rows.trimmingCharacters(in: .whitespacesAndNewlines) == "6|6")
        // No trigger notifies inside the writing transactions (it serialised every commit of the
        // database through the WAL flush); the stores notify after their commits.
        let triggers = try cluster.psql("SELECT count(*) FROM pg_trigger WHERE tgrelid = 'records'::regclass AND NOT tgisinternal", database: database)
        #expect(triggers.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test func aDatabaseThatDoesNotExistIsABadSettingNamingTheURLWithoutItsPassword() throws {
        let url = "postgres://\(PostgresCluster.user):hunter2@127.0.0.1:\(cluster.port)/no_such_database"
        let error = #expect(throws: FleetError.self) { try PostgresStore(url: url) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.cause == ErrorCause.storeSettingRejected.id)
        #expect(error?.field == "store")
        #expect(error?.message.contains("postgres://\(PostgresCluster.user):***@127.0.0.1:\(cluster.port)/no_such_database") == true)
        #expect(error?.message.contains("no_such_database\" does not exist") == true)
        #expect(error?.message.contains("hunter2") == false)
    }

    /// Against a server that wants passwords: the right one in the URL connects, a wrong one is a
    /// bad setting whose message never shows it.
    @Test func aWrongPasswordIsABadSettingThatDoesNotShowIt() throws {
        let secured = try PostgresCluster.makePrivate(passwordsOverTCP: true)
        try secured.psql("CREATE ROLE driver LOGIN PASSWORD 'right-one'")
        try secured.psql("CREATE DATABASE fleet_driver OWNER driver")
        let base = "127.0.0.1:\(secured.port)/fleet_driver"
        let store = try PostgresStore(url: "postgres://driver:right-one@\(base)")
        try store.close()
        let error = #expect(throws: FleetError.self) { try PostgresStore(url: "postgres://driver:wrong-one@\(base)") }
        #expect(error?.code == .invalidArgument)
        #expect(error?.cause == ErrorCause.storeSettingRejected.id)
        #expect(error?.message.contains("password authentication failed") == true)
        #expect(error?.message.contains("postgres://driver:***@\(base)") == true)
        #expect(error?.message.contains("wrong-one") == false)
    }

    @Test func anUnknownUserAndAMalformedURLAreBadSettings() throws {
        let unknown = #expect(throws: FleetError.self) {
            try PostgresStore(url: "postgres://nobody@127.0.0.1:\(cluster.port)/postgres")
        }
        #expect(unknown?.code == .invalidArgument)
        #expect(unknown?.message.contains("\"nobody\" does not exist") == true)
        let malformed = #expect(throws: FleetError.self) { try PostgresStore(url: "postgres:fleet@somewhere") }
        #expect(malformed?.code == .invalidArgument)
        #expect(malformed?.message.contains("postgres://USER@HOST:PORT/DATABASE") == true)
        let pool = #expect(throws: FleetError.self) {
            try StoreRegistry([PostgresStore.scheme]).open(cluster.url(database: "postgres") + "?pool=0")
        }
        #expect(pool?.message.contains("pool=0") == true)
    }

    /// libpq quotes a URI it cannot parse whole, password included: every message the store gives
    /// has the password masked, written in the userinfo, percent-encoded or as `password=`.
    @Test(arguments: ["postgresql://fleet:s3cr3tPW@[::1:1/db", "postgres://fleet:s3cr%33tPW@[::1:1/db",
                      "postgres://fleet@[::1:1/db?password=s3cr3tPW", "postgres://fleet:s3cr3tPW@127.0.0.1:99999/db",
                      "postgres://fleet:s3cr3tPW@127.0.0.1:5432/db?sslmode=bogus"])
    func libpqMessagesNeverShowThePassword(url: String) throws {
        let error = #expect(throws: FleetError.self) { try PostgresStore(url: url) }
        let message = error?.message ?? ""
        #expect(!message.contains("s3cr3t") && !message.contains("s3cr%33t"), "\(message)")
        #expect(message.contains("***"), "\(message)")
    }

    /// The store registry's own messages (a misspelt scheme, an unknown option, something after a scheme that takes
    /// nothing) never show a password either.
    @Test func registryMessagesNeverShowThePassword() throws {
        let registry = StoreRegistry([PostgresStore.scheme, MemoryStore.scheme])
        // An unknown scheme, an unknown option, a scheme that takes nothing after it.
        for url in ["postgress://fleet:s3cr3tPW@127.0.0.1/db", "memory?password=s3cr3tPW",
                    "memory://fleet:s3cr3tPW@127.0.0.1/db"] {
            let error = #expect(throws: FleetError.self) { try registry.open(url) }
            #expect(error?.field == "store")
            #expect(error?.message.contains("s3cr3t") == false, "\(error?.message ?? "")")
        }
    }

    @Test func aServerNobodyListensOnIsUnavailable() throws {
        let port = try closedPort()
        let error = #expect(throws: FleetError.self) { try PostgresStore(url: "postgres://fleet@127.0.0.1:\(port)/fleet") }
        #expect(error?.code == .unavailable)
        #expect(error?.cause == ErrorCause.storeUnreachable.id)
    }

    @Test func theRegistryOpensBothSpellingsWithPoolAndDurabilityOptions() throws {
        let url = try cluster.database(named: "spellings")
        let registry = StoreRegistry([PostgresStore.scheme, PostgresStore.alternativeScheme])
        let a = try #require(try registry.open(url + "?pool=2&durable=false") as? PostgresStore)
        defer { try? a.close() }
        #expect(a.poolSize == 2)
        #expect(a.options.durable == false)
        let b = try registry.open("postgresql" + url.dropFirst("postgres".count) + "?application_name=fleet-test")
        defer { try? b.close() }
        try Sample.create(Sample.vehicle("v1"), in: a)
        #expect(try b.get(RecordKey(.vehicle, provider: "p", id: "v1"))?.version == 1)
    }

    /// Connections the server drops (a restart, a failover, an administrator) fail the call in
    /// flight with UNAVAILABLE; the pool connects again by itself and nothing committed is lost.
    @Test func droppedConnectionsFailOneCallWithUnavailableThenReconnect() throws {
        let url = try cluster.database(named: "dropped")
        let database = String(url.split(separator: "/").last!)
        let store = try PostgresStore(url: url)
        defer { try? store.close() }
        let key = RecordKey(.vehicle, provider: "p", id: "v1")
        try Sample.create(Sample.vehicle("v1", payload: "acknowledged"), in: store)
        try cluster.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()")
        let lost = #expect(throws: FleetError.self) { try store.get(key) }
        #expect(lost?.code == .unavailable)
        #expect(lost?.cause == ErrorCause.storeUnreachable.id)
        #expect(Sample.text(try store.get(key)) == "acknowledged")
        #expect(try store.commit(.put(Sample.vehicle("v1", payload: "after"), expectedVersion: 1)) == 2)
    }

    /// A libpq multi-host URL, as nodes reach a Patroni cluster: the registry takes it as it is,
    /// libpq skips a host that is down, and messages show every host without the password.
    @Test func aMultiHostURLReachesTheHostThatTakesWrites() throws {
        let url = try cluster.database(named: "multihost")
        let database = String(url.split(separator: "/").last!)
        let down = try closedPort()
        let multiHost = "postgres://\(PostgresCluster.user):secret@127.0.0.1:\(down),127.0.0.1:\(cluster.port)/\(database)?target_session_attrs=read-write&connect_timeout=2"
        let registry = StoreRegistry([PostgresStore.scheme])
        let store = try #require(try registry.open(multiHost) as? PostgresStore)
        defer { try? store.close() }
        #expect(store.url.contains("127.0.0.1:\(down),127.0.0.1:\(cluster.port)"))
        #expect(!store.url.contains("secret"))
        try Sample.create(Sample.vehicle("v1"), in: store)
        #expect(try store.get(RecordKey(.vehicle, provider: "p", id: "v1"))?.version == 1)
    }

    /// A server that only reads (a demoted primary, a standby reached without
    /// `target_session_attrs=read-write`) refuses writes: UNAVAILABLE, retryable, and the connection is
    /// dropped, so that once the server takes writes again the next commit goes through.
    @Test func aServerThatOnlyReadsIsUnavailableUntilItTakesWritesAgain() throws {
        let url = try cluster.database(named: "readonly")
        let database = String(url.split(separator: "/").last!)
        let store = try PostgresStore(url: url, options: StoreOptions(settings: ["pool": "1"]))
        defer { try? store.close() }
        try Sample.create(Sample.vehicle("v1", payload: "acknowledged"), in: store)
        try cluster.psql("ALTER DATABASE \(database) SET default_transaction_read_only = on")
        try cluster.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()")
        _ = try? store.get(RecordKey(.vehicle, provider: "p", id: "v1"))  // finds its connection gone
        let refused = #expect(throws: FleetError.self) {
            try store.commit(.put(Sample.vehicle("v1", payload: "refused"), expectedVersion: 1))
        }
        #expect(refused?.code == .unavailable)
        #expect(refused?.cause == ErrorCause.storeUnreachable.id)
        #expect(refused?.message.contains("SQLSTATE 25006") == true)
        try cluster.psql("ALTER DATABASE \(database) SET default_transaction_read_only = off")
        #expect(try store.commit(.put(Sample.vehicle("v1", payload: "after"), expectedVersion: 1)) == 2)
        #expect(Sample.text(try store.get(RecordKey(.vehicle, provider: "p", id: "v1"))) == "after")
    }
}

/// A loopback port that was free a moment ago: nobody listens on it.
private func closedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return Int(UInt16(bigEndian: address.sin_port))
}
