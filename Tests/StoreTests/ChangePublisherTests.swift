import FleetStore
import Foundation
@testable import PostgresStore
import Synchronization
import Testing

/// The PostgreSQL store's batching of change notifications, without a database: keys published
/// while a statement is on its way go out together in the next one, each once.
struct ChangePublisherTests {
    private func key(_ id: String) -> RecordKey { RecordKey(.vehicle, provider: "p", id: id) }

    @Test func keysPublishedWhileOneStatementIsSentShareTheNextOne() throws {
        let sent = Mutex<[[String]]>([])
        let firstStarted = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let publisher = ChangePublisher { keys in
            let isFirst = sent.withLock { sent in
                sent.append(keys.map(\.id))
                return sent.count == 1
            }
            if isFirst {
                firstStarted.signal()
                release.wait()
            }
        }
        publisher.publish([key("a")])
        #expect(firstStarted.wait(timeout: .now() + 10) == .success)
        publisher.publish([key("b"), key("c")])
        publisher.publish([key("b")])
        publisher.publish([key("d")])
        #expect(publisher.pendingCount == 3)
        release.signal()
        publisher.flush()
        #expect(sent.withLock { $0 } == [["a"], ["b", "c", "d"]])
        publisher.close()
    }

    @Test func closeSendsWhatIsQueuedAndLaterKeysAreDropped() throws {
        let sent = Mutex<[String]>([])
        let publisher = ChangePublisher(idleSeconds: 0.05) { keys in
            Thread.sleep(forTimeInterval: 0.02)
            sent.withLock { $0 += keys.map(\.id) }
        }
        for n in 0..<20 { publisher.publish([key("v\(n)")]) }
        publisher.close()
        #expect(sent.withLock { $0 } == (0..<20).map { "v\($0)" })
        publisher.publish([key("late")])
        Thread.sleep(forTimeInterval: 0.1)
        #expect(sent.withLock { $0.count } == 20)
    }

    @Test func aThreadThatWentIdleIsStartedAgainByTheNextKeys() throws {
        let sent = Mutex<[String]>([])
        let publisher = ChangePublisher(idleSeconds: 0.01) { keys in sent.withLock { $0 += keys.map(\.id) } }
        defer { publisher.close() }
        for n in 0..<5 {
            publisher.publish([key("v\(n)")])
            publisher.flush()
            Thread.sleep(forTimeInterval: 0.03)  // longer than idleSeconds: the thread has left
        }
        #expect(sent.withLock { $0 } == (0..<5).map { "v\($0)" })
    }
}
