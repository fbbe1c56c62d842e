@testable import FleetEngine
import FleetStore
import FleetGeo
import FleetLearning
import FleetModel
import Testing

/// The engine's ETAs with travel times learned from the fleet's drives.
@Suite struct LearnedETATests {
    /// A straight road east along 52.5°N from 13.40 to 13.46 (~4 km).
    let road = (0...60).map { GeoPoint(latitude: 52.5, longitude: 13.40 + Double($0) * 0.001) }

    /// What a drive east along the road at `speed` m/s teaches, learned at every hour of the week.
    func learned(metersPerSecond speed: Double) -> [PieceObservation] {
        let route = Route(points: road)!
        var times = RoadTimes()
        for hour in stride(from: 0.0, to: 168, by: 1) {
            let start = 1_769_385_600 + hour * 3600
            let fixes = stride(from: 0.0, through: route.totalMeters / speed, by: 5).map {
                Fix(time: start + $0, position: route.point(atMeters: $0 * speed))
            }
            DriveLearner(utcOffsetSeconds: LearnedETASettings().model.utcOffsetSeconds).learn(fixes, into: &times)
        }
        return times.rows
    }

    func dropoffSeconds(_ f: Fixture) throws -> Double {
        try f.createVehicle("v1", at: (52.5, 13.40))
        try f.createTrip("t1", pickup: (52.5, 13.42), dropoff: (52.5, 13.46), vehicle: "v1")
        _ = try f.engine.updateVehicle(UpdateVehicleRequest(
            name: f.vehicleName("v1"), vehicle: Vehicle(currentRouteSegment: Polyline.encode(road)),
            updateMask: ["currentRouteSegment"]))
        f.clock.advance(seconds: 10)
        try f.move("v1", to: 52.5, 13.401)
        let trip = try f.trip("t1")
        let dropoff = try #require(trip.dropoffTime)
        return dropoff.timeIntervalSince1970 - f.clock.now().timeIntervalSince1970
    }

    @Test func learnedTimesOnTheRouteAheadSetTheETAs() throws {
        // The road was learned at 2.5 m/s: the ~4 km left take about 27 minutes, not the 6 a car's default gives.
        let withLearning = Fixture()
        try withLearning.engine.learnedTimesStorage.add(learned(metersPerSecond: 2.5), provider: withLearning.provider)
        let learnedSeconds = try dropoffSeconds(withLearning)
        var off = EngineConfiguration()
        off.learnedETAs = nil
        let withoutLearning = Fixture(configuration: off)
        try withoutLearning.engine.learnedTimesStorage.add(learned(metersPerSecond: 2.5), provider: withoutLearning.provider)
        let liveSeconds = try dropoffSeconds(withoutLearning)
        let meters = Route(points: road)!.totalMeters - Geodesy.distance(road[0], GeoPoint(latitude: 52.5, longitude: 13.401))
        // The first 250 m blend in the live pace (the category default, half weight at the vehicle).
        #expect(learnedSeconds > 0.9 * meters / 2.5 && learnedSeconds < meters / 2.5, "\(learnedSeconds) s")
        #expect(liveSeconds < 0.4 * learnedSeconds, "\(liveSeconds) s without learning")
        #expect(withLearning.engine.learnedMetrics().contains("fleet_learned_road_pieces{provider=\"test-project\"}"))
        #expect(withoutLearning.engine.learnedMetrics().contains("fleet_learned_etas_enabled 0"))
    }

    @Test func anotherProvidersLearningIsNotUsed() throws {
        let f = Fixture()
        try f.engine.learnedTimesStorage.add(learned(metersPerSecond: 2.5), provider: "someone-else")
        let seconds = try dropoffSeconds(f)
        #expect(seconds < 600, "\(seconds) s")
    }

    @Test func storedTablesAddUpAndClear() throws {
        let f = Fixture()
        let storage = f.engine.learnedTimesStorage
        let rows = learned(metersPerSecond: 5)
        #expect(try storage.revision(provider: f.provider) == 0)
        try storage.add(rows, provider: f.provider)
        let first = try storage.revision(provider: f.provider)
        try storage.add(rows, provider: f.provider)
        let second = try storage.revision(provider: f.provider)
        let times = try storage.load(provider: f.provider)
        var expected = RoadTimes()
        expected.add(rows)
        expected.add(rows)
        #expect(times.rows == expected.rows)
        // Adding only the history's mark changes no table, nor the revision.
        try storage.add([], provider: f.provider, with: [.put(StoreRecord(key: RecordKey(.roadTimes, provider: f.provider, id: HistoryLearning.markID),
                                                                           version: 0, payload: []), expectedVersion: 0)])
        #expect(try storage.revision(provider: f.provider) == second)
        let tiles = Set(rows.map { LearnedTimesStorage.tileID(of: $0.piece) }).count
        #expect(try storage.clear(provider: f.provider) == tiles, "the tiles, not the mark")
        #expect(try storage.load(provider: f.provider).pieces.isEmpty)
        let cleared = try storage.revision(provider: f.provider)
        #expect(0 < first && first < second && second < cleared, "\(first), \(second), \(cleared)")
        #expect(try storage.clear(provider: f.provider) == 0)
        #expect(try storage.revision(provider: f.provider) == cleared, "clearing nothing changes nothing")
    }

    /// A refresh reads the revision, and the tables only when it moved: a tile rewritten behind the storage's back
    /// (which every change through it would have counted) is not read, the next change through it is.
    @Test func aRefreshReadsTheTablesOnlyWhenTheirRevisionMoved() async throws {
        let f = Fixture()
        let storage = f.engine.learnedTimesStorage
        let rows = learned(metersPerSecond: 5)
        try storage.add(rows, provider: f.provider)
        let cache = LearnedTimesCache()
        let first = cache.times(provider: f.provider, now: 0, storage: storage, refreshSeconds: 60)
        let tile = try #require(try storage.store.list(.roadTimes, provider: f.provider, afterID: nil, limit: 500)
            .first { $0.key.id != LearnedTimesStorage.revisionID })
        _ = try storage.store.commit([.put(StoreRecord(key: tile.key, version: 0, payload: LearnedTimesStorage.encode([])),
                                           expectedVersion: tile.version)])
        _ = cache.times(provider: f.provider, now: 100, storage: storage, refreshSeconds: 60)
        try await Task.sleep(for: .seconds(1))
        let kept = cache.times(provider: f.provider, now: 101, storage: storage, refreshSeconds: 60)
        #expect(kept.generation == first.generation && kept.times.rows == first.times.rows)
        try storage.add(learned(metersPerSecond: 2.5), provider: f.provider)
        let newer = try await cache.timesRead(after: first.generation, provider: f.provider, storage: storage, now: 200)
        #expect(newer.generation != first.generation)
        #expect(newer.times.rows == (try storage.load(provider: f.provider)).rows)
    }

    @Test func tablesReadAgainUnchangedKeepTheirPacesAndTheVehiclesPlans() async throws {
        let f = Fixture()
        let storage = f.engine.learnedTimesStorage
        try storage.add(learned(metersPerSecond: 5), provider: f.provider)
        let cache = LearnedTimesCache()
        let first = cache.times(provider: f.provider, now: 0, storage: storage, refreshSeconds: 60)
        #expect(!first.times.pieces.isEmpty && first.times.pieces.values.allSatisfy { $0.paces != nil })
        // Due again: read in the background, and the store holds what it held.
        _ = cache.times(provider: f.provider, now: 100, storage: storage, refreshSeconds: 60)
        try await Task.sleep(for: .seconds(1))
        let same = cache.times(provider: f.provider, now: 101, storage: storage, refreshSeconds: 60)
        #expect(same.generation == first.generation)
        let piece = try #require(first.times.pieces.keys.first)
        #expect(same.times.pieces[piece]?.paces === first.times.pieces[piece]?.paces)
        // Another node learned more: the next read brings new tables, with their paces, and a new generation.
        try storage.add(learned(metersPerSecond: 2.5), provider: f.provider)
        let newer = try await cache.timesRead(after: first.generation, provider: f.provider, storage: storage, now: 200)
        #expect(newer.generation != first.generation)
        #expect(newer.times.pieces[piece] != first.times.pieces[piece] && newer.times.pieces[piece]?.paces != nil)
    }

    /// `/metrics` follows the store while no vehicle uses the tables: after `fleet-admin speeds clear` (or learn) on
    /// the server's store, a scrape starts reading them again once they are older than the refresh time, and a later
    /// scrape shows the change. This process learning more keeps the last figures listed until the next read.
    @Test func metricsFollowTheStoreWithoutVehicleUpdates() async throws {
        let f = Fixture()
        let storage = f.engine.learnedTimesStorage
        try storage.add(learned(metersPerSecond: 5), provider: f.provider)
        _ = try dropoffSeconds(f)
        let gauge = "fleet_learned_road_pieces{provider=\"\(f.provider)\"} "
        func pieces() -> Int? {
            f.engine.learnedMetrics().split(separator: "\n").first { $0.hasPrefix(gauge) }.flatMap { Int($0.dropFirst(gauge.count)) }
        }
        let learnedPieces = try #require(pieces())
        #expect(learnedPieces > 0)
        f.engine.forgetLearnedTimes()
        #expect(pieces() == learnedPieces, "the last read stays listed until the tables are read again")
        _ = try storage.clear(provider: f.provider)
        f.clock.advance(seconds: 61)
        var shown = pieces()
        for _ in 0..<100 where shown != 0 {
            try await Task.sleep(for: .milliseconds(50))
            shown = pieces()
        }
        #expect(shown == 0, "a scrape after the refresh time reads the cleared tables")
    }

    @Test func theHistoryTeachesTheTablesOnceHoweverOftenLearningRuns() throws {
        let f = Fixture()
        try f.createVehicle("bus", at: (52.5, 13.40))
        // A drive east along the road at about 3.4 m/s: 0.0005° of longitude (34 m) every 10 s.
        for step in 1...60 {
            f.clock.advance(seconds: 10)
            try f.move("bus", to: 52.5, 13.40 + Double(step) * 0.0005)
        }
        let storage = f.engine.learnedTimesStorage
        let learning = HistoryLearning(storage: storage, learner: DriveLearner(utcOffsetSeconds: LearnedETASettings().model.utcOffsetSeconds))
        let now = f.clock.now().timeIntervalSince1970 + 1
        let first = try learning.run(provider: f.provider, now: now)
        #expect(first.points == 61 && first.vehicles == 1 && first.rows > 20, "\(first)")
        let learned = try storage.load(provider: f.provider)
        let piece = RoadPiece(at: GeoPoint(latitude: 52.5, longitude: 13.415), bearing: 90)
        let pace = try #require(learned.pace(piece, slot: WeekSlot(epochSeconds: now)))
        #expect(abs(1 / pace.secondsPerMeter - 3.4) < 0.2, "\(1 / pace.secondsPerMeter) m/s")
        // A second run (another node, or the same one later) finds nothing new; another provider nothing at all.
        let again = try learning.run(provider: f.provider, now: now + 60)
        #expect(again.points == 0 && again.rows == 0)
        #expect(try storage.load(provider: f.provider).rows == learned.rows)
        #expect(try learning.run(provider: "someone-else", now: now).points == 0)
        // Clearing forgets the mark too: the next run learns the whole history again.
        try storage.clear(provider: f.provider)
        #expect(try learning.run(provider: f.provider, now: now + 120).points == 61)
    }
}

extension LearnedTimesCache {
    /// The tables for `provider` due for a refresh at `now`, once a read in the background brought a generation other
    /// than `generation` (at most 10 s later).
    func timesRead(after generation: Int, provider: String, storage: LearnedTimesStorage,
                   now: Double) async throws -> (times: RoadTimes, generation: Int) {
        var newer = times(provider: provider, now: now, storage: storage, refreshSeconds: 60)
        for _ in 0..<100 where newer.generation == generation {
            try await Task.sleep(for: .milliseconds(100))
            newer = times(provider: provider, now: now + 1, storage: storage, refreshSeconds: 60)
        }
        return newer
    }
}
