import Dispatch
import FleetConcurrency

/// Turns a call with a completion into a blocking or an `async` one, and a blocking call into one
/// with a completion: the one place the API's three forms of a write meet.
public enum BlockingCall {
    /// Starts the call and waits for its completion, which may run on this thread (before `start`
    /// returns) or on another. Never call it on the thread that completes the call (a store's writer
    /// thread): it would wait for itself. `start` runs as a `WaitingCaller`, so a callee may do on
    /// this thread what it would otherwise hand to a thread of its own.
    public static func wait<Value: Sendable>(
        _ start: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void
    ) throws -> Value {
        let outcome = Handoff<Result<Value, any Error>>()
        WaitingCaller.run {
            start { outcome.give($0) }
        }
        return try outcome.take().get()
    }

    /// Runs a blocking call on a Dispatch queue and hands its outcome to `completion` there.
    public static func inBackground<Value: Sendable>(
        _ completion: @escaping @Sendable (Result<Value, any Error>) -> Void,
        _ call: @escaping @Sendable () throws -> Value
    ) {
        DispatchQueue.global().async { completion(Result { try call() }) }
    }

    /// Starts the call and suspends until its completion.
    public static func resuming<Value: Sendable>(
        _ start: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            start { continuation.resume(with: $0) }
        }
    }
}
