import FleetConcurrency
/// The time that location sources and the reporter run on, in seconds since 1970: the system's, sped
/// up for simulations (`--speedup`), or moved by hand in tests so that nothing ever sleeps.
public protocol TimeSource: Sendable {
    /// The current time, seconds since 1970.
    func now() -> Double
    /// Waits until `deadline` (this source's time) or until `wakeup` is signalled; true when woken.
    func wait(until deadline: Double, wakeup: Doorbell) -> Bool
    /// Seconds of this time per real second: 1, or the `--speedup` factor.
    var rate: Double { get }
}
