import FleetConsumer
import FleetEngine
import FleetModel
import Synchronization

/// A follower clock over the engine's `ManualClock`: time moves only when told to. A wait does not
/// block; it records how long was asked, moves the clock on by that much, and runs the hook (the
/// next step of a scripted trip), so that a polling follower runs the whole script on one thread.
final class TestClock: FollowClock {
    let manual: ManualClock
    private let waits = Mutex<[Double]>([])
    private let hook = Mutex<(@Sendable (Double) -> Void)?>(nil)
    /// Whether waits move the manual clock (scripted trips move it themselves).
    let advancesOnSleep: Bool

    init(_ manual: ManualClock = ManualClock(), advancesOnSleep: Bool = true) {
        self.manual = manual
        self.advancesOnSleep = advancesOnSleep
    }

    func now() -> Timestamp { manual.now() }

    func sleep(seconds: Double, stop: StopSignal) {
        waits.withLock { $0.append(seconds) }
        if advancesOnSleep { manual.advance(seconds: seconds) }
        let action = hook.withLock { $0 }
        action?(seconds)
    }

    /// The waits asked for, in order.
    var recordedWaits: [Double] { waits.withLock { $0 } }

    /// Runs `action` at every wait.
    func onSleep(_ action: @escaping @Sendable (Double) -> Void) {
        hook.withLock { $0 = action }
    }
}
