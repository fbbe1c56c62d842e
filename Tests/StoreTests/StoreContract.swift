import FleetErrors
import FleetStore
import Foundation
import Synchronization
import Testing

/// What every `Store` must do, run against each store in `StoreFactories.all`.
@Suite("Store contract")
struct StoreContract {
    // MARK: Versions and optimistic concurrency

    @Test(arguments: StoreFactories.all)
    func getOfMissingRecordIsNil(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture throws in
            let store = fixture.store
            #expect(try store.get(RecordKey(.vehicle, provider: "p", id: "nobody")) == nil)
            #expect(try store.get(RecordKey(.trip, provider: "p", id: "nobody")) == nil)
        }
    }

    @Test(arguments: StoreFactories.all)
    func createWithExpectedVersionZeroStoresVersionOne(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            var vehicle = Sample.vehicle("v1", at: IndexPoint(latitude: 52.5, longitude: 13.4), payload: "{\"name\":\"v1\"}")
            vehicle.version = 77 // ignored: the store assigns versions
            let version = try store.commit(.put(vehicle, expectedVersion: 0))
            #expect(version == 1)
            let stored = try #require(try store.get(vehicle.key))
            #expect(stored.version == 1)
            #expect(stored.key == vehicle.key)
            #expect(stored.payload == vehicle.payload)
            #expect(stored.point == vehicle.point)
            #expect(stored.owner == nil)

            try Sample.create(Sample.trip("t1", owner: "v1"), in: store)
            let trip = try #require(try store.get(RecordKey(.trip, provider: "p", id: "t1")))
            #expect(trip.owner == "v1")
            #expect(trip.point == nil)
        }
    }

    @Test(arguments: StoreFactories.all)
    func payloadsAndKeysAreKeptByteForByte(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            let odd = "it's a \"quote\"; DROP TABLE records; -- ü 🚕 \u{0}"
            let record = StoreRecord(key: RecordKey(.trip, provider: odd, id: odd), version: 0,
                                     payload: Array(0...255), owner: odd)
            try store.commit(.put(record, expectedVersion: 0))
            let stored = try #require(try store.get(record.key))
            #expect(stored.key == record.key)
            #expect(stored.payload == Array(0...255))
            #expect(stored.owner == odd)

            let empty = StoreRecord(key: RecordKey(.vehicle, provider: "p", id: "empty"), version: 0, payload: [])
            try store.commit(.put(empty, expectedVersion: 0))
            #expect(try store.get(empty.key)?.payload == [])
        }
    }

    @Test(arguments: StoreFactories.all)
    func creatingTwiceConflictsWithTheActualVersion(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            try Sample.create(Sample.vehicle("v1", payload: "first"), in: store)
            let error = #expect(throws: StoreConflict.self) {
                try store.commit(.put(Sample.vehicle("v1", payload: "second"), expectedVersion: 0))
            }
            #expect(error == StoreConflict(key: RecordKey(.vehicle, provider: "p", id: "v1"), expectedVersion: 0, actualVersion: 1))
            #expect(Sample.text(try store.get(RecordKey(.vehicle, provider: "p", id: "v1"))) == "first")
        }
    }

    @Test(arguments: StoreFactories.all)
    func updatesNeedTheCurrentVersionAndIncrementIt(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            let key = RecordKey(.vehicle, provider: "p", id: "v1")
            try Sample.create(Sample.vehicle("v1", payload: "0"), in: store)
            for expected in UInt64(1)...5 {
                let version = try store.commit(.put(Sample.vehicle("v1", payload: "\(expected)"), expectedVersion: expected))
                #expect(version == expected + 1)
            }
            #expect(try store.get(key)?.version == 6)
            #expect(Sample.text(try store.get(key)) == "5")

            let stale = #expect(throws: StoreConflict.self) {
                try store.commit(.put(Sample.vehicle("v1", payload: "stale"), expectedVersion: 3))
            }
            #expect(stale?.expectedVersion == 3)
            #expect(stale?.actualVersion == 6)
            let ahead = #expect(throws: StoreConflict.self) {
                try store.commit(.put(Sample.vehicle("v1", payload: "ahead"), expectedVersion: 7))
            }
            #expect(ahead?.actualVersion == 6)
            #expect(Sample.text(try store.get(key)) == "5")
            #expect(try store.get(key)?.version == 6)

            let missing = #expect(throws: StoreConflict.self) {
                try store.commit(.put(Sample.vehicle("ghost"), expectedVersion: 2))
            }
            #expect(missing?.actualVersion == 0)
            #expect(try store.get(RecordKey(.vehicle, provider: "p", id: "ghost")) == nil)
        }
    }

    @Test(arguments: StoreFactories.all)
    func deletesNeedTheCurrentVersion(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            let key = RecordKey(.trip, provider: "p", id: "t1")
            try Sample.create(Sample.trip("t1"), in: store)
            try store.commit(.put(Sample.trip("t1", payload: "v2"), expectedVersion: 1))

            let wrong = #expect(throws: StoreConflict.self) {
                try store.commit(.delete(key, expectedVersion: 1))
            }
            #expect(wrong == StoreConflict(key: key, expectedVersion: 1, actualVersion: 2))
            #expect(try store.get(key) != nil)

            #expect(try store.commit(.delete(key, expectedVersion: 2)) == 0)
            #expect(try store.get(key) == nil)

            let again = #expect(throws: StoreConflict.self) {
                try store.commit(.delete(key, expectedVersion: 2))
            }
            #expect(again?.actualVersion == 0)

            // A deleted record can be created anew: at version 1, or, in a store several processes
            // share, after the version it was deleted at (2), so that no remembered version matches it.
            let reborn = try store.commit(.put(Sample.trip("t1", payload: "reborn"), expectedVersion: 0))
            #expect(reborn == (store.isSharedWithOtherProcesses ? 3 : 1))
            #expect(Sample.text(try store.get(key)) == "reborn")
        }
    }

    @Test(arguments: StoreFactories.all)
    func aCommitAppliesEveryWriteOrNone(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            let versions = try store.commit([
                .put(Sample.vehicle("a", payload: "a1"), expectedVersion: 0),
                .put(Sample.vehicle("b", payload: "b1"), expectedVersion: 0),
                .put(Sample.trip("t", owner: "a"), expectedVersion: 0),
            ])
            #expect(versions == [1, 1, 1])

            // The last write conflicts: the others must not be applied either.
            let conflict = #expect(throws: StoreConflict.self) {
                try store.commit([
                    .put(Sample.vehicle("a", payload: "a2"), expectedVersion: 1),
                    .delete(RecordKey(.trip, provider: "p", id: "t"), expectedVersion: 1),
                    .put(Sample.vehicle("c", payload: "c1"), expectedVersion: 0),
                    .put(Sample.vehicle("b", payload: "b2"), expectedVersion: 0),
                ])
            }
            #expect(conflict?.key == RecordKey(.vehicle, provider: "p", id: "b"))
            #expect(conflict?.actualVersion == 1)
            #expect(Sample.text(try store.get(RecordKey(.vehicle, provider: "p", id: "a"))) == "a1")
            #expect(try store.get(RecordKey(.vehicle, provider: "p", id: "a"))?.version == 1)
            #expect(try store.get(RecordKey(.trip, provider: "p", id: "t")) != nil)
            #expect(try store.get(RecordKey(.vehicle, provider: "p", id: "c")) == nil)
            #expect(try store.owned(by: "a", provider: "p").map(\.key.id) == ["t"])

            // The same writes without the conflicting one go through, with one version per write.
            let applied = try store.commit([
                .put(Sample.vehicle("a", payload: "a2"), expectedVersion: 1),
                .delete(RecordKey(.trip, provider: "p", id: "t"), expectedVersion: 1),
                .put(Sample.vehicle("c", payload: "c1"), expectedVersion: 0),
            ])
            #expect(applied == [2, 0, 1])
            #expect(Sample.text(try store.get(RecordKey(.vehicle, provider: "p", id: "a"))) == "a2")
            #expect(try store.get(RecordKey(.trip, provider: "p", id: "t")) == nil)
            #expect(try store.owned(by: "a", provider: "p").isEmpty)
        }
    }

    // MARK: Listing

    @Test(arguments: StoreFactories.all)
    func listOrdersByIDAndPagesWithAfterID(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            let ids = ["v10", "v2", "V3", "a", "v1", "b-7", "zz", "v100", "m"]
            for id in ids.shuffled() {
                try Sample.create(Sample.vehicle(id, payload: id), in: store)
            }
            // Same IDs, other provider or other kind: never listed with ours.
            try Sample.create(Sample.vehicle("v1", provider: "other"), in: store)
            try Sample.create(Sample.vehicle("c", provider: "other"), in: store)
            try Sample.create(Sample.trip("v1"), in: store)
            try Sample.create(Sample.trip("c"), in: store)

            let sorted = ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let all = try store.list(.vehicle, provider: "p", afterID: nil, limit: 100)
            #expect(all.map(\.key.id) == sorted)
            #expect(all.allSatisfy { $0.key.kind == .vehicle && $0.key.provider == "p" && $0.version == 1 })
            #expect(all.map { Sample.text($0) } == sorted)

            #expect(try store.list(.vehicle, provider: "p", afterID: nil, limit: 3).map(\.key.id) == Array(sorted.prefix(3)))

            var paged: [String] = []
            var cursor: String?
            var pages = 0
            while true {
                let page = try store.list(.vehicle, provider: "p", afterID: cursor, limit: 2)
                #expect(page.count <= 2)
                guard let last = page.last else { break }
                paged += page.map(\.key.id)
                cursor = last.key.id
                pages += 1
                try #require(pages <= ids.count, "pagination does not end")
            }
            #expect(paged == sorted)
            #expect(pages == 5)

            // afterID need not name a record: it is a position.
            #expect(try store.list(.vehicle, provider: "p", afterID: "v15", limit: 100).map(\.key.id) == ["v2", "zz"])
            #expect(try store.list(.vehicle, provider: "p", afterID: "zz", limit: 100).isEmpty)

            #expect(try store.list(.vehicle, provider: "other", afterID: nil, limit: 100).map(\.key.id) == ["c", "v1"])
            #expect(try store.list(.trip, provider: "p", afterID: nil, limit: 100).map(\.key.id) == ["c", "v1"])
            #expect(try store.list(.trip, provider: "other", afterID: nil, limit: 100).isEmpty)
            #expect(try store.list(.vehicle, provider: "nobody", afterID: nil, limit: 100).isEmpty)
        }
    }

    // MARK: Nearby

    @Test(arguments: StoreFactories.all, NearbyCase.all)
    func nearbyFindsPointsWithinTheRadius(_ factory: StoreFactory, _ place: NearbyCase) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            var inside: Set<String> = ["center"]
            try Sample.create(Sample.vehicle("center", at: place.center), in: store)
            for bearing in stride(from: 0.0, to: 360, by: 45) {
                let near = Geodesy.destination(from: place.center, bearing: bearing, meters: place.radius * 0.98)
                try Sample.create(Sample.vehicle("in-\(Int(bearing))", at: near), in: store)
                inside.insert("in-\(Int(bearing))")
            }
            var outside: Set<String> = []
            for bearing in place.outsideBearings {
                let far = Geodesy.destination(from: place.center, bearing: bearing, meters: place.radius * 2.5)
                try Sample.create(Sample.vehicle("out-\(Int(bearing))", at: far), in: store)
                outside.insert("out-\(Int(bearing))")
            }
            let antipode = IndexPoint(latitude: -place.center.latitude,
                                      longitude: place.center.longitude > 0 ? place.center.longitude - 180 : place.center.longitude + 180)
            try Sample.create(Sample.vehicle("antipode", at: antipode), in: store)
            outside.insert("antipode")

            let found = try store.nearby(provider: "p", center: place.center, radiusMeters: place.radius)
            let ids = Set(found.map(\.key.id))
            #expect(inside.subtracting(ids).isEmpty, "missed points within the radius: \(inside.subtracting(ids).sorted())")
            #expect(ids.isDisjoint(with: outside), "found points far outside the radius: \(ids.intersection(outside).sorted())")
            #expect(found.count == ids.count, "a record was returned twice")
            #expect(found.allSatisfy { $0.key.kind == .vehicle && $0.key.provider == "p" && $0.version == 1 })
            #expect(found.first { $0.key.id == "center" }?.point == place.center)
        }
    }

    @Test(arguments: StoreFactories.all)
    func nearbyOnlyReturnsTheProvidersVehiclesWithAPoint(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            let here = IndexPoint(latitude: 48.8566, longitude: 2.3522)
            try Sample.create(Sample.vehicle("mine", at: here), in: store)
            try Sample.create(Sample.vehicle("no-point"), in: store)
            try Sample.create(Sample.vehicle("theirs", provider: "other", at: here), in: store)
            var trip = Sample.trip("trip-with-point")
            trip.point = here
            try Sample.create(trip, in: store)

            #expect(try store.nearby(provider: "p", center: here, radiusMeters: 1000).map(\.key.id) == ["mine"])
            #expect(try store.nearby(provider: "other", center: here, radiusMeters: 1000).map(\.key.id) == ["theirs"])
            #expect(try store.nearby(provider: "nobody", center: here, radiusMeters: 1000).isEmpty)
            // A radius of zero still finds a point exactly at the center.
            #expect(try store.nearby(provider: "p", center: here, radiusMeters: 0).map(\.key.id) == ["mine"])
        }
    }

    @Test(arguments: StoreFactories.all)
    func nearbyFollowsMovesAndDeletes(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            let london = IndexPoint(latitude: 51.5074, longitude: -0.1278)
            let madrid = IndexPoint(latitude: 40.4168, longitude: -3.7038)
            let key = RecordKey(.vehicle, provider: "p", id: "v1")
            try Sample.create(Sample.vehicle("v1", at: london), in: store)
            #expect(try store.nearby(provider: "p", center: london, radiusMeters: 500).map(\.key.id) == ["v1"])

            try store.commit(.put(Sample.vehicle("v1", at: madrid), expectedVersion: 1))
            #expect(try store.nearby(provider: "p", center: london, radiusMeters: 500).isEmpty)
            #expect(try store.nearby(provider: "p", center: madrid, radiusMeters: 500).map(\.key.id) == ["v1"])
            #expect(try store.nearby(provider: "p", center: madrid, radiusMeters: 500).first?.version == 2)

            // Rewritten at the same point: still found, with the new payload.
            try store.commit(.put(Sample.vehicle("v1", at: madrid, payload: "same place"), expectedVersion: 2))
            #expect(try store.nearby(provider: "p", center: madrid, radiusMeters: 500).map { Sample.text($0) } == ["same place"])

            try store.commit(.put(Sample.vehicle("v1", at: nil), expectedVersion: 3))
            #expect(try store.nearby(provider: "p", center: madrid, radiusMeters: 500).isEmpty)

            try store.commit(.put(Sample.vehicle("v1", at: london), expectedVersion: 4))
            #expect(try store.nearby(provider: "p", center: london, radiusMeters: 500).map(\.key.id) == ["v1"])

            try store.commit(.delete(key, expectedVersion: 5))
            #expect(try store.nearby(provider: "p", center: london, radiusMeters: 500).isEmpty)

            // A conflicting move (v2 is at version 1) leaves the index where it was.
            try Sample.create(Sample.vehicle("v2", at: london), in: store)
            #expect(throws: StoreConflict.self) {
                try store.commit(.put(Sample.vehicle("v2", at: madrid), expectedVersion: 5))
            }
            #expect(try store.nearby(provider: "p", center: london, radiusMeters: 500).map(\.key.id) == ["v2"])
            #expect(try store.nearby(provider: "p", center: madrid, radiusMeters: 500).isEmpty)
        }
    }

    // MARK: Owners

    @Test(arguments: StoreFactories.all)
    func ownedFollowsTheOwner(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            try Sample.create(Sample.trip("t1", owner: "v1"), in: store)
            try Sample.create(Sample.trip("t2", owner: "v1"), in: store)
            try Sample.create(Sample.trip("t3"), in: store)
            try Sample.create(Sample.trip("t4", provider: "other", owner: "v1"), in: store)
            var vehicle = Sample.vehicle("v9")
            vehicle.owner = "v1"
            try Sample.create(vehicle, in: store)

            #expect(try store.owned(by: "v1", provider: "p").map(\.key.id).sorted() == ["t1", "t2"])
            #expect(try store.owned(by: "v1", provider: "other").map(\.key.id) == ["t4"])
            #expect(try store.owned(by: "v2", provider: "p").isEmpty)

            try store.commit(.put(Sample.trip("t1", owner: "v2"), expectedVersion: 1))
            #expect(try store.owned(by: "v1", provider: "p").map(\.key.id) == ["t2"])
            #expect(try store.owned(by: "v2", provider: "p").map(\.key.id) == ["t1"])
            #expect(try store.owned(by: "v2", provider: "p").first?.version == 2)

            try store.commit(.put(Sample.trip("t2", owner: nil), expectedVersion: 1))
            #expect(try store.owned(by: "v1", provider: "p").isEmpty)

            try store.commit(.delete(RecordKey(.trip, provider: "p", id: "t1"), expectedVersion: 2))
            #expect(try store.owned(by: "v2", provider: "p").isEmpty)
        }
    }

    // MARK: Deliveries

    @Test(arguments: StoreFactories.all)
    func everyKindIsATableOfItsOwn(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            for kind in RecordKind.allCases {
                try Sample.create(StoreRecord(key: RecordKey(kind, provider: "p", id: "same"), version: 0,
                                              payload: Array(kind.rawValue.utf8)), in: store)
            }
            for kind in RecordKind.allCases {
                #expect(Sample.text(try store.get(RecordKey(kind, provider: "p", id: "same"))) == kind.rawValue)
                #expect(try store.list(kind, provider: "p", afterID: nil, limit: 10).map(\.key.id) == ["same"])
            }
        }
    }

    @Test(arguments: StoreFactories.all)
    func deliveryRecordsKeepTheirPointAndOwnerOutsideTheRidesIndexes(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            let depot = IndexPoint(latitude: 48.137, longitude: 11.575)
            try Sample.create(StoreRecord(key: RecordKey(.deliveryVehicle, provider: "p", id: "dv1"), version: 0,
                                          payload: Array("van".utf8), point: depot), in: store)
            try Sample.create(StoreRecord(key: RecordKey(.task, provider: "p", id: "t1"), version: 0,
                                          payload: Array("parcel".utf8), owner: "dv1"), in: store)
            #expect(try store.get(RecordKey(.deliveryVehicle, provider: "p", id: "dv1"))?.point == depot)
            #expect(try store.get(RecordKey(.task, provider: "p", id: "t1"))?.owner == "dv1")
            // `nearby` finds rides vehicles and `owned` trips: a delivery vehicle or a task never joins them.
            #expect(try store.nearby(provider: "p", center: depot, radiusMeters: 100).isEmpty)
            #expect(try store.owned(by: "dv1", provider: "p").isEmpty)
        }
    }

    @Test(arguments: StoreFactories.all)
    func aTaskAndItsShipmentCommitTogetherOrNotAtAll(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            let shipment = RecordKey(.shipment, provider: "p", id: "PARCEL-1")
            func task(_ id: String) -> StoreRecord {
                StoreRecord(key: RecordKey(.task, provider: "p", id: id), version: 0, payload: Array(id.utf8))
            }
            try store.commit([.put(task("pickup"), expectedVersion: 0),
                              .put(StoreRecord(key: shipment, version: 0, payload: Array("pickup".utf8)), expectedVersion: 0)])
            // A second writer that read no shipment conflicts on it, and its task is not written either.
            let error = #expect(throws: StoreConflict.self) {
                try store.commit([.put(task("dropoff"), expectedVersion: 0),
                                  .put(StoreRecord(key: shipment, version: 0, payload: Array("dropoff".utf8)), expectedVersion: 0)])
            }
            #expect(error?.key == shipment)
            #expect(try store.get(RecordKey(.task, provider: "p", id: "dropoff")) == nil)
            try store.commit([.put(task("dropoff"), expectedVersion: 0),
                              .put(StoreRecord(key: shipment, version: 0, payload: Array("pickup,dropoff".utf8)), expectedVersion: 1)])
            #expect(Sample.text(try store.get(shipment)) == "pickup,dropoff")
            #expect(try store.list(.task, provider: "p", afterID: nil, limit: 10).map(\.key.id) == ["dropoff", "pickup"])
        }
    }

    @Test(arguments: StoreFactories.persistent)
    func deliveryRecordsSurviveReopening(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            var store = fixture.store
            let depot = IndexPoint(latitude: 48.137, longitude: 11.575)
            try Sample.create(StoreRecord(key: RecordKey(.deliveryVehicle, provider: "p", id: "dv1"), version: 0,
                                          payload: Array("van".utf8), point: depot), in: store)
            try Sample.create(StoreRecord(key: RecordKey(.task, provider: "p", id: "t1"), version: 0,
                                          payload: Array("parcel".utf8), owner: "dv1"), in: store)
            try Sample.create(StoreRecord(key: RecordKey(.shipment, provider: "p", id: "PARCEL-1"), version: 0,
                                          payload: Array("t1".utf8)), in: store)
            store = try fixture.reopen()
            #expect(try store.get(RecordKey(.deliveryVehicle, provider: "p", id: "dv1"))?.point == depot)
            #expect(try store.get(RecordKey(.task, provider: "p", id: "t1"))?.owner == "dv1")
            #expect(Sample.text(try store.get(RecordKey(.shipment, provider: "p", id: "PARCEL-1"))) == "t1")
        }
    }

    // MARK: Persistence

    @Test(arguments: StoreFactories.persistent)
    func recordsAndIndexesSurviveReopening(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let tokyo = IndexPoint(latitude: 35.6762, longitude: 139.6503)
            var store = fixture.store
            try Sample.create(Sample.vehicle("v1", at: tokyo, payload: "one"), in: store)
            try store.commit(.put(Sample.vehicle("v1", at: tokyo, payload: "two"), expectedVersion: 1))
            try Sample.create(Sample.trip("t1", owner: "v1"), in: store)
            try Sample.create(Sample.trip("gone"), in: store)
            try store.commit(.delete(RecordKey(.trip, provider: "p", id: "gone"), expectedVersion: 1))

            store = try fixture.reopen()
            let vehicle = try #require(try store.get(RecordKey(.vehicle, provider: "p", id: "v1")))
            #expect(vehicle.version == 2)
            #expect(Sample.text(vehicle) == "two")
            #expect(vehicle.point == tokyo)
            #expect(try store.get(RecordKey(.trip, provider: "p", id: "gone")) == nil)
            #expect(try store.nearby(provider: "p", center: tokyo, radiusMeters: 100).map(\.key.id) == ["v1"])
            #expect(try store.owned(by: "v1", provider: "p").map(\.key.id) == ["t1"])
            #expect(try store.list(.trip, provider: "p", afterID: nil, limit: 10).map(\.key.id) == ["t1"])

            // Versions go on from where they were.
            #expect(try store.commit(.put(Sample.vehicle("v1", payload: "three"), expectedVersion: 2)) == 3)
            store = try fixture.reopen()
            #expect(Sample.text(try store.get(RecordKey(.vehicle, provider: "p", id: "v1"))) == "three")
        }
    }

    // MARK: Concurrency

    @Test(arguments: StoreFactories.all)
    func concurrentReadModifyWriteLosesNoIncrement(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            let key = RecordKey(.vehicle, provider: "p", id: "counter")
            try Sample.create(Sample.vehicle("counter", payload: "0"), in: store)
            let threads = 8
            let increments = 200
            try ThreadGroup.run(threads) { _ in
                for _ in 0..<increments {
                    try Counter.increment(key, in: store)
                }
            }
            let counter = try #require(try store.get(key))
            #expect(Sample.text(counter) == "\(threads * increments)")
            #expect(counter.version == UInt64(threads * increments + 1))
        }
    }

    @Test(arguments: StoreFactories.all)
    func concurrentWritersAndReadersSeeWholeCommits(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            let writers = 6
            let pairs = 60
            let here = IndexPoint(latitude: 1, longitude: 1)
            // Writers create a vehicle and its trip in one commit; readers must never see a trip
            // without its vehicle (each commit is seen whole or not at all).
            try ThreadGroup.run(writers + 2) { index in
                if index < writers {
                    for n in 0..<pairs {
                        try store.commit([
                            .put(Sample.vehicle("w\(index)-\(n)", at: here), expectedVersion: 0),
                            .put(Sample.trip("w\(index)-\(n)", owner: "w\(index)-\(n)"), expectedVersion: 0),
                        ])
                    }
                } else {
                    for _ in 0..<40 {
                        let trips = try store.list(.trip, provider: "p", afterID: nil, limit: 10_000)
                        for trip in trips where try store.get(RecordKey(.vehicle, provider: "p", id: trip.key.id)) == nil {
                            throw TornCommit(id: trip.key.id)
                        }
                    }
                }
            }
            #expect(try store.list(.vehicle, provider: "p", afterID: nil, limit: 10_000).count == writers * pairs)
            #expect(try store.list(.trip, provider: "p", afterID: nil, limit: 10_000).count == writers * pairs)
            #expect(try store.nearby(provider: "p", center: here, radiusMeters: 10).count == writers * pairs)
            #expect(try store.owned(by: "w3-7", provider: "p").map(\.key.id) == ["w3-7"])
        }
    }

    @Test(arguments: StoreFactories.all)
    func readsInOneSnapshotSeeOneCommittedState(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            @Sendable func pair(_ n: Int) -> [StoreRecord] {
                ["a", "b"].map { StoreRecord(key: RecordKey(.vehicle, provider: "p", id: $0), version: 0, payload: Array("\(n)".utf8)) }
            }
            try store.commit(pair(0).map { .put($0, expectedVersion: 0) })
            // One writer moves both records forward together until the readers are done; readers read
            // them one after the other, pausing in between, and must always find them equal (outside
            // a snapshot, the writer's commits would land in the pauses).
            let readersDone = Atomic<Int>(0)
            let commits = Atomic<Int>(0)
            try ThreadGroup.run(3) { index in
                if index == 0 {
                    var n = 0
                    while readersDone.load(ordering: .relaxed) < 2 {
                        try store.commit(pair(n + 1).map { .put($0, expectedVersion: UInt64(n + 1)) })
                        n += 1
                        commits.store(n, ordering: .relaxed)
                    }
                    return
                }
                defer { readersDone.add(1, ordering: .relaxed) }
                for _ in 0..<40 {
                    let (a, b) = try store.withSnapshot { snapshot in
                        let a = try snapshot.get(RecordKey(.vehicle, provider: "p", id: "a"))
                        usleep(500)
                        return (a, try snapshot.get(RecordKey(.vehicle, provider: "p", id: "b")))
                    }
                    if a?.payload != b?.payload || a?.version != b?.version {
                        throw TornCommit(id: "a at \(a?.version ?? 0), b at \(b?.version ?? 0)")
                    }
                }
            }
            #expect(commits.load(ordering: .relaxed) > 0, "the writer wrote while the readers read")
        }
    }

    @Test(arguments: StoreFactories.all)
    func aCommitWithACompletionAppliesOrConflictsAsAWaitingOneWould(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture throws in
            let store = fixture.store
            let outcomes = Mutex<[Result<[UInt64], StoreConflict>]>([])
            let done = DispatchSemaphore(value: 0)
            let record = Sample.vehicle("v1", at: IndexPoint(latitude: 1, longitude: 2))
            for expected: UInt64 in [0, 0] {  // the second create conflicts with the first
                store.commit([.put(record, expectedVersion: expected)]) { result in
                    outcomes.withLock { $0.append(result.mapError { $0 as? StoreConflict ?? StoreConflict(key: record.key, expectedVersion: 99, actualVersion: 99) }) }
                    done.signal()
                }
                #expect(done.wait(timeout: .now() + 20) == .success)
            }
            let seen = outcomes.withLock { $0 }
            #expect(try seen.first?.get() == [1])
            #expect(throws: StoreConflict(key: record.key, expectedVersion: 0, actualVersion: 1)) { _ = try seen.last?.get() }
            #expect(try store.get(record.key)?.point == record.point)
        }
    }

    // MARK: Closing

    @Test(arguments: StoreFactories.all)
    func everyCallAfterCloseFails(_ factory: StoreFactory) throws {
        try StoreFixture.with(factory) { fixture in
            let store = fixture.store
            try Sample.create(Sample.vehicle("v1", at: IndexPoint(latitude: 0, longitude: 0)), in: store)
            try store.close()
            let key = RecordKey(.vehicle, provider: "p", id: "v1")
            #expect(throws: FleetError.self) { try store.get(key) }
            #expect(throws: FleetError.self) { try store.commit(.put(Sample.vehicle("v2"), expectedVersion: 0)) }
            #expect(throws: FleetError.self) { try store.commit(.delete(key, expectedVersion: 1)) }
            #expect(throws: FleetError.self) { try store.list(.vehicle, provider: "p", afterID: nil, limit: 10) }
            #expect(throws: FleetError.self) {
                try store.nearby(provider: "p", center: IndexPoint(latitude: 0, longitude: 0), radiusMeters: 10)
            }
            #expect(throws: FleetError.self) { try store.owned(by: "v1", provider: "p") }
            #expect(throws: FleetError.self) { try store.withSnapshot { try $0.get(key) } }
            let refused = Mutex<(any Error)?>(nil)
            store.commit([.put(Sample.vehicle("v3"), expectedVersion: 0)]) { result in
                if case .failure(let error) = result { refused.withLock { $0 = error } }
            }
            #expect(refused.withLock { $0 } is FleetError)
        }
    }
}

/// A trip listed without the vehicle created in the same commit.
struct TornCommit: Error, CustomStringConvertible {
    let id: String
    var description: String { "trip \(id) is visible but the vehicle committed with it is not" }
}
