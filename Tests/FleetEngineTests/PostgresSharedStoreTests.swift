@testable import FleetEngine
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
