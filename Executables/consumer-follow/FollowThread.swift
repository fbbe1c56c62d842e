import Foundation

/// Runs the blocking follower on a thread of its own, so that the command's task can await it.
enum FollowThread {
    /// Runs `body` on a new thread and returns its result.
    static func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.name = "consumer-follow"
            thread.start()
        }
    }
}
