import Dispatch
import FleetCLI
import Glibc
import Testing

@Suite struct SignalWatcherTests {
    /// A second watcher of a signal in one process still hears it. libdispatch installs its own
    /// handler once per signal and process; a watcher that set SIG_IGN over it made the kernel
    /// discard every later signal sent to the process.
    @Test func aSecondWatcherOfOneSignalStillHearsIt() {
        let heard = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "signal-watcher-test")
        let first = SignalWatcher(signals: [SIGUSR2], queue: queue) { _ in }
        let second = SignalWatcher(signals: [SIGUSR2], queue: queue) { _ in heard.signal() }
        var current = sigaction()
        sigaction(SIGUSR2, nil, &current)
        let handler = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
        #expect(handler != unsafeBitCast(SIG_IGN, to: Int.self), "SIGUSR2 is ignored: a signal to the process would be discarded")
        kill(getpid(), SIGUSR2)
        #expect(heard.wait(timeout: .now() + .seconds(5)) == .success, "the second watcher never heard SIGUSR2")
        withExtendedLifetime((first, second)) {}
    }
}
