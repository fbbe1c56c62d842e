import FleetConcurrency
import FleetEngine
import FleetModel
import Synchronization

/// An engine clock that reads a journal record's time while that record is applied, and another clock
/// (the wall clock by default) otherwise.
///
/// Applying a record with the time it was made is what lets every process compute the same result
/// for it. The pinned time holds for the thread that applies the record only, so reads made meanwhile
/// on other threads still see `base`.
public final class RecordTimeClock: EngineClock {
    /// The clock read outside `pinned(to:_:)`.
    public let base: any EngineClock
    private let pins = Mutex<[(thread: ThreadID, time: Timestamp)]>([])

    /// A clock that reads `base` unless pinned.
    public init(base: any EngineClock = SystemClock()) {
        self.base = base
    }

    /// The pinned time on the thread running `pinned(to:_:)`, else `base`'s time.
    public func now() -> Timestamp {
        let me = ThreadID.current
        if let pin = pins.withLock({ $0.last(where: { $0.thread == me }) }) {
            return pin.time
        }
        return base.now()
    }

    /// Runs `body` with this thread's `now()` reading `time`.
    public func pinned<Result>(to time: Timestamp, _ body: () throws -> Result) rethrows -> Result {
        let me = ThreadID.current
        pins.withLock { $0.append((me, time)) }
        defer {
            pins.withLock { pins in
                if let index = pins.lastIndex(where: { $0.thread == me }) { pins.remove(at: index) }
            }
        }
        return try body()
    }
}
