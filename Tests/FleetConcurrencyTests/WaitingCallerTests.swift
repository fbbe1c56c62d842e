import FleetConcurrency
import Foundation
import Synchronization
import Testing

struct WaitingCallerTests {
    @Test func onlyTheThreadInsideRunIsWaitingAndOnlyUntilItReturns() {
        #expect(!WaitingCaller.isWaiting)
        let elsewhere = Mutex<Bool?>(nil)
        let checked = DispatchSemaphore(value: 0)
        WaitingCaller.run {
            #expect(WaitingCaller.isWaiting)
            Thread.detachNewThread {
                elsewhere.withLock { $0 = WaitingCaller.isWaiting }
                checked.signal()
            }
            checked.wait()
        }
        #expect(elsewhere.withLock { $0 } == false, "another thread started meanwhile is not waiting")
        #expect(!WaitingCaller.isWaiting)
    }

    @Test func aNestedRunLeavesTheOuterOneWaitingAndAThrowEndsIt() {
        WaitingCaller.run {
            WaitingCaller.run {}
            #expect(WaitingCaller.isWaiting)
        }
        struct Stop: Error {}
        #expect(throws: Stop.self) { try WaitingCaller.run { throw Stop() } }
        #expect(!WaitingCaller.isWaiting)
    }
}
