import Glibc

/// Whether the calling thread waits for the completion of the calls it makes right now, as
/// `BlockingCall.wait` does. A callee that would hand the work to a thread of its own and complete
/// from there may do it on such a caller's thread instead: the caller is blocked either way, and
/// the hand-off costs two thread switches per call. (The PostgreSQL store's commits with 8 blocking
/// writers: the futex waits and wakes of the hand-off were 19% of the process's samples, 1% without.)
public enum WaitingCaller {
    /// A thread-specific value, not Foundation's thread dictionary: it is read on every commit.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// True on this thread inside `run(_:)`.
    public static var isWaiting: Bool { pthread_getspecific(key) != nil }

    /// Runs `body` with `isWaiting` true on this thread, and as it was afterwards.
    public static func run<Value>(_ body: () throws -> Value) rethrows -> Value {
        let before = pthread_getspecific(key)
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(key, before) }
        return try body()
    }
}
