import FleetConcurrency
import Foundation
import Synchronization

/// Keeps a store's position history to its retention: a background thread that removes points
/// older than the retention in small steps (`Store.pruneHistory(before:limit:)`), pausing between
/// steps so that writers never wait long behind it, and looking again every `idleSeconds` once
/// nothing is left to remove.
public final class HistoryPruner: Sendable {
    /// How long points are kept; 0 removes every point.
    public let retentionSeconds: Double
    /// The most points one step removes.
    public let stepSize: Int
    /// The pause between two steps while old points remain.
    public let pauseSeconds: Double
    /// The pause once none remain.
    public let idleSeconds: Double

    private let store: any Store
    private let now: @Sendable () -> Double
    private let log: @Sendable (String) -> Void
    private let loop = Mutex<BackgroundLoop?>(nil)

    /// A pruner of `store`'s history; `now` gives the time in seconds since 1970 (the system's by
    /// default), `log` what failed.
    public init(store: any Store, retentionSeconds: Double, stepSize: Int = 500, pauseSeconds: Double = 0.02,
                idleSeconds: Double = 60, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.store = store
        self.retentionSeconds = max(0, retentionSeconds)
        self.stepSize = max(1, stepSize)
        self.pauseSeconds = pauseSeconds
        self.idleSeconds = idleSeconds
        self.now = now
        self.log = log
    }

    /// The time before which points go, in the history's microseconds.
    public var cutoff: Int64 {
        Int64(((now() - retentionSeconds) * 1_000_000).rounded(.down))
    }

    /// One step: removes up to `stepSize` points older than the retention; returns how many.
    @discardableResult
    public func step() throws -> Int {
        try store.pruneHistory(before: cutoff, limit: stepSize)
    }

    /// Starts the background thread (once).
    public func start() {
        loop.withLock { loop in
            guard loop == nil else { return }
            let started = BackgroundLoop(name: "history-pruner") { [self] in
                do {
                    return try step() == stepSize ? pauseSeconds : idleSeconds
                } catch {
                    log("pruning the position history failed, trying again in \(Int(idleSeconds)) s: \(error)")
                    return idleSeconds
                }
            }
            started.start()
            loop = started
        }
    }

    /// Stops the thread and waits for it to end (a step under way finishes first).
    public func stop() {
        loop.withLock { $0 }?.stop()
    }
}
