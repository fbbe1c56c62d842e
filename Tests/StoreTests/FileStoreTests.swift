import Foundation
import Testing
import FleetErrors
import FleetStore
import FileStore

/// The file store's behaviour as a store: versions, conflicts, atomic commits, queries, reopening,
/// closing and the one-process lock.
@Suite struct FileStoreTests {
    typealias Samples = FileStoreSamples

    @Test func versionsStartAtOneAndGrowByOneOnEveryWrite() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        let key = RecordKey(.vehicle, provider: Samples.provider, id: "v1")
        #expect(try store.commit(.put(Samples.vehicle("v1", 1, 2), expectedVersion: 0)) == 1)
        #expect(try store.commit(.put(Samples.vehicle("v1", 1, 3, payload: "second"), expectedVersion: 1)) == 2)
        let stored = try #require(try store.get(key))
        #expect(stored.version == 2)
        #expect(stored.payload == Array("second".utf8))
        #expect(stored.point == IndexPoint(latitude: 1, longitude: 3))
        #expect(try store.commit(.delete(key, expectedVersion: 2)) == 0)
        #expect(try store.get(key) == nil)
        #expect(try store.commit(.put(Samples.vehicle("v1", 1, 2), expectedVersion: 0)) == 1)
    }

    @Test func staleVersionsAreConflictsNamingTheVersionFound() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        let key = RecordKey(.trip, provider: Samples.provider, id: "t1")
        try store.commit(.put(Samples.trip("t1", owner: nil), expectedVersion: 0))
        try store.commit(.put(Samples.trip("t1", owner: "v1"), expectedVersion: 1))
        #expect(throws: StoreConflict(key: key, expectedVersion: 1, actualVersion: 2)) {
            try store.commit(.put(Samples.trip("t1", owner: nil), expectedVersion: 1))
        }
        #expect(throws: StoreConflict(key: key, expectedVersion: 0, actualVersion: 2)) {
            try store.commit(.put(Samples.trip("t1", owner: nil), expectedVersion: 0))
        }
        #expect(throws: StoreConflict(key: key, expectedVersion: 3, actualVersion: 2)) {
            try store.commit(.delete(key, expectedVersion: 3))
        }
        let missing = RecordKey(.trip, provider: Samples.provider, id: "nope")
        #expect(throws: StoreConflict(key: missing, expectedVersion: 1, actualVersion: 0)) {
            try store.commit(.put(Samples.trip("nope", owner: nil), expectedVersion: 1))
        }
        #expect(try store.get(key)?.owner == "v1")
    }

    @Test func aCommitWithOneStaleWriteAppliesNone() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        try store.commit(.put(Samples.vehicle("v1", 0, 0), expectedVersion: 0))
        let conflict = StoreConflict(key: RecordKey(.vehicle, provider: Samples.provider, id: "v1"), expectedVersion: 7, actualVersion: 1)
        #expect(throws: conflict) {
            try store.commit([
                .put(Samples.trip("t1", owner: "v1"), expectedVersion: 0),
                .put(Samples.vehicle("v1", 5, 5), expectedVersion: 7),
            ])
        }
        #expect(try store.get(RecordKey(.trip, provider: Samples.provider, id: "t1")) == nil)
        #expect(try store.owned(by: "v1", provider: Samples.provider).isEmpty)
        try store.close()
        let reopened = try scratch.open()
        #expect(try Samples.everything(reopened).map(\.key.id) == ["v1"])
    }

    @Test func aMultiRecordCommitReturnsEachNewVersion() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        try store.commit(.put(Samples.vehicle("v1", 0, 0), expectedVersion: 0))
        let versions = try store.commit([
            .put(Samples.vehicle("v1", 1, 1), expectedVersion: 1),
            .put(Samples.trip("t1", owner: "v1"), expectedVersion: 0),
            .put(Samples.trip("t1", owner: "v1", payload: "again"), expectedVersion: 1),
            .delete(RecordKey(.vehicle, provider: Samples.provider, id: "v1"), expectedVersion: 2),
        ])
        #expect(versions == [2, 1, 2, 0])
        #expect(try store.get(RecordKey(.trip, provider: Samples.provider, id: "t1"))?.payload == Array("again".utf8))
        #expect(try store.get(RecordKey(.vehicle, provider: Samples.provider, id: "v1")) == nil)
    }

    @Test func deletingWhatDoesNotExistIsAConflictEvenAtVersionZero() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        let key = RecordKey(.vehicle, provider: Samples.provider, id: "ghost")
        #expect(throws: StoreConflict(key: key, expectedVersion: 0, actualVersion: 0)) {
            try store.commit(.delete(key, expectedVersion: 0))
        }
        #expect(throws: StoreConflict(key: key, expectedVersion: 1, actualVersion: 0)) {
            try store.commit([.put(Samples.vehicle("ghost", 0, 0), expectedVersion: 0), .delete(key, expectedVersion: 1), .delete(key, expectedVersion: 1)])
        }
        #expect(try store.get(key) == nil)
        #expect(try store.commit([]) == [])
        #expect(store.statistics.commits == 0)
    }

    @Test func listOrdersByIDAndPagesAfterAnID() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        for id in ["d", "b", "a", "c"] {
            try store.commit(.put(Samples.vehicle(id, 0, 0), expectedVersion: 0))
        }
        try store.commit(.put(Samples.vehicle("a", 0, 0, provider: "other"), expectedVersion: 0))
        try store.commit(.put(Samples.trip("a", owner: nil), expectedVersion: 0))
        let ids = { (after: String?, limit: Int) in try store.list(.vehicle, provider: Samples.provider, afterID: after, limit: limit).map(\.key.id) }
        #expect(try ids(nil, 2) == ["a", "b"])
        #expect(try ids("b", 2) == ["c", "d"])
        #expect(try ids("bb", 10) == ["c", "d"])
        #expect(try ids("d", 10) == [])
        #expect(try ids(nil, 0) == [])
        #expect(try ids(nil, .max) == ["a", "b", "c", "d"])
        try store.commit(.delete(RecordKey(.vehicle, provider: Samples.provider, id: "b"), expectedVersion: 1))
        try store.commit(.put(Samples.vehicle("ab", 0, 0), expectedVersion: 0))
        #expect(try ids(nil, 10) == ["a", "ab", "c", "d"])
        #expect(try store.list(.vehicle, provider: "other", afterID: nil, limit: 10).map(\.key.id) == ["a"])
        #expect(try store.list(.trip, provider: Samples.provider, afterID: nil, limit: 10).map(\.key.id) == ["a"])
        #expect(try store.list(.trip, provider: "none", afterID: nil, limit: 10).isEmpty)
    }

    @Test func ownedFollowsTheTripsOwner() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        try store.commit([
            .put(Samples.trip("t1", owner: "v1"), expectedVersion: 0),
            .put(Samples.trip("t2", owner: "v1"), expectedVersion: 0),
            .put(Samples.trip("t3", owner: "v2"), expectedVersion: 0),
            .put(Samples.trip("t4", owner: nil), expectedVersion: 0),
            .put(Samples.trip("t5", owner: "v1", provider: "other"), expectedVersion: 0),
            .put(StoreRecord(key: RecordKey(.vehicle, provider: Samples.provider, id: "v9"), version: 0, payload: [], owner: "v1"), expectedVersion: 0),
        ])
        #expect(try store.owned(by: "v1", provider: Samples.provider).map(\.key.id) == ["t1", "t2"])
        try store.commit(.put(Samples.trip("t1", owner: "v2"), expectedVersion: 1))
        try store.commit(.delete(RecordKey(.trip, provider: Samples.provider, id: "t2"), expectedVersion: 1))
        #expect(try store.owned(by: "v1", provider: Samples.provider).isEmpty)
        #expect(try store.owned(by: "v2", provider: Samples.provider).map(\.key.id) == ["t1", "t3"])
        #expect(try store.owned(by: "v1", provider: "other").map(\.key.id) == ["t5"])
        try store.close()
        let reopened = try scratch.open()
        #expect(try reopened.owned(by: "v2", provider: Samples.provider).map(\.key.id) == ["t1", "t3"])
    }

    @Test func nearbyFindsVehiclesOfTheProviderAroundTheCenter() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        try store.commit([
            .put(Samples.vehicle("here", 48.8566, 2.3522), expectedVersion: 0),
            .put(Samples.vehicle("800m", 48.8638, 2.3522), expectedVersion: 0),
            .put(Samples.vehicle("far", 48.95, 2.3522), expectedVersion: 0),
            .put(Samples.vehicle("other-provider", 48.8566, 2.3522, provider: "other"), expectedVersion: 0),
            .put(StoreRecord(key: RecordKey(.trip, provider: Samples.provider, id: "trip-with-point"), version: 0, payload: [],
                             point: IndexPoint(latitude: 48.8566, longitude: 2.3522)), expectedVersion: 0),
            .put(StoreRecord(key: RecordKey(.vehicle, provider: Samples.provider, id: "no-point"), version: 0, payload: []), expectedVersion: 0),
        ])
        let paris = IndexPoint(latitude: 48.8566, longitude: 2.3522)
        let ids = { (radius: Double) in try store.nearby(provider: Samples.provider, center: paris, radiusMeters: radius).map(\.key.id) }
        #expect(try ids(100) == ["here"])
        #expect(try ids(1_000) == ["800m", "here"])
        #expect(try ids(20_000) == ["800m", "far", "here"])
        try store.commit(.put(Samples.vehicle("here", 40, 2), expectedVersion: 1))
        try store.commit(.delete(RecordKey(.vehicle, provider: Samples.provider, id: "800m"), expectedVersion: 1))
        #expect(try ids(1_000) == [])
        #expect(throws: FleetError.self) { try store.nearby(provider: Samples.provider, center: paris, radiusMeters: -1) }
        #expect(throws: FleetError.self) { try store.nearby(provider: Samples.provider, center: paris, radiusMeters: .nan) }
    }

    @Test func nearbyWrapsAroundTheAntimeridianAndOverThePoles() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        try store.commit([
            .put(Samples.vehicle("east", 0, 179.999), expectedVersion: 0),
            .put(Samples.vehicle("west", 0, -179.999), expectedVersion: 0),
            .put(Samples.vehicle("pole-a", 89.999, 0), expectedVersion: 0),
            .put(Samples.vehicle("pole-b", 89.999, 180 - 0.001), expectedVersion: 0),
        ])
        let wrap = try store.nearby(provider: Samples.provider, center: IndexPoint(latitude: 0, longitude: 180), radiusMeters: 500)
        #expect(wrap.map(\.key.id) == ["east", "west"])
        let pole = try store.nearby(provider: Samples.provider, center: IndexPoint(latitude: 89.999, longitude: 0), radiusMeters: 500)
        #expect(pole.map(\.key.id) == ["pole-a", "pole-b"])
    }

    /// Points on a circle just inside the radius, all around, at many latitudes and radii, are all found.
    @Test(arguments: [0.0, 33.3, -45, 60, 80, -85, 89.5], [5.0, 1_000, 40_000, 900_000])
    func nearbyNeverMissesAPointInsideTheRadius(latitude: Double, radius: Double) throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open(durable: false)
        let center = IndexPoint(latitude: latitude, longitude: 179.9)
        var writes: [StoreWrite] = []
        for bearing in stride(from: 0.0, to: 360, by: 7.5) {
            let point = Self.destination(from: center, meters: radius * 0.999, bearingDegrees: bearing)
            writes.append(.put(Samples.vehicle("b\(bearing)", point.latitude, point.longitude), expectedVersion: 0))
        }
        // Filler on other continents so the grid, not a scan, answers small radii.
        for index in 0..<200 {
            writes.append(.put(Samples.vehicle("filler\(index)", Double(index % 100) - 50, Double(index) - 100), expectedVersion: 0))
        }
        try store.commit(writes)
        let found = Set(try store.nearby(provider: Samples.provider, center: center, radiusMeters: radius).map(\.key.id))
        for bearing in stride(from: 0.0, to: 360, by: 7.5) {
            #expect(found.contains("b\(bearing)"), "missed the point at bearing \(bearing)")
        }
    }

    @Test func everythingSurvivesAReopenAndVersionsContinue() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        try store.commit([
            .put(Samples.vehicle("v1", 10, 20, payload: "one"), expectedVersion: 0),
            .put(Samples.trip("t1", owner: "v1"), expectedVersion: 0),
        ])
        try store.commit(.put(Samples.vehicle("v1", 10.5, 20.5, payload: "two"), expectedVersion: 1))
        let before = try Samples.everything(store)
        try store.close()

        let reopened = try scratch.open()
        #expect(try Samples.everything(reopened) == before)
        #expect(reopened.recovery.replayedCommits == 2)
        #expect(reopened.recovery.truncatedBytes == 0)
        #expect(try reopened.nearby(provider: Samples.provider, center: IndexPoint(latitude: 10.5, longitude: 20.5), radiusMeters: 10).map(\.key.id) == ["v1"])
        #expect(try reopened.owned(by: "v1", provider: Samples.provider).map(\.key.id) == ["t1"])
        #expect(try reopened.commit(.put(Samples.vehicle("v1", 0, 0), expectedVersion: 2)) == 3)
    }

    @Test func aStoreOpenedNotDurableKeepsItsCommitsWhenClosed() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open(durable: false)
        for index in 0..<50 {
            try store.commit(.put(Samples.vehicle("v\(index)", 1, 1), expectedVersion: 0))
        }
        try store.close()
        let reopened = try scratch.open()
        #expect(try reopened.list(.vehicle, provider: Samples.provider, afterID: nil, limit: 100).count == 50)
    }

    @Test func everyCallAfterCloseFails() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        try store.commit(.put(Samples.vehicle("v1", 1, 1), expectedVersion: 0))
        try store.close()
        let key = RecordKey(.vehicle, provider: Samples.provider, id: "v1")
        let calls: [() throws -> Void] = [
            { _ = try store.get(key) },
            { try store.commit(.put(Samples.vehicle("v2", 1, 1), expectedVersion: 0)) },
            { _ = try store.list(.vehicle, provider: Samples.provider, afterID: nil, limit: 1) },
            { _ = try store.nearby(provider: Samples.provider, center: IndexPoint(latitude: 1, longitude: 1), radiusMeters: 1) },
            { _ = try store.owned(by: "v1", provider: Samples.provider) },
            { try store.compact() },
            { try store.close() },
        ]
        for call in calls {
            let error = try #require(throws: FleetError.self) { try call() }
            #expect(error.cause == ErrorCause.storeFailure.id)
            #expect(error.message.contains("closed"))
        }
    }

    @Test func aSecondOpenOfTheDirectoryIsRefusedNamingTheHolder() throws {
        let scratch = FileStoreScratch()
        let first = try scratch.open()
        let error = try #require(throws: FleetError.self) { try scratch.open() }
        #expect(error.code == .unavailable)
        #expect(error.cause == ErrorCause.storeBusy.id)
        #expect(error.message.contains("process \(getpid())"))
        #expect(error.message.contains(scratch.storePath))
        try first.close()
        let second = try scratch.open()
        try second.close()
    }

    @Test func theDirectoryIsCreatedWithItsParents() throws {
        let scratch = FileStoreScratch()
        let store = try FileStore(directory: scratch.root + "/a/b/c", log: FileStoreLog().append)
        try store.commit(.put(Samples.vehicle("v1", 1, 1), expectedVersion: 0))
        try store.close()
        #expect(FileManager.default.fileExists(atPath: scratch.root + "/a/b/c/journal"))
        try scratch.write(Array("x".utf8), to: scratch.root + "/plain-file")
        let error = try #require(throws: FleetError.self) { try FileStore(directory: scratch.root + "/plain-file") }
        #expect(error.cause == ErrorCause.storeFailure.id)
    }

    @Test func concurrentCommittersAllLandAndConflictsStayExact() throws {
        let scratch = FileStoreScratch()
        let store = try scratch.open()
        let counter = RecordKey(.vehicle, provider: Samples.provider, id: "counter")
        try store.commit(.put(Samples.vehicle("counter", 0, 0), expectedVersion: 0))
        let threads = 8
        let commitsPerThread = 60
        let increments = FileStoreCounter()
        let failures = FileStoreLog()
        let group = DispatchGroup()
        for thread in 0..<threads {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    for index in 0..<commitsPerThread {
                        try store.commit(.put(Samples.vehicle("t\(thread)-\(index)", Double(thread), Double(index)), expectedVersion: 0))
                        // Read-modify-write of one shared record: some attempts conflict, none may be lost.
                        let current = try store.get(counter)?.version ?? 0
                        do {
                            try store.commit(.put(Samples.vehicle("counter", 0, 0), expectedVersion: current))
                            increments.add()
                        } catch is StoreConflict {}
                    }
                } catch {
                    failures.append("thread \(thread): \(error)")
                }
            }.start()
        }
        group.wait()
        #expect(failures.lines.isEmpty)
        #expect(try store.get(counter)?.version == UInt64(1 + increments.value))
        #expect(try store.list(.vehicle, provider: Samples.provider, afterID: nil, limit: .max).count == threads * commitsPerThread + 1)
        let statistics = store.statistics
        #expect(statistics.commits == 1 + threads * commitsPerThread + increments.value)
        #expect(statistics.syncs <= statistics.commits)
        let before = try Samples.everything(store)
        try store.close()
        #expect(try Samples.everything(try scratch.open()) == before)
    }

    @Test func theRegistryOpensFileURLs() throws {
        let scratch = FileStoreScratch()
        let registry = StoreRegistry([FileStore.scheme])
        let store = try registry.open("file:\(scratch.storePath)?durable=false")
        try store.commit(.put(Samples.vehicle("v1", 1, 1), expectedVersion: 0))
        try store.close()
        let again = try registry.open("file:\(scratch.storePath)")
        #expect(try again.get(RecordKey(.vehicle, provider: Samples.provider, id: "v1"))?.version == 1)
        #expect((again as? FileStore)?.options.durable == true)
        let error = try #require(throws: FleetError.self) { try registry.open("file:") }
        #expect(error.code == .invalidArgument)
        #expect(registry.usage == "file:PATH")
    }

    /// The point `meters` from `start` along `bearingDegrees` on a sphere of radius 6,371 km.
    static func destination(from start: IndexPoint, meters: Double, bearingDegrees: Double) -> IndexPoint {
        let radians = Double.pi / 180
        let angle = meters / 6_371_000
        let latitude = start.latitude * radians
        let bearing = bearingDegrees * radians
        let latitude2 = asin(sin(latitude) * cos(angle) + cos(latitude) * sin(angle) * cos(bearing))
        let longitude2 = start.longitude * radians
            + atan2(sin(bearing) * sin(angle) * cos(latitude), cos(angle) - sin(latitude) * sin(latitude2))
        return IndexPoint(latitude: latitude2 / radians, longitude: longitude2 / radians)
    }
}

/// A thread-safe count.
final class FileStoreCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
