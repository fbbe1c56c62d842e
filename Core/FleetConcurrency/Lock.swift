import Glibc

/// A mutual-exclusion lock: a plain POSIX mutex, for state many threads touch often (a store's
/// tables, a cache's shards, counters shared by writer threads).
///
/// Not `Synchronization.Mutex`: on Linux that is a priority-inheritance futex, which hands the lock
/// over through the kernel on every contended acquire; a memory store's tables behind it made 8
/// writer threads ~40x slower than one, and a counter shared by benchmark writers turned into a
/// lock convoy on two cores. A plain mutex lets a running thread take the lock again without a
/// switch. `Mutex` stays fine for state that is seldom contended (a flag, a setting read at start).
///
/// `lock()` and `unlock()` pair on one thread; prefer `withLock`, which cannot forget the unlock.
public final class Lock: @unchecked Sendable {
    // @unchecked: the mutex is the synchronisation; its memory never moves (allocated once).
    // Inlinable, as every method here: a lock taken on every store read is worth no call of its own.
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// An unlocked lock.
    public init() {
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Takes the lock, waiting while another thread holds it. Not reentrant: taking it again on the
    /// thread that holds it deadlocks.
    @inlinable
    public func lock() {
        let result = pthread_mutex_lock(mutex)
        precondition(result == 0, "pthread_mutex_lock failed: \(result)")
    }

    /// Gives the lock back; only the thread that took it may.
    @inlinable
    public func unlock() {
        let result = pthread_mutex_unlock(mutex)
        precondition(result == 0, "pthread_mutex_unlock failed: \(result)")
    }

    /// Runs `body` holding the lock (given back also when `body` throws).
    @inlinable
    public func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value behind its own `Lock`: the only way to it is `withLock`, so no access can forget the lock.
public final class Locked<Value> {
    // Every access to `value` holds `lock`.
    @usableFromInline let lock = Lock()
    @usableFromInline var value: Value

    /// The value `initial` behind a new lock.
    public init(_ initial: Value) {
        value = initial
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension Locked: @unchecked Sendable where Value: Sendable {}
