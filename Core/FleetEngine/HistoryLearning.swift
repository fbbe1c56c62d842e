import FleetConcurrency
import FleetGeo
import FleetLearning
import FleetStore
import Foundation
import Synchronization

/// What one run of learning from the position history did.
public struct HistoryLearningSummary: Sendable, Hashable {
    /// The span read, microseconds since 1970-01-01 UTC: from the last run's end to this run's.
    public var from: Int64
    public var to: Int64
    /// Points read, vehicles they came from, and rows added to the learned tables.
    public var points: Int
    public var vehicles: Int
    public var rows: Int
    /// Providers whose tables changed.
    public var providers: [String]
}

/// Learns the fleet's travel times from the store's position history (`Store.history`): every point since the last
/// run, vehicle by vehicle, through ``DriveLearner``, added to each provider's tables (``LearnedTimesStorage``) in the
/// same commit that moves the provider's mark of what was learned. So several nodes may run it at once: one of them
/// moves the mark, the others find it moved and learn nothing twice. The interval between a vehicle's last point of
/// one run and its first of the next is not learned (a few seconds of a drive per run).
public struct HistoryLearning: Sendable {
    /// Where the history and the tables are.
    public let storage: LearnedTimesStorage
    /// How positions become rows.
    public var learner: DriveLearner

    /// Learning over `storage`'s store, with `learner`.
    public init(storage: LearnedTimesStorage, learner: DriveLearner) {
        self.storage = storage
        self.learner = learner
    }

    /// The ID of the record holding a provider's mark (beside its tiles, whose IDs are `east:north`).
    static let markID = "learned-until"

    /// Learns what `provider` drove since its mark, up to `now` (epoch seconds); nil `provider` learns every provider
    /// the history holds points of (the mark then kept per provider).
    public func run(provider: String?, now: Double) throws -> HistoryLearningSummary {
        let to = Int64(now * 1_000_000)
        let store = storage.store
        // Every provider starts from its own mark; the earliest of them bounds the read.
        var marks: [String: (version: UInt64, time: Int64)] = [:]
        func mark(_ provider: String) throws -> (version: UInt64, time: Int64) {
            if let known = marks[provider] { return known }
            let record = try store.get(RecordKey(.roadTimes, provider: provider, id: Self.markID))
            let value = (record?.version ?? 0, record.flatMap { Self.decodeMark($0.payload) } ?? .min)
            marks[provider] = value
            return value
        }
        let from = try provider.map { try mark($0).time } ?? .min
        // Rides vehicles' and delivery vehicles' drives alike (a query of no kind), each vehicle's
        // points apart, by kind and ID: a rides vehicle and a delivery vehicle may share an ID.
        var fixes: [String: [RecordKey: [Fix]]] = [:]
        var points = 0
        try store.forEachHistoryPoint(HistoryQuery(provider: provider, from: from == .min ? .min : from, to: to)) { point in
            guard point.time >= (try mark(point.provider).time) else { return true }
            fixes[point.provider, default: [:]][RecordKey(point.kind, provider: point.provider, id: point.vehicleID), default: []]
                .append(Fix(time: point.seconds, position: GeoPoint(latitude: point.latitude, longitude: point.longitude)))
            points += 1
            return true
        }
        var summary = HistoryLearningSummary(from: from, to: to, points: points, vehicles: 0, rows: 0, providers: [])
        let providers = Set(fixes.keys).union(provider.map { [$0] } ?? [])
        for name in providers.sorted() {
            var times = RoadTimes()
            for (_, vehicleFixes) in fixes[name] ?? [:] {
                learner.learn(vehicleFixes, into: &times)
                summary.vehicles += 1
            }
            let rows = times.rows
            let (version, _) = try mark(name)
            let markWrite = StoreWrite.put(StoreRecord(key: RecordKey(.roadTimes, provider: name, id: Self.markID), version: 0,
                                                       payload: Self.encodeMark(to)), expectedVersion: version)
            do {
                try storage.add(rows, provider: name, with: [markWrite])
                summary.rows += rows.count
                summary.providers.append(name)
            } catch is StoreConflict {
                // Another node learned this span first, or the tables changed meanwhile: the mark stays where
                // it was, so a later run learns what is left.
                continue
            }
        }
        return summary
    }

    static func encodeMark(_ time: Int64) -> [UInt8] {
        withUnsafeBytes(of: time.littleEndian) { Array($0) }
    }

    static func decodeMark(_ bytes: [UInt8]) -> Int64? {
        guard bytes.count == 8 else { return nil }
        return Int64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(as: Int64.self) })
    }
}

/// Learns from the position history in the background while a server runs: a thread that runs ``HistoryLearning``
/// every ``intervalSeconds``, so the learned tables follow what the fleet drives without an operator. Several nodes
/// may each run one over the same store: each span is learned once (the mark moves in the same commit).
public final class HistoryLearningJob: Sendable {
    /// Seconds between two runs.
    public let intervalSeconds: Double
    private let learning: HistoryLearning
    private let provider: String?
    private let now: @Sendable () -> Double
    private let log: @Sendable (String) -> Void
    private let onLearned: @Sendable () -> Void
    private let loop = Mutex<BackgroundLoop?>(nil)

    /// A job learning `provider`'s history (nil: every provider's) every `intervalSeconds`; `onLearned` runs after a
    /// run that added rows, `log` says what failed.
    public init(learning: HistoryLearning, provider: String?, intervalSeconds: Double = 300,
                now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
                log: @escaping @Sendable (String) -> Void = { _ in }, onLearned: @escaping @Sendable () -> Void = {}) {
        self.learning = learning
        self.provider = provider
        self.intervalSeconds = intervalSeconds
        self.now = now
        self.log = log
        self.onLearned = onLearned
    }

    /// Starts the background thread (once); its first run is one interval after the start.
    public func start() {
        loop.withLock { loop in
            guard loop == nil else { return }
            let started = BackgroundLoop(name: "history-learning", initialDelaySeconds: intervalSeconds) { [self] in
                do {
                    if try learning.run(provider: provider, now: now()).rows > 0 { onLearned() }
                } catch {
                    log("learning travel times from the position history failed, trying again in \(Int(intervalSeconds)) s: \(error)")
                }
                return intervalSeconds
            }
            started.start()
            loop = started
        }
    }

    /// Stops the thread and waits for it to end (a run under way finishes first).
    public func stop() {
        loop.withLock { $0 }?.stop()
    }
}
