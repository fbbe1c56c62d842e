import Glibc

/// Which thread is running: equal for calls on the same thread, different for threads alive at the
/// same time (an ended thread's identity may be reused by a later one). For state kept per thread
/// (a time pinned while a record is applied) and for spreading threads over shards.
public struct ThreadID: Hashable, Sendable {
    /// The POSIX thread id.
    public let rawValue: UInt

    /// The calling thread.
    public static var current: ThreadID {
        ThreadID(rawValue: UInt(pthread_self()))
    }
}
