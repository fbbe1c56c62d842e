import Foundation

/// Runs blocking client code on a thread of its own (the client is made for threads, not tasks)
/// and returns its result to the async test.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Runs `body` on `count` threads at once and returns their results in thread order.
func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) async throws -> [T] {
    try await withThrowingTaskGroup(of: (Int, T).self) { group in
        for index in 0..<count {
            group.addTask { (index, try await onThread { try body(index) }) }
        }
        var results: [(Int, T)] = []
        for try await result in group { results.append(result) }
        return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
