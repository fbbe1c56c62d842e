import FleetStore
import MemoryStore
import Foundation
import Testing

/// What every `Store` must do with the position history, run against each store in `StoreFactories.all`.
@Suite("Store history contract")
struct HistoryContract {
    /// A vehicle's update carrying a point at `time` (seconds), in trip `trips`; of a delivery
    /// vehicle when `kind` says so.
    static func update(_ id: String, kind: RecordKind = .vehicle, provider: String = "p", time: Int64, trips: [String] = [],
                       latitude: Double = 52.5, speed: Double? = 8.5) -> StoreRecord {
        var record = Sample.vehicle(id, provider: provider, at: IndexPoint(latitude: latitude, longitude: 13.4))
        record.key.kind = kind
        record.historyPoint = HistoryPoint(kind: kind, provider: provider, vehicleID: id, time: time * 1_000_000, latitude: latitude, longitude: 13.4,
                                           accuracyMeters: 4, speedMetersPerSecond: speed, headingDegrees: 90,
                                           vehicleState: "ONLINE", tripIDs: trips)
        return record
    }

    /// Creates vehicle `id` (a delivery vehicle when `kind` says so) and updates it once per time,
    /// each update with its point.
    static func drive(_ id: String, kind: RecordKind = .vehicle, provider: String = "p", times: [Int64], trips: [String] = [],
                      in store: any Store) throws {
        var version: UInt64 = 0
        for (i, time) in times.enumerated() {
            version = try store.commit(.put(update(id, kind: kind, provider: provider, time: time, trips: trips, latitude: 52.5 + Double(i) / 1000),
                                            expectedVersion: version))
        }
    }

    static func times(_ points: [HistoryPoint]) -> [Int64] { points.map { $0.time / 1_000_000 } }

    /// After a migration from before history points had a kind: `store`'s one point (v1 of provider
    /// p, ONLINE) reads as a rides vehicle's, and a delivery vehicle v1's points are kept beside it.
    static func expectOnePointOfARidesVehicleKeptBeside(deliveryVehiclePointsIn store: any Store) throws {
        let old = try store.history(HistoryQuery(kind: .vehicle, provider: "p", vehicleID: "v1"), after: nil, limit: 10)
        #expect(old.count == 1 && old.first?.kind == .vehicle && old.first?.vehicleState == "ONLINE")
        try drive("v1", kind: .deliveryVehicle, times: [20], in: store)
        #expect(try store.history(HistoryQuery(), after: nil, limit: 10).map(\.kind) == [.vehicle, .deliveryVehicle])
        #expect(try store.history(HistoryQuery(kind: .vehicle, provider: "p", vehicleID: "v1"), after: nil, limit: 10) == old)
    }

    @Test(arguments: StoreFactories.all)
    func everyPointIsKeptWithAllItsFieldsAndNotInTheRecord(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            try Self.drive("v1", times: [100, 101], trips: ["t1", "t2"], in: store)
            let points = try store.history(HistoryQuery(provider: "p", vehicleID: "v1"), after: nil, limit: 10)
            #expect(Self.times(points) == [100, 101])
            let first = try #require(points.first)
            #expect(first.kind == .vehicle && first.provider == "p" && first.vehicleID == "v1")
            #expect(first.latitude == 52.5 && first.longitude == 13.4)
            #expect(first.accuracyMeters == 4 && first.speedMetersPerSecond == 8.5 && first.headingDegrees == 90)
            #expect(first.vehicleState == "ONLINE")
            #expect(first.tripIDs == ["t1", "t2"])
            #expect(points[1].sequence > points[0].sequence)
            #expect(try store.get(RecordKey(.vehicle, provider: "p", id: "v1"))?.historyPoint == nil)
        }
    }

    @Test(arguments: StoreFactories.all)
    func aWriteThatConflictsKeepsNoPoint(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            try Self.drive("v1", times: [100], in: store)
            #expect(throws: StoreConflict.self) {
                try store.commit(.put(Self.update("v1", time: 200), expectedVersion: 7))
            }
            #expect(throws: StoreConflict.self) {
                try store.commit(.put(Self.update("v1", time: 300), expectedVersion: 0))
            }
            #expect(Self.times(try store.history(HistoryQuery(), after: nil, limit: 10)) == [100])
        }
    }

    @Test(arguments: StoreFactories.all)
    func readsAreInTimeOrderBySpanVehicleTripAndProvider(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            try Self.drive("v1", times: [10, 30, 50], trips: ["t1"], in: store)
            try Self.drive("v2", times: [20, 40], trips: [], in: store)
            try Self.drive("v1", provider: "q", times: [25], in: store)
            // A late point (the device's clock behind) still reads in time order.
            try store.commit(.put(Self.update("v2", time: 15), expectedVersion: 2))

            #expect(Self.times(try store.history(HistoryQuery(), after: nil, limit: 100)) == [10, 15, 20, 25, 30, 40, 50])
            #expect(Self.times(try store.history(HistoryQuery(provider: "p"), after: nil, limit: 100)) == [10, 15, 20, 30, 40, 50])
            #expect(Self.times(try store.history(HistoryQuery(provider: "p", vehicleID: "v2"), after: nil, limit: 100)) == [15, 20, 40])
            #expect(Self.times(try store.history(HistoryQuery(provider: "p", vehicleID: "v1", tripID: "t1"), after: nil, limit: 100)) == [10, 30, 50])
            #expect(try store.history(HistoryQuery(provider: "p", vehicleID: "v1", tripID: "t"), after: nil, limit: 100).isEmpty)
            #expect(Self.times(try store.history(HistoryQuery(tripID: "t1"), after: nil, limit: 100)) == [10, 30, 50])
            // From inclusive, to exclusive.
            #expect(Self.times(try store.history(HistoryQuery(provider: "p", from: 20_000_000, to: 40_000_000), after: nil, limit: 100)) == [20, 30])
            #expect(Self.times(try store.history(HistoryQuery(provider: "p", vehicleID: "v1", from: 30_000_000, to: 50_000_000), after: nil, limit: 100)) == [30])
        }
    }

    @Test(arguments: StoreFactories.all)
    func pagesFollowTheCursorWithoutLosingPointsOfTheSameTime(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            try Self.drive("v1", times: [1, 2, 2, 2, 3, 4, 5], in: store)
            try Self.drive("v2", times: [2, 4], in: store)
            for query in [HistoryQuery(), HistoryQuery(provider: "p", vehicleID: "v1")] {
                var all: [HistoryPoint] = []
                var cursor: HistoryCursor?
                while true {
                    let page = try store.history(query, after: cursor, limit: 2)
                    #expect(page.count <= 2)
                    all += page
                    guard let last = page.last else { break }
                    cursor = last.cursor
                }
                let expected = try store.history(query, after: nil, limit: 100)
                #expect(all == expected)
                #expect(all.count == (query.vehicleID == nil ? 9 : 7))
                var streamed: [HistoryPoint] = []
                try store.forEachHistoryPoint(query, pageSize: 3) { streamed.append($0); return true }
                #expect(streamed == expected)
            }
        }
    }

    @Test(arguments: StoreFactories.all)
    func pruningRemovesTheOldestInSmallSteps(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            try Self.drive("v1", times: [10, 20, 30, 40, 50], in: store)
            try Self.drive("v2", times: [15, 45], in: store)
            #expect(try store.pruneHistory(before: 40_000_000, limit: 2) == 2)
            #expect(Self.times(try store.history(HistoryQuery(), after: nil, limit: 100)) == [20, 30, 40, 45, 50])
            #expect(try store.pruneHistory(before: 40_000_000, limit: 10) == 2)
            #expect(try store.pruneHistory(before: 40_000_000, limit: 10) == 0)
            #expect(Self.times(try store.history(HistoryQuery(), after: nil, limit: 100)) == [40, 45, 50])
            // Writes go on after a prune.
            try store.commit(.put(Self.update("v2", time: 60), expectedVersion: 2))
            #expect(Self.times(try store.history(HistoryQuery(), after: nil, limit: 100)) == [40, 45, 50, 60])
        }
    }

    @Test(arguments: StoreFactories.all)
    func deliveryVehiclesKeepAHistoryOfTheirOwnBesideRidesVehiclesOfTheSameID(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            try Self.drive("v1", times: [10, 30, 50], in: store)
            try Self.drive("v1", kind: .deliveryVehicle, times: [20, 40], in: store)
            try Self.drive("d2", kind: .deliveryVehicle, times: [25], in: store)

            let vans = try store.history(HistoryQuery(kind: .deliveryVehicle, provider: "p", vehicleID: "v1"), after: nil, limit: 100)
            #expect(Self.times(vans) == [20, 40])
            #expect(vans.allSatisfy { $0.kind == .deliveryVehicle && $0.vehicleID == "v1" && $0.provider == "p" && $0.tripIDs.isEmpty })
            #expect(vans.first?.speedMetersPerSecond == 8.5 && vans.first?.headingDegrees == 90)
            let cars = try store.history(HistoryQuery(kind: .vehicle, provider: "p", vehicleID: "v1"), after: nil, limit: 100)
            #expect(Self.times(cars) == [10, 30, 50])
            #expect(cars.allSatisfy { $0.kind == .vehicle })
            // Without a kind, both (what a learner reads), each point with its own kind.
            let all = try store.history(HistoryQuery(), after: nil, limit: 100)
            #expect(Self.times(all) == [10, 20, 25, 30, 40, 50])
            #expect(all.map(\.kind) == [.vehicle, .deliveryVehicle, .deliveryVehicle, .vehicle, .deliveryVehicle, .vehicle])
            #expect(Self.times(try store.history(HistoryQuery(kind: .deliveryVehicle), after: nil, limit: 100)) == [20, 25, 40])
            #expect(Self.times(try store.history(HistoryQuery(kind: .deliveryVehicle, provider: "p", from: 21_000_000), after: nil, limit: 100)) == [25, 40])
            // Pages of one kind follow their cursor.
            let first = try store.history(HistoryQuery(kind: .deliveryVehicle, provider: "p", vehicleID: "v1"), after: nil, limit: 1)
            let next = try store.history(HistoryQuery(kind: .deliveryVehicle, provider: "p", vehicleID: "v1"), after: first.last?.cursor, limit: 10)
            #expect(Self.times(first + next) == [20, 40])
            // The point is not part of the delivery vehicle's record.
            #expect(try store.get(RecordKey(.deliveryVehicle, provider: "p", id: "v1"))?.historyPoint == nil)
        }
    }

    @Test(arguments: StoreFactories.persistent)
    func pointsAndPrunesSurviveReopening(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            try Self.drive("v1", times: [10, 20, 30], trips: ["t1"], in: fixture.store)
            try Self.drive("d1", kind: .deliveryVehicle, times: [35], in: fixture.store)
            try fixture.store.pruneHistory(before: 15_000_000, limit: 10)
            let before = try fixture.store.history(HistoryQuery(), after: nil, limit: 100)
            let store = try fixture.reopen()
            #expect(try store.history(HistoryQuery(), after: nil, limit: 100) == before)
            #expect(before.map(\.kind) == [.vehicle, .vehicle, .deliveryVehicle])
            try store.commit(.put(Self.update("v1", time: 40), expectedVersion: 3))
            let after = try store.history(HistoryQuery(), after: nil, limit: 100)
            #expect(Self.times(after) == [20, 30, 35, 40])
            #expect(after[3].sequence > after[2].sequence)
        }
    }
}

@Suite("File store history")
struct FileStoreHistoryTests {
    @Test func pointsAndPrunesSurviveACompactionAndTheJournalAfterIt() throws {
        let scratch = FileStoreScratch()
        var store = try scratch.open()
        try HistoryContract.drive("v1", times: [10, 20, 30], trips: ["t1"], in: store)
        try HistoryContract.drive("d1", kind: .deliveryVehicle, times: [32], in: store)
        try store.pruneHistory(before: 15_000_000, limit: 10)
        try store.compact()
        try store.commit(.put(HistoryContract.update("v1", time: 40), expectedVersion: 3))
        try store.commit(.put(HistoryContract.update("d1", kind: .deliveryVehicle, time: 45), expectedVersion: 1))
        try store.pruneHistory(before: 25_000_000, limit: 10)
        let before = try store.history(HistoryQuery(), after: nil, limit: 100)
        #expect(HistoryContract.times(before) == [30, 32, 40, 45])
        #expect(before.map(\.kind) == [.vehicle, .deliveryVehicle, .vehicle, .deliveryVehicle])
        try store.close()
        store = try scratch.open()
        #expect(try store.history(HistoryQuery(), after: nil, limit: 100) == before)
        try store.close()
    }
}

@Suite("History pruner")
struct HistoryPrunerTests {
    @Test func stepsRemoveWhatIsOlderThanTheRetentionAFewPointsAtATime() throws {
        let store = MemoryStore()
        try HistoryContract.drive("v1", times: [10, 20, 30, 40, 50], in: store)
        let pruner = HistoryPruner(store: store, retentionSeconds: 20, stepSize: 2, now: { 55 })
        #expect(pruner.cutoff == 35_000_000)
        #expect(try pruner.step() == 2)
        #expect(try pruner.step() == 1)
        #expect(try pruner.step() == 0)
        #expect(HistoryContract.times(try store.history(HistoryQuery(), after: nil, limit: 10)) == [40, 50])
        let none = HistoryPruner(store: store, retentionSeconds: 0, now: { 55 })
        #expect(try none.step() == 2)
    }

    @Test func theThreadPrunesUntilNothingOldIsLeftAndStops() throws {
        let store = MemoryStore()
        try HistoryContract.drive("v1", times: Array(1...25), in: store)
        let pruner = HistoryPruner(store: store, retentionSeconds: 10, stepSize: 4, pauseSeconds: 0, idleSeconds: 3600, now: { 30 })
        pruner.start()
        while try store.history(HistoryQuery(), after: nil, limit: 100).count > 6 { Thread.sleep(forTimeInterval: 0.01) }
        pruner.stop()
        #expect(HistoryContract.times(try store.history(HistoryQuery(), after: nil, limit: 100)) == [20, 21, 22, 23, 24, 25])
    }
}
