@testable import FleetEngine
import FleetGeo
import FleetLearning
import FleetModel
import FleetStore
import FleetTestSupport
import Foundation
import PostgresStore
import Synchronization
import Testing

/// Two engines on one PostgreSQL database, as two server nodes: concurrent updates from each both
/// land, and a copy one engine holds never overwrites what the other wrote.
@Suite(.enabled(if: PostgresCluster.isInstalled, Comment(rawValue: PostgresCluster.missingMessage)))
struct PostgresSharedStoreTests {
    func engines() throws -> (Fixture, Engine) {
        let url = try PostgresCluster.shared!.database(named: "engines")
        let a = Fixture(store: try PostgresStore(url: url))
        let b = Engine(store: try PostgresStore(url: url), clock: a.clock)
        return (a, b)
    }

    /// What one node learns or clears, the other reads on its next refresh (the tables' revision moved), and only then.
    @Test func learnedTablesChangedOnOneNodeAreReadByTheOtherOnItsNextRefresh() async throws {
        let url = try PostgresCluster.shared!.database(named: "learned")
        let a = LearnedTimesStorage(store: try PostgresStore(url: url))
        let b = LearnedTimesStorage(store: try PostgresStore(url: url))
        let road = (0...20).map { GeoPoint(latitude: 52.5, longitude: 13.40 + Double($0) * 0.001) }
        try a.add(LearnedRoads.everyHour(along: road, metersPerSecond: 10), provider: "p")
        let cache = LearnedTimesCache()
        let first = cache.times(provider: "p", now: 0, storage: b, refreshSeconds: 60)
        #expect(!first.times.pieces.isEmpty)
        #expect(cache.times(provider: "p", now: 30, storage: b, refreshSeconds: 60).generation == first.generation, "not due yet")
        let street = road.map { GeoPoint(latitude: 52.51, longitude: $0.longitude) }
        try a.add(LearnedRoads.everyHour(along: street, metersPerSecond: 10), provider: "p")
        let more = try await cache.timesRead(after: first.generation, provider: "p", storage: b, now: 100)
        let stored = try b.load(provider: "p")
        #expect(more.times.pieces.count > first.times.pieces.count && more.times.rows == stored.rows)
        try a.clear(provider: "p")
        let cleared = try await cache.timesRead(after: more.generation, provider: "p", storage: b, now: 200)
        #expect(cleared.times.pieces.isEmpty)
        try a.store.close()
        try b.store.close()
    }

    @Test func updatesOfOneVehicleFromTwoEnginesAtOnceAllLand() throws {
        let (a, b) = try engines()
        try a.createVehicle("v1")
        let each = 10
        let failures = Mutex<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        for n in 0..<each {
            for (engine, side) in [(a.engine, "a"), (b, "b")] {
                Thread {
                    do {
                        _ = try engine.updateVehicleAttributes(UpdateVehicleAttributesRequest(
                            name: a.vehicleName("v1"), attributes: [VehicleAttribute(key: "\(side)\(n)", value: "x")]))
                    } catch {
                        failures.withLock { $0.append("\(side)\(n): \(error)") }
                    }
                    finished.signal()
                }.start()
            }
        }
        for _ in 0..<(2 * each) { #expect(finished.wait(timeout: .now() + 60) == .success) }
        #expect(failures.withLock { $0 } == [])
        let stored = try b.getVehicle(GetVehicleRequest(name: a.vehicleName("v1")))
        #expect(Set(stored.attributes.compactMap(\.key)) == Set((0..<each).flatMap { ["a\($0)", "b\($0)"] }))
    }

    @Test func aVehicleDeletedAndCreatedAgainOnTheOtherEngineIsNeverOverwrittenFromTheOldCopy() throws {
        let (a, b) = try engines()
        try a.createVehicle("v1")
        _ = try a.engine.updateVehicleAttributes(UpdateVehicleAttributesRequest(
            name: a.vehicleName("v1"), attributes: [VehicleAttribute(key: "shift", value: "old")]))
        _ = try b.deleteVehicle(DeleteVehicleRequest(name: a.vehicleName("v1")))
        _ = try b.createVehicle(CreateVehicleRequest(parent: a.parent, vehicleId: "v1", vehicle: Vehicle(
            vehicleState: .online, supportedTripTypes: [.exclusive], maximumCapacity: 2, vehicleType: VehicleType(category: .taxi))))
        _ = try b.updateVehicleAttributes(UpdateVehicleAttributesRequest(
            name: a.vehicleName("v1"), attributes: [VehicleAttribute(key: "shift", value: "new")]))
        try a.move("v1", to: 52.53, 13.43)
        let stored = try b.getVehicle(GetVehicleRequest(name: a.vehicleName("v1")))
        #expect(stored.attributes.first?.value == "new")
        #expect(stored.vehicleType?.category == .taxi)
        #expect(stored.lastLocation?.location?.latitude == 52.53)
    }

    /// A watch outlives its database's outage (a failover, a restart): reads that fail UNAVAILABLE
    /// meanwhile end no watch, and once the database is back the watcher gets what changed.
    @Test func aWatchKeepsGoingThroughADatabaseOutageAndCatchesUp() throws {
        let cluster = try PostgresCluster.makePrivate()
        let url = try cluster.database(named: "outage")
        let store = try PostgresStore(url: url)
        defer { try? store.close() }
        let f = Fixture(store: store)
        try f.createVehicle("v1")
        try f.createTrip("t1", vehicle: "v1")
        let watcher = Deliveries()
        let observation = try watcher.observe(f.engine, f.tripName("t1"))
        defer { observation.cancel() }
        #expect(watcher.wait { $0.snapshots.count == 1 })
        try cluster.stopImmediately()
        // Long enough for the feed's poll (every `watchPollSeconds`) to fail at least twice.
        Thread.sleep(forTimeInterval: 2.5 * Engine.watchPollSeconds)
        #expect(watcher.error == nil, "the outage ended the watch: \(String(describing: watcher.error))")
        try cluster.start()
        // Another node's write, which this store hears of only by its poll.
        let other = Engine(store: try PostgresStore(url: url), clock: f.clock)
        _ = try other.updateVehicle(UpdateVehicleRequest(
            name: f.vehicleName("v1"), vehicle: Vehicle(lastLocation: VehicleLocation(location: LatLng(latitude: 52.531, longitude: 13.411))),
            updateMask: FieldMask(["lastLocation"])))
        #expect(watcher.wait { $0.snapshots.last?.trip.lastLocation?.location?.latitude == 52.531 })
        #expect(watcher.error == nil)
    }

    /// A store on its own database with vehicles v1 and v2 and trip t1 assigned to v1.
    private func storeWithTripOnV1(database: String) throws -> (PostgresStore, Fixture) {
        let store = try PostgresStore(url: try PostgresCluster.shared!.database(named: database))
        let f = Fixture(store: store)
        do {
            _ = try f.createVehicle("v1")
            _ = try f.createVehicle("v2")
            try f.createTrip("t1", vehicle: "v1")
        } catch {
            try? store.close()
            throw error
        }
        return (store, f)
    }

    /// Round trips to PostgreSQL, counted by the store: a location update is one statement (the
    /// version check is in the UPDATE's WHERE, no BEGIN or COMMIT) plus its share of a notification
    /// statement; GetTrip reads the trip and its vehicle in one statement, without a transaction.
    @Test func anUpdateIsOneStatementAndGetTripIsOne() throws {
        let (store, f) = try storeWithTripOnV1(database: "round_trips")
        defer { try? store.close() }

        for vehicle in ["v1", "v2"] {
            store.waitForNotifications()
            let before = store.statementsRun
            _ = try f.move(vehicle, to: 52.54, 13.44)
            store.waitForNotifications()
            #expect(store.statementsRun - before == 2, "\(vehicle): an UPDATE and a notification")
        }

        let before = store.statementsRun
        let trip = try f.engine.getTrip(GetTripRequest(name: f.tripName("t1")))
        #expect(store.statementsRun - before == 1)
        #expect(trip.vehicleId == "v1")
        #expect(trip.name == f.tripName("t1"))
    }

    /// A snapshot that reads what its first statement did not reads everything again in one
    /// transaction, and sees records as of one moment.
    @Test func aSnapshotReadingOtherRecordsRunsAgainInATransaction() throws {
        let (store, f) = try storeWithTripOnV1(database: "snapshots")
        defer { try? store.close() }
        let keys = ["t1", "v1", "v2", "none"].map { RecordKey($0.hasPrefix("t") ? .trip : .vehicle, provider: f.provider, id: $0) }

        let runs = Mutex(0)
        store.waitForNotifications()
        let before = store.statementsRun
        let found = try store.withSnapshot { snapshot in
            runs.withLock { $0 += 1 }
            return try keys.map { try snapshot.get($0)?.key.id }
        }
        #expect(found == ["t1", "v1", "v2", nil])
        #expect(runs.withLock { $0 } == 2)
        let expected: Int = keys.count + 3
        let run: Int = store.statementsRun - before
        #expect(run == expected, "the first statement, then BEGIN, the reads and COMMIT")

        // A trip without a vehicle, and a trip that does not exist: one statement each.
        try f.createTrip("t2")
        store.waitForNotifications()
        for (id, exists) in [("t2", true), ("t9", false)] {
            let start: Int = store.statementsRun
            let trip = try store.withSnapshot { try $0.get(RecordKey(.trip, provider: f.provider, id: id)) }
            #expect((trip != nil) == exists)
            let statements: Int = store.statementsRun - start
            #expect(statements == 1)
        }
    }
}
