#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import FleetCLI
import FleetConcurrency
import FleetStore
import APIServer

/// The process around `fleet-admin serve`'s server: it runs until SIGTERM or SIGINT and tells
/// systemd (Type=notify) when it is ready, alive and stopping. Kept out of APIServer, which only
/// serves, so that a server can be embedded or tested without owning the process's signals.
enum ServeLifecycle {
    /// Serves `store`; `ready` gets the bound URL once the server listens (the caller prints it).
    /// Returns after a graceful stop: new connections refused, in-flight requests finished, watches
    /// closed, the store closed. sd_notify READY/STOPPING/WATCHDOG when `NOTIFY_SOCKET` is set.
    static func run(store: any Store, options: ServeOptions, ready: (String) -> Void) throws {
        // Signals arrive on a queue, not in a raw handler; watched before the server starts, so a
        // SIGTERM right after READY is never missed.
        signal(SIGPIPE, SIG_IGN)
        let stop = Semaphore()
        let queue = DispatchQueue(label: "fleet-admin.serve.signals")
        let signals = SignalWatcher(signals: [SIGTERM, SIGINT], queue: queue) { _ in stop.signal() }
        defer { withExtendedLifetime(signals) {} }

        let server = try FleetServer.start(store: store, options: options)
        let notifier = SystemdNotifier()
        var watchdog: (any DispatchSourceTimer)?
        if let interval = SystemdNotifier.watchdogInterval() {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            let half = interval / 2
            timer.schedule(deadline: .now(), repeating: .nanoseconds(Int(half.components.seconds) * 1_000_000_000 + Int(half.components.attoseconds / 1_000_000_000)))
            timer.setEventHandler { notifier.watchdog() }
            timer.resume()
            watchdog = timer
        }
        ready(server.url)
        notifier.send("READY=1", "STATUS=serving on \(server.url)")
        stop.wait()

        notifier.send("STOPPING=1", "STATUS=stopping")
        watchdog?.cancel()
        try server.stop()
    }
}
