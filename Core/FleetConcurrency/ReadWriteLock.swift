import Glibc

/// A POSIX read-write lock: many readers at once, or one writer alone. For state read on every call
/// and changed seldom (a routing library's profiles, read by every route and replaced on a reload).
public final class ReadWriteLock: @unchecked Sendable {
    // @unchecked: the pthread lock is the synchronisation; its memory never moves.
    private let handle = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    /// An unlocked lock.
    public init() {
        handle.initialize(to: pthread_rwlock_t())
        let result = pthread_rwlock_init(handle, nil)
        precondition(result == 0, "pthread_rwlock_init failed: \(result)")
    }

    deinit {
        pthread_rwlock_destroy(handle)
        handle.deinitialize(count: 1)
        handle.deallocate()
    }

    /// Runs `body` as one of possibly many readers.
    public func reading<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_rwlock_rdlock(handle)
        defer { pthread_rwlock_unlock(handle) }
        return try body()
    }

    /// Runs `body` as the only holder: no reader and no other writer meanwhile.
    public func writing<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_rwlock_wrlock(handle)
        defer { pthread_rwlock_unlock(handle) }
        return try body()
    }
}
