import FleetConcurrency
import Foundation
import Testing

struct DoorbellTests {
    @Test func aRingGivenBeforeTheWaitIsKeptUntilConsumed() {
        let doorbell = Doorbell()
        doorbell.signal()
        #expect(doorbell.wait(seconds: 5))
        #expect(!doorbell.consume(), "one ring wakes one wait")
    }

    @Test func aWaitWithoutARingTimesOut() {
        #expect(!Doorbell().wait(seconds: 0.05))
    }

    @Test func aRingFromAnotherThreadEndsTheWaitEarly() {
        let doorbell = Doorbell()
        let start = Date()
        Thread.detachNewThread { usleep(20_000); doorbell.signal() }
        #expect(doorbell.wait(seconds: 30))
        #expect(Date().timeIntervalSince(start) < 25)
    }
}

struct CancellationTests {
    @Test func cancelRingsTheDoorbellAndRunsEveryWakerOnce() {
        let cancellation = Cancellation()
        let count = Counter()
        cancellation.onCancel { count.add() }
        #expect(!cancellation.isCancelled)
        cancellation.cancel()
        cancellation.cancel()
        #expect(cancellation.isCancelled)
        #expect(count.value == 1)
        #expect(cancellation.wakeup.consume())
        cancellation.onCancel { count.add() }
        #expect(count.value == 2, "a waker registered after cancel runs at once")
    }
}

struct MailboxTests {
    @Test func itemsArriveInOrderAndCloseEndsTheConsumer() {
        let mailbox = Mailbox<Int>(capacity: 10)
        for item in 1...3 { #expect(mailbox.put(item)) }
        #expect(mailbox.take() == 1)
        #expect(mailbox.take() == 2)
        mailbox.close()
        #expect(!mailbox.put(4))
        #expect(mailbox.take() == nil)
    }

    @Test func aConsumerThatFallsBehindSkipsToTheNewest() {
        let mailbox = Mailbox<Int>(capacity: 2)
        for item in 1...5 { mailbox.put(item) }
        #expect(mailbox.take() == 4)
        #expect(mailbox.take() == 5)
    }

    @Test func takeWaitsForAnItemFromAnotherThread() {
        let mailbox = Mailbox<String>()
        Thread.detachNewThread { usleep(20_000); mailbox.put("late") }
        #expect(mailbox.take() == "late")
    }
}

struct BlockingPoolTests {
    struct Closed: Error {}

    @Test func opensAtMostCapacityAndReusesWhatComesBack() throws {
        let opened = Counter()
        let pool = BlockingPool<Int>(capacity: 2, closedError: { Closed() }) { opened.add(); return opened.value }
        let first = try pool.withResource { $0 }
        let second = try pool.withResource { $0 }
        #expect(first == 1 && second == 1, "one resource, lent twice")
        #expect(opened.value == 1)
    }

    @Test func aBrokenResourceIsDiscardedWithTheIdleOnes() throws {
        let discarded = Counter()
        let opened = Counter()
        let pool = BlockingPool<Int>(capacity: 3, closedError: { Closed() }, isBroken: { $0 < 0 },
                                     discard: { _ in discarded.add() }) { opened.add(); return opened.value == 2 ? -1 : opened.value }
        try pool.withResource { first in
            try pool.withResource { broken in
                try pool.withResource { third in #expect(first == 1 && broken == -1 && third == 3) }
            }
        }
        #expect(discarded.value == 2, "the broken one and the idle one that broke with it")
        #expect(try pool.withResource { $0 } == 1, "the one lent meanwhile came back")
        #expect(opened.value == 3)
    }

    @Test func closeRefusesBorrowersAndDiscardsTheIdle() throws {
        let discarded = Counter()
        let pool = BlockingPool<Int>(capacity: 1, closedError: { Closed() }, discard: { _ in discarded.add() }) { 7 }
        _ = try pool.withResource { $0 }
        pool.close()
        #expect(discarded.value == 1)
        #expect(throws: Closed.self) { try pool.withResource { $0 } }
    }
}

/// A count shared with closures on other threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

struct WaitableStateTests {
    @Test func aWaitForAConditionThatHoldsReturnsAtOnce() {
        let state = WaitableState(3)
        #expect(state.wait(until: { $0 == 3 }, timeout: .seconds(30)))
    }

    @Test func aWaitForAConditionNeverReachedTimesOut() {
        let state = WaitableState(0)
        let start = ContinuousClock.now
        #expect(!state.wait(until: { $0 > 0 }, timeout: .milliseconds(50)))
        #expect(ContinuousClock.now - start >= .milliseconds(50))
    }

    @Test func anUpdateFromAnotherThreadEndsTheWait() {
        let state = WaitableState(0)
        Thread.detachNewThread {
            for _ in 1...5 {
                usleep(5_000)
                state.update { $0 += 1 }
            }
        }
        let start = ContinuousClock.now
        #expect(state.wait(until: { $0 == 5 }, timeout: .seconds(30)), "each update wakes the waiter to look again")
        #expect(ContinuousClock.now - start < .seconds(25), "woken, not timed out")
        #expect(state.withLock { $0 } == 5)
    }

    @Test func waitThenTakesWhatItWaitedForBeforeAnotherWaiter() {
        let state = WaitableState<[Int]>([])
        let taken = WaitableState<[Int]>([])
        for _ in 0..<2 {
            Thread.detachNewThread {
                let item = state.wait(until: { !$0.isEmpty }, deadline: .now + .seconds(30)) { items, isReady in
                    isReady ? items.removeFirst() : -1
                }
                taken.update { $0.append(item) }
            }
        }
        state.update { $0.append(1) }
        state.update { $0.append(2) }
        #expect(taken.wait(until: { $0.count == 2 }, timeout: .seconds(30)))
        #expect(taken.withLock { $0.sorted() } == [1, 2], "each item went to exactly one waiter")
    }

    @Test func waitThenRunsOnTimeoutWithTheStateNotReady() {
        let state = WaitableState(7)
        let outcome = state.wait(until: { $0 == 0 }, deadline: .now + .milliseconds(20)) { value, isReady in (value, isReady) }
        #expect(outcome == (7, false))
    }
}

extension WaitableStateTests {
    @Test func wakeWaitersAfterAChangeUnderWithLockEndsTheWait() {
        let state = WaitableState(false)
        Thread.detachNewThread {
            usleep(5_000)
            state.withLock { $0 = true }
            state.wakeWaiters()
        }
        let start = ContinuousClock.now
        #expect(state.wait(until: { $0 }, timeout: .seconds(30)))
        #expect(ContinuousClock.now - start < .seconds(25), "woken, not timed out")
    }
}

struct ThreadMarkTests {
    /// Only the threads that marked themselves carry the mark, and only this mark's.
    @Test func onlyMarkedThreadsCarryTheMark() {
        let mark = ThreadMark()
        let other = ThreadMark()
        #expect(!mark.isCurrentThreadMarked)
        let seen = WaitableState<Bool?>(nil)
        let thread = Thread {
            mark.markCurrentThread()
            seen.update { $0 = mark.isCurrentThreadMarked && !other.isCurrentThreadMarked }
        }
        thread.start()
        #expect(seen.wait(until: { $0 != nil }, timeout: .seconds(10)))
        #expect(seen.withLock { $0 } == true)
        #expect(!mark.isCurrentThreadMarked, "the mark stays on the thread that set it")
    }
}
