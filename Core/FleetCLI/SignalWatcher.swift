import Dispatch
import FleetConcurrency
import Glibc

/// Delivers SIGTERM, SIGINT and SIGUSR1 as calls on a dispatch queue (DispatchSourceSignal): the raw
/// signal handlers are ignored, so no code runs inside a signal handler. Used by every daemon and
/// long-running command; `@unchecked Sendable`: the sources are only kept alive, never touched.
public final class SignalWatcher: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    /// Watches `signals`, calling `handler` with the signal number on `queue`; returns once the
    /// signals are watched, so none sent after it returns is missed.
    public init(signals: [Int32], queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        // A parent may have started us with these signals blocked (the mask is inherited): unblock them.
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        let registered = Semaphore()
        sources = signals.map { number in
            // Ignored until the source listens, so that one arriving meanwhile does not end the
            // process. Only over the default action: libdispatch installs its own handler once per
            // signal and per process, and a second watcher's SIG_IGN over it would stay, so that
            // every later signal was discarded.
            var current = sigaction()
            sigaction(number, nil, &current)
            if current.__sigaction_handler.sa_handler == nil { signal(number, SIG_IGN) }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            return source
        }
        // A source registers with the kernel asynchronously, and a signal that arrives before that,
        // with the disposition already SIG_IGN, is lost: a SIGTERM sent right after a daemon said
        // it was ready went unseen and the daemon ran on. Return only once every source listens
        // (bounded, so a `queue` that is busy cannot hang the caller).
        for _ in sources { _ = registered.wait(timeout: .seconds(5)) }
    }

    /// The name of a signal (`SIGTERM`).
    public static func name(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGUSR1: "SIGUSR1"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
