import Foundation

/// Marks the threads an owner starts, so code can tell whether it runs on one of them: a `deinit`
/// run by a completion on a worker thread must not wait for that very worker to stop.
public struct ThreadMark: Sendable {
    private let key = "FleetConcurrency.ThreadMark." + UUID().uuidString

    /// A mark no thread carries yet.
    public init() {}

    /// Marks the calling thread (a worker calls it first thing).
    public func markCurrentThread() {
        Thread.current.threadDictionary[key] = true
    }

    /// Whether the calling thread was marked.
    public var isCurrentThreadMarked: Bool {
        Thread.current.threadDictionary[key] != nil
    }
}
