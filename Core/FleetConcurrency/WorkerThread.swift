import Foundation

/// A thread of its own for long-running blocking work (a store's writer loop, a listener on a socket,
/// a benchmark's writer), named so that `top -H`, `perf` and a debugger tell the threads apart. Such
/// work does not belong on Swift's cooperative pool (as many threads as cores, which it would hold)
/// nor on Dispatch's, whose unnamed threads are for short callbacks and timers.
public final class WorkerThread: Sendable {
    private let finished = WaitableState(false)

    private init() {}

    /// Starts `body` on a new thread named `name` (Linux keeps its first 15 bytes); `stackSize` in
    /// bytes, nil for the system's default (a reader of thousands of sockets takes less).
    @discardableResult
    public static func start(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> WorkerThread {
        let worker = WorkerThread()
        let thread = Thread {
            // Named by the thread itself, through the kernel's own file for it: Foundation gives a
            // name set before `start()` to the Thread object only, and its setter names the system
            // thread only once `start()` has recorded it, which the new thread can outrun on a busy
            // machine (Glibc's pthread_setname_np is not visible to Swift). Linux refuses a name
            // longer than 15 bytes.
            nameCurrentThread(String(decoding: name.utf8.prefix(15), as: UTF8.self))
            body()
            worker.finished.update { $0 = true }
        }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
        return worker
    }

    /// Whether the body has returned.
    public var isFinished: Bool {
        finished.withLock { $0 }
    }

    /// Waits until the body has returned (at once if it has); any number of threads may wait.
    public func join() {
        finished.wait(until: { $0 })
    }

    /// Waits at most `timeout` for the body to return; true when it has.
    public func join(timeout: Duration) -> Bool {
        finished.wait(until: { $0 }, timeout: timeout)
    }

    /// Runs blocking `body` on a new thread named `name` and returns its result to an `async` caller,
    /// which suspends meanwhile instead of holding one of the cooperative pool's few threads.
    public static func run<Value: Sendable>(name: String, _ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            start(name: name) { continuation.resume(returning: body()) }
        }
    }
}

/// Gives the calling thread its name in the system (what `top -H`, `perf` and gdb show), as
/// pthread_setname_np does on Linux: by writing `/proc/thread-self/comm`.
private func nameCurrentThread(_ name: String) {
    let descriptor = open("/proc/thread-self/comm", O_WRONLY)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    let bytes = Array(name.utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}
