import Synchronization

/// The idle easy handles of one client, lent to one calling thread at a time.
///
/// Last in, first out: a thread making calls one after another gets the same handle back each time,
/// and with it the same keep-alive connection. Concurrent callers get a handle each; at most
/// `maxIdle` handles are kept when they come back.
final class EasyHandlePool: Sendable {
    private let share: CurlShare
    private let maxIdle: Int
    private let idle = Mutex<[CurlEasyHandle]>([])

    /// An empty pool whose handles use `share`.
    init(share: CurlShare, maxIdle: Int) {
        self.share = share
        self.maxIdle = max(0, maxIdle)
    }

    /// An idle handle, or a new one when none is idle.
    func checkOut() throws -> CurlEasyHandle {
        if let handle = idle.withLock({ $0.popLast() }) { return handle }
        return try CurlEasyHandle(share: share)
    }

    /// Returns a handle after use; beyond `maxIdle` it is dropped, which closes it and its connections
    /// once the caller lets go of it (outside the lock).
    func checkIn(_ handle: CurlEasyHandle) {
        idle.withLock { handles in
            if handles.count < maxIdle { handles.append(handle) }
        }
    }
}
