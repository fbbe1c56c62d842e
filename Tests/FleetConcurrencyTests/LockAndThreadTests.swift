import FleetConcurrency
import Foundation
import Testing

/// A number changed by several threads with no synchronisation of its own: only the lock under test
/// keeps its increments from being lost.
private final class Unguarded: @unchecked Sendable {
    var count = 0
}

/// Runs `body(thread)` on `threads` threads at once and waits for all of them.
private func onThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let workers = (0..<threads).map { index in WorkerThread.start(name: "test-\(index)") { body(index) } }
    for worker in workers { worker.join() }
}

struct LockTests {
    @Test func incrementsFromManyThreadsUnderTheLockAreNeverLost() {
        let lock = Lock()
        let shared = Unguarded()
        onThreads(4) { _ in
            for _ in 0..<20_000 { lock.withLock { shared.count += 1 } }
        }
        #expect(lock.withLock { shared.count } == 80_000)
    }

    @Test func aThrowInsideWithLockGivesTheLockBack() {
        struct Stop: Error {}
        let lock = Lock()
        #expect(throws: Stop.self) { try lock.withLock { throw Stop() } }
        let taken = WorkerThread.start(name: "test-taker") { lock.withLock {} }
        #expect(taken.join(timeout: .seconds(10)), "another thread takes the lock afterwards")
    }

    @Test func anotherThreadWaitsWhileTheLockIsHeld() {
        let lock = Lock()
        lock.lock()
        let taken = WorkerThread.start(name: "test-taker") { lock.withLock {} }
        #expect(!taken.join(timeout: .milliseconds(100)), "held: the other thread waits")
        lock.unlock()
        #expect(taken.join(timeout: .seconds(10)), "given back: the other thread goes on")
    }
}

struct LockedTests {
    @Test func changesFromManyThreadsAreNeverLost() {
        let totals = Locked((count: 0, seen: Set<Int>()))
        onThreads(4) { thread in
            for _ in 0..<10_000 { totals.withLock { $0.count += 1 } }
            totals.withLock { _ = $0.seen.insert(thread) }
        }
        #expect(totals.withLock { $0.count } == 40_000)
        #expect(totals.withLock { $0.seen } == [0, 1, 2, 3])
    }
}

struct ReadWriteLockTests {
    @Test func readersHoldTheLockTogether() {
        let lock = ReadWriteLock()
        let secondReaderIn = Semaphore()
        let firstSawSecond = Locked(false)
        let first = WorkerThread.start(name: "test-reader-1") {
            lock.reading {
                // Still reading while the second reader enters: a shared lock lets it in.
                firstSawSecond.withLock { $0 = secondReaderIn.wait(timeout: .seconds(10)) }
            }
        }
        usleep(20_000)
        let second = WorkerThread.start(name: "test-reader-2") { lock.reading { secondReaderIn.signal() } }
        first.join()
        second.join()
        #expect(firstSawSecond.withLock { $0 })
    }

    @Test func aWriterKeepsReadersOut() {
        let lock = ReadWriteLock()
        let writing = Semaphore()
        let release = Semaphore()
        let writer = WorkerThread.start(name: "test-writer") {
            lock.writing {
                writing.signal()
                release.wait()
            }
        }
        writing.wait()
        let reader = WorkerThread.start(name: "test-reader") { lock.reading {} }
        #expect(!reader.join(timeout: .milliseconds(100)), "the reader waits for the writer")
        release.signal()
        #expect(reader.join(timeout: .seconds(10)))
        writer.join()
    }
}

struct SemaphoreTests {
    @Test func waitTakesWhatSignalGaveAndTimesOutWhenThereIsNone() {
        let semaphore = Semaphore()
        semaphore.signal()
        semaphore.signal()
        #expect(semaphore.wait(timeout: .seconds(10)))
        #expect(semaphore.wait(timeout: .seconds(10)))
        let start = ContinuousClock.now
        #expect(!semaphore.wait(timeout: .milliseconds(50)), "two signals, two waits: the third has none")
        #expect(ContinuousClock.now - start >= .milliseconds(45))
    }

    @Test func aSignalFromAnotherThreadEndsTheWait() {
        let semaphore = Semaphore()
        WorkerThread.start(name: "test-signaller") { usleep(20_000); semaphore.signal() }
        let start = ContinuousClock.now
        #expect(semaphore.wait(timeout: .seconds(30)))
        #expect(ContinuousClock.now - start < .seconds(25), "woken, not timed out")
    }

    @Test func anInitialValueIsTakenWithoutWaiting() {
        let semaphore = Semaphore(value: 1)
        #expect(semaphore.wait(timeout: .zero))
        #expect(!semaphore.wait(timeout: .zero))
        #expect(!semaphore.wait(timeout: .seconds(-5)), "a negative timeout is no wait, not a crash")
    }
}

struct HandoffTests {
    @Test func takeWaitsForTheValueAnotherThreadGives() {
        let handoff = Handoff<String>()
        WorkerThread.start(name: "test-giver") { usleep(20_000); handoff.give("late") }
        #expect(handoff.take() == "late")
    }

    @Test func aValueGivenBeforeTheTakeIsKept() throws {
        let handoff = Handoff<Result<Int, any Error>>()
        handoff.give(.success(7))
        #expect(try handoff.take().get() == 7)
    }
}

struct WorkerThreadTests {
    @Test func theBodyRunsOnANewThreadWithItsName() {
        let seen = Handoff<(name: String?, thread: ThreadID, isMain: Bool)>()
        WorkerThread.start(name: "test-named") {
            let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            seen.give((name, ThreadID.current, Thread.isMainThread))
        }
        let (name, thread, isMain) = seen.take()
        #expect(name == "test-named\n", "the system's name of the thread")
        #expect(thread != ThreadID.current)
        #expect(!isMain)
    }

    /// The name is the system's, as `top -H` and `perf` show it: its first 15 bytes.
    @Test func aLongNameIsCutToWhatTheSystemKeeps() throws {
        let seen = Handoff<String>()
        WorkerThread.start(name: "sqlite-group-commit") {
            seen.give((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
        }
        #expect(seen.take() == "sqlite-group-co\n")
    }

    @Test func joinWaitsForTheBodyToReturn() {
        let done = Locked(false)
        let release = Semaphore()
        let worker = WorkerThread.start(name: "test-join") {
            release.wait()
            usleep(10_000)
            done.withLock { $0 = true }
        }
        #expect(!worker.isFinished)
        #expect(!worker.join(timeout: .milliseconds(50)), "the body waits for the release")
        release.signal()
        worker.join()
        #expect(done.withLock { $0 }, "join returned after the body's last line")
        #expect(worker.isFinished)
        worker.join()  // again: at once
    }

    @Test func aStackSizeIsGivenToTheThread() {
        let size = Handoff<Int>()
        WorkerThread.start(name: "test-stack", stackSize: 1 << 20) {
            // pthread_getattr_np, looked up at run time: Swift's Glibc module does not declare it.
            typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
            let getAttributes = unsafeBitCast(dlsym(dlopen(nil, RTLD_NOW), "pthread_getattr_np"), to: GetAttributes.self)
            var attributes = pthread_attr_t()
            _ = getAttributes(pthread_self(), &attributes)
            var bytes = 0
            pthread_attr_getstacksize(&attributes, &bytes)
            pthread_attr_destroy(&attributes)
            size.give(bytes)
        }
        #expect(size.take() == 1 << 20)
    }

    @Test func runReturnsTheBodysResultToAnAsyncCaller() async {
        let caller = ThreadID.current
        let (value, thread) = await WorkerThread.run(name: "test-run") { (6 * 7, ThreadID.current) }
        #expect(value == 42)
        #expect(thread != caller)
    }
}

struct ThreadIDTests {
    @Test func sameOnOneThreadDifferentOnTwoAliveAtOnce() {
        #expect(ThreadID.current == ThreadID.current)
        let release = Semaphore()
        let other = Handoff<ThreadID>()
        let worker = WorkerThread.start(name: "test-id") {
            other.give(ThreadID.current)
            release.wait()
        }
        #expect(other.take() != ThreadID.current)
        release.signal()
        worker.join()
    }
}
