import Dispatch

/// Calls a refresh every second, so that the live panel's countdowns tick between updates.
final class PanelTicker {
    private let timer: any DispatchSourceTimer

    /// Starts ticking.
    init(refresh: @escaping @Sendable () -> Void) {
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler(handler: refresh)
        timer.resume()
    }

    /// Stops ticking.
    func cancel() {
        timer.cancel()
    }
}
