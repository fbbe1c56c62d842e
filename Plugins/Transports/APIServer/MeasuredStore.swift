import FleetStore
import Foundation

/// A store that reports how long each commit takes, and passes every other call on unchanged.
final class MeasuredStore: Store {
    let base: any Store
    let metrics: ServerMetrics

    init(_ base: any Store, metrics: ServerMetrics) {
        self.base = base
        self.metrics = metrics
    }

    func get(_ key: RecordKey) throws -> StoreRecord? { try base.get(key) }

    func withSnapshot<Value>(_ body: (any StoreSnapshot) throws -> Value) throws -> Value {
        try base.withSnapshot(body)
    }

    func commit(_ writes: [StoreWrite]) throws -> [UInt64] {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { metrics.commit(seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
        return try base.commit(writes)
    }

    func commit(_ writes: [StoreWrite], completion: @escaping @Sendable (Result<[UInt64], any Error>) -> Void) {
        let start = DispatchTime.now().uptimeNanoseconds
        base.commit(writes) { [metrics] result in
            metrics.commit(seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            completion(result)
        }
    }

    func list(_ kind: RecordKind, provider: String, afterID: String?, limit: Int) throws -> [StoreRecord] {
        try base.list(kind, provider: provider, afterID: afterID, limit: limit)
    }

    func nearby(provider: String, center: IndexPoint, radiusMeters: Double) throws -> [StoreRecord] {
        try base.nearby(provider: provider, center: center, radiusMeters: radiusMeters)
    }

    // Forwarded explicitly: the protocol's default would read every payload through `nearby`.
    func nearbyIndex(provider: String, center: IndexPoint, radiusMeters: Double) throws -> [IndexEntry] {
        try base.nearbyIndex(provider: provider, center: center, radiusMeters: radiusMeters)
    }

    func owned(by owner: String, provider: String) throws -> [StoreRecord] {
        try base.owned(by: owner, provider: provider)
    }

    func history(_ query: HistoryQuery, after cursor: HistoryCursor?, limit: Int) throws -> [HistoryPoint] {
        try base.history(query, after: cursor, limit: limit)
    }

    func pruneHistory(before time: Int64, limit: Int) throws -> Int {
        try base.pruneHistory(before: time, limit: limit)
    }

    var isSharedWithOtherProcesses: Bool { base.isSharedWithOtherProcesses }

    func observeChanges(_ handler: @escaping @Sendable ([RecordKey]) -> Void) -> (any StoreChangeObservation)? {
        base.observeChanges(handler)
    }

    func close() throws { try base.close() }
}
