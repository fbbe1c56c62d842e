import FleetStore
import FleetTestSupport
import Foundation
@testable import PostgresStore
import Synchronization
import Testing

/// The statement that tells other nodes which records changed names many keys at once, each still
/// a notification of its own that a listening store reads back as the key.
@Suite(.enabled(if: PostgresCluster.isInstalled, Comment(rawValue: PostgresCluster.missingMessage)))
struct PostgresStoreNotificationTests {
    @Test func oneStatementNotifiesEveryKeyOfABatchWhateverBytesItsIDsHold() throws {
        let cluster = try #require(try PostgresCluster.shared)
        let url = try cluster.database(named: "notify_batch")
        let listening = try PostgresStore(url: url)
        defer { try? listening.close() }
        let heard = Mutex<[RecordKey]>([])
        let arrived = DispatchSemaphore(value: 0)
        let observation = try #require(listening.observeChanges { keys in
            heard.withLock { $0 += keys }
            arrived.signal()
        })
        defer { observation.cancel() }
        let parsed = try PostgresURL(scheme: "postgres", path: String(url.dropFirst("postgres:".count)), settings: [:])
        let connection = try PGConnection(url: parsed)
        // LISTEN starts on the store's own thread: notify until it hears.
        let probe = RecordKey(.trip, provider: "p", id: "probe")
        var tries = 0
        repeat {
            tries += 1
            PostgresStore.notify([probe], on: connection)
        } while arrived.wait(timeout: .now() + 0.2) == .timedOut && tries < 50
        #expect(heard.withLock { $0.contains(probe) })

        let batch = [RecordKey(.vehicle, provider: "p", id: "v1"), RecordKey(.vehicle, provider: "p/ü\u{0}", id: "{a,\"b\"} c\\"),
                     RecordKey(.trip, provider: "", id: "")]
        heard.withLock { $0 = [] }
        PostgresStore.notify(batch, on: connection)
        let deadline = Date().addingTimeInterval(5)
        while heard.withLock({ $0.count }) < batch.count && Date() < deadline { _ = arrived.wait(timeout: .now() + 0.1) }
        #expect(Set(heard.withLock { $0 }) == Set(batch))
    }
}
