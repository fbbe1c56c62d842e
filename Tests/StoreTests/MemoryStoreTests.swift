import FleetErrors
import FleetStore
import MemoryStore
import Testing

/// What the memory store does beyond the contract.
@Suite("MemoryStore")
struct MemoryStoreTests {
    @Test func registryOpensMemoryWithoutAPath() throws {
        let registry = StoreRegistry([MemoryStore.scheme])
        #expect(MemoryStore.scheme.name == "memory")
        #expect(MemoryStore.scheme.needsRest == false)
        let store = try registry.open("memory")
        #expect(store is MemoryStore)
        try store.close()
    }

    @Test func eachStoreHasItsOwnRecords() throws {
        let first = MemoryStore()
        let second = MemoryStore()
        try Sample.create(Sample.vehicle("v1"), in: first)
        #expect(try second.get(RecordKey(.vehicle, provider: "p", id: "v1")) == nil)
        #expect(try first.get(RecordKey(.vehicle, provider: "p", id: "v1")) != nil)
    }

    @Test func closingTwiceIsHarmless() throws {
        let store = MemoryStore()
        try store.close()
        try store.close()
        let error = #expect(throws: FleetError.self) { try store.get(RecordKey(.trip, provider: "p", id: "t")) }
        #expect(error?.cause == ErrorCause.storeFailure.id)
    }

    @Test func writesInOneCommitSeeTheOnesBeforeThem() throws {
        let store = MemoryStore()
        let versions = try store.commit([
            .put(Sample.vehicle("v1", payload: "a"), expectedVersion: 0),
            .put(Sample.vehicle("v1", payload: "b"), expectedVersion: 1),
        ])
        #expect(versions == [1, 2])
        #expect(Sample.text(try store.get(RecordKey(.vehicle, provider: "p", id: "v1"))) == "b")
    }

    @Test func emptyCommitChangesNothing() throws {
        let store = MemoryStore()
        #expect(try store.commit([]) == [])
        #expect(try store.list(.vehicle, provider: "p", afterID: nil, limit: 10).isEmpty)
    }

    @Test func nonPositiveLimitListsNothing() throws {
        let store = MemoryStore()
        try Sample.create(Sample.vehicle("v1"), in: store)
        #expect(try store.list(.vehicle, provider: "p", afterID: nil, limit: 0).isEmpty)
        #expect(try store.list(.vehicle, provider: "p", afterID: nil, limit: -1).isEmpty)
    }
}
