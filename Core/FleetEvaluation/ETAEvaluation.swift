import FleetGeo
import FleetLearning

/// Judges the engine's ETAs on a set of recorded drives: cleans the drives, leaves out those too slow to be
/// drives of the category (walks in a mixed set), replays each along its route, and reports the error as driven
/// and with the waits cut out.
public struct ETAEvaluation: Sendable {
    /// How each drive is replayed.
    public var replay: ETAReplay
    /// Drives averaging less than this, stops included, are left out (metres per second; 0 keeps all).
    public var minimumAverageMetersPerSecond: Double

    /// An evaluation with a replay and a speed filter.
    public init(replay: ETAReplay = ETAReplay(), minimumAverageMetersPerSecond: Double = 0) {
        self.replay = replay
        self.minimumAverageMetersPerSecond = minimumAverageMetersPerSecond
    }

    /// The drives that are judged: without GPS jumps, at least two fixes apart in time, fast enough.
    public func selected(_ drives: [Drive]) -> [Drive] {
        drives.map { $0.withoutJumps(maximumMetersPerSecond: replay.model.maximumPlausibleMetersPerSecond) }
            .filter { $0.fixes.count >= 2 && $0.durationSeconds > 0 && $0.averageMetersPerSecond >= minimumAverageMetersPerSecond }
    }

    /// The accuracy on `drives` as driven and with their waits cut out, each replayed along its own path.
    public func evaluate(_ drives: [Drive]) -> (asDriven: AccuracyReport, withoutWaits: AccuracyReport) {
        evaluate(drives, route: { $0.path })
    }

    /// The accuracy on `drives`, each replayed along the route `route` gives for it (a router's plan from its first
    /// fix to its last).
    public func evaluate(_ drives: [Drive],
                         route: (Drive) throws -> [GeoPoint]) rethrows -> (asDriven: AccuracyReport, withoutWaits: AccuracyReport) {
        let chosen = selected(drives)
        var asDriven: [[ReplayPoint]] = []
        var withoutWaits: [[ReplayPoint]] = []
        for drive in chosen {
            let path = try route(drive)
            asDriven.append(replay.replay(drive, along: path))
            withoutWaits.append(replay.replay(drive.withoutWaits(), along: path))
        }
        return (AccuracyReport(replays: asDriven), AccuracyReport(replays: withoutWaits))
    }

    /// The accuracy on `drives` of the learned estimate, learned from `history` only (never from the drives judged),
    /// beside the engine without history and the plain history baseline over the same history. With the waits cut
    /// out, the history is learned with its waits cut out too.
    public func evaluate(_ drives: [Drive], history: [Drive],
                         route: (Drive) throws -> [GeoPoint]) rethrows -> (asDriven: AccuracyReport, withoutWaits: AccuracyReport) {
        let learned = Learned(history: selected(history))
        var asDriven: [[ReplayPoint]] = []
        var withoutWaits: [[ReplayPoint]] = []
        for drive in selected(drives) {
            let path = try route(drive)
            asDriven.append(learned.asDriven(replay).replay(drive, along: path))
            withoutWaits.append(learned.withoutWaits(replay).replay(drive.withoutWaits(), along: path))
        }
        return (AccuracyReport(replays: asDriven), AccuracyReport(replays: withoutWaits))
    }

    /// Leave one out: each drive of `drives` judged with what was learned from the others (and from `history`),
    /// once per drive; the figures are over all of them. No drive is ever judged by figures it helped learn.
    public func crossValidate(_ drives: [Drive], history: [Drive],
                              route: (Drive) throws -> [GeoPoint]) rethrows -> (asDriven: AccuracyReport, withoutWaits: AccuracyReport) {
        let chosen = selected(drives)
        let extra = selected(history)
        var asDriven: [[ReplayPoint]] = []
        var withoutWaits: [[ReplayPoint]] = []
        for (index, drive) in chosen.enumerated() {
            let learned = Learned(history: extra + chosen.enumerated().filter { $0.offset != index }.map(\.element))
            let path = try route(drive)
            asDriven.append(learned.asDriven(replay).replay(drive, along: path))
            withoutWaits.append(learned.withoutWaits(replay).replay(drive.withoutWaits(), along: path))
        }
        return (AccuracyReport(replays: asDriven), AccuracyReport(replays: withoutWaits))
    }

    /// The learned estimate on `drives`, learned from `history`, each drive along its own path.
    public func evaluate(_ drives: [Drive], history: [Drive]) -> (asDriven: AccuracyReport, withoutWaits: AccuracyReport) {
        evaluate(drives, history: history, route: { $0.path })
    }

    /// Leave one out over `drives` (and learning from `history` too), each drive along its own path.
    public func crossValidate(_ drives: [Drive], history: [Drive] = []) -> (asDriven: AccuracyReport, withoutWaits: AccuracyReport) {
        crossValidate(drives, history: history, route: { $0.path })
    }

    /// What one history teaches, as driven and with its waits cut out.
    private struct Learned {
        let history: ReplayHistory
        let historyWithoutWaits: ReplayHistory

        init(history drives: [Drive]) {
            history = ReplayHistory(learningFrom: drives)
            historyWithoutWaits = ReplayHistory(learningFrom: drives.map { $0.withoutWaits() })
        }

        func asDriven(_ replay: ETAReplay) -> ETAReplay {
            var replay = replay
            replay.history = history
            return replay
        }

        func withoutWaits(_ replay: ETAReplay) -> ETAReplay {
            var replay = replay
            replay.history = historyWithoutWaits
            return replay
        }
    }
}
