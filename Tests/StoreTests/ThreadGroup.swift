import Foundation
import Synchronization

/// Runs work on several OS threads at once (not tasks: the work blocks, as store calls do).
enum ThreadGroup {
    /// Runs `body(0)` … `body(count - 1)` each on its own thread, all released together,
    /// waits for all of them and rethrows the first error.
    static func run(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
        let errors = Mutex<[any Error]>([])
        let start = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        for index in 0..<count {
            let thread = Thread {
                start.wait()
                do {
                    try body(index)
                } catch {
                    errors.withLock { $0.append(error) }
                }
                done.signal()
            }
            thread.start()
        }
        for _ in 0..<count { start.signal() }
        for _ in 0..<count { done.wait() }
        if let first = errors.withLock({ $0.first }) {
            throw first
        }
    }

    /// `run`, keeping what each thread returned, in thread order.
    static func collect<Value: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Value) throws -> [Value] {
        let values = Mutex<[Int: Value]>([:])
        try run(count) { index in
            let value = try body(index)
            values.withLock { $0[index] = value }
        }
        return values.withLock { found in (0..<count).compactMap { found[$0] } }
    }
}
