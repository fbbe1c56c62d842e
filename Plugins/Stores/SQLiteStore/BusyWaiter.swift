import CSQLite
import Glibc

/// SQLite's busy handler for one connection: while another connection (often another process) holds
/// the lock, wait with a short, growing, jittered back-off, and give up once `timeout` has passed
/// since the lock was first found busy. SQLite then returns SQLITE_BUSY, which the store reports as
/// `storeBusy`.
final class BusyWaiter {
    /// How long one lock attempt may wait in total.
    let timeoutNanoseconds: UInt64
    /// When the current busy episode began (monotonic clock).
    private var startedAt: UInt64 = 0
    private var random = SystemRandomNumberGenerator()

    init(timeoutMilliseconds: Int) {
        self.timeoutNanoseconds = UInt64(max(0, timeoutMilliseconds)) * 1_000_000
    }

    /// Installs this waiter on a connection; the connection must not outlive it.
    func install(on db: OpaquePointer) {
        sqlite3_busy_handler(db, busyCallback, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called by SQLite with the number of times it already waited for this lock.
    /// Returns whether SQLite should try again.
    func shouldRetry(attempt: Int32) -> Bool {
        let now = Self.monotonicNanoseconds()
        if attempt == 0 { startedAt = now }
        let elapsed = now &- startedAt
        guard elapsed < timeoutNanoseconds else { return false }
        // 50 µs, 100 µs, 200 µs … capped at 5 ms, plus up to the same again at random,
        // so that several waiters do not wake in lockstep.
        let base = UInt64(50_000) << UInt64(min(attempt, 7))
        let capped = min(base, 5_000_000)
        let delay = min(capped + UInt64.random(in: 0...capped, using: &random), timeoutNanoseconds - elapsed)
        var request = timespec(tv_sec: Int(delay / 1_000_000_000), tv_nsec: Int(delay % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
        return true
    }

    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// The C entry point SQLite calls; `context` is the connection's `BusyWaiter`.
private let busyCallback: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, attempt in
    guard let context else { return 0 }
    let waiter = Unmanaged<BusyWaiter>.fromOpaque(context).takeUnretainedValue()
    return waiter.shouldRetry(attempt: attempt) ? 1 : 0
}
