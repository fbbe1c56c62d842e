@testable import FleetEngine
import Foundation
import Glibc
import Synchronization
import Testing

/// A retry after a conflict starts on the store's commit thread, which commits everyone's writes:
/// it must never wait there. The first attempts run at once; later ones are handed to a timer.
@Suite struct ConflictRetryTests {
    @Test func theFirstEightRetriesRunAtOnceOnTheCallingThread() {
        for attempt in 0..<8 {
            let ran = Mutex(false)
            Engine.retry(afterConflict: attempt) { ran.withLock { $0 = true } }
            #expect(ran.withLock { $0 }, "attempt \(attempt)")
        }
    }

    @Test(arguments: [8, 12, 40])
    func laterRetriesRunLaterWithoutHoldingTheCallingThread(attempt: Int) {
        let done = DispatchSemaphore(value: 0)
        let ranOnCaller = Mutex(false)
        let caller = pthread_self()
        Engine.retry(afterConflict: attempt) {
            ranOnCaller.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "the retry never ran")
        #expect(!ranOnCaller.withLock { $0 })
    }
}
