import FleetErrors
import FleetStore
import Foundation

/// A store under test in a temporary directory of its own.
final class StoreFixture {
    let factory: StoreFactory
    let options: StoreOptions
    /// The directory the store keeps its files in; removed by `withFixture`.
    let directory: String
    /// The open store (replaced by `reopen()`).
    private(set) var store: any Store

    private init(factory: StoreFactory, options: StoreOptions) throws {
        self.factory = factory
        self.options = options
        self.directory = try Self.makeTemporaryDirectory(prefix: "store-\(factory.name)")
        do {
            self.store = try factory.open(directory, options)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Closes the store and opens the same data again.
    @discardableResult
    func reopen() throws -> any Store {
        try store.close()
        store = try factory.open(directory, options)
        return store
    }

    /// Runs `body` with a fresh store, then closes it and removes its directory.
    static func with<Result>(_ factory: StoreFactory, options: StoreOptions = .init(),
                             _ body: (StoreFixture) throws -> Result) throws -> Result {
        let fixture = try StoreFixture(factory: factory, options: options)
        defer {
            try? fixture.store.close()
            try? FileManager.default.removeItem(atPath: fixture.directory)
        }
        return try body(fixture)
    }

    /// A new, empty directory under the system's temporary directory.
    static func makeTemporaryDirectory(prefix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Records for tests.
enum Sample {
    static func vehicle(_ id: String, provider: String = "p", at point: IndexPoint? = nil,
                        payload: String = "vehicle") -> StoreRecord {
        StoreRecord(key: RecordKey(.vehicle, provider: provider, id: id), version: 0,
                    payload: Array(payload.utf8), point: point)
    }

    static func trip(_ id: String, provider: String = "p", owner: String? = nil, payload: String = "trip") -> StoreRecord {
        StoreRecord(key: RecordKey(.trip, provider: provider, id: id), version: 0,
                    payload: Array(payload.utf8), owner: owner)
    }

    /// Creates `record` (expected version 0) and returns it as stored.
    @discardableResult
    static func create(_ record: StoreRecord, in store: any Store) throws -> StoreRecord {
        var stored = record
        stored.version = try store.commit(.put(record, expectedVersion: 0))
        return stored
    }

    /// The payload as text.
    static func text(_ record: StoreRecord?) -> String? {
        record.map { String(decoding: $0.payload, as: UTF8.self) }
    }
}

/// A counter kept in one record's payload (as decimal text), incremented by read-modify-write.
enum Counter {
    /// Adds one to the counter at `key`, retrying on `StoreConflict`; returns the new value.
    @discardableResult
    static func increment(_ key: RecordKey, in store: any Store) throws -> Int {
        while true {
            guard let current = try store.get(key) else {
                throw FleetError.notFound("\(key)")
            }
            let value = Int(String(decoding: current.payload, as: UTF8.self)) ?? 0
            var next = current
            next.payload = Array("\(value + 1)".utf8)
            do {
                try store.commit(.put(next, expectedVersion: current.version))
                return value + 1
            } catch is StoreConflict {
                continue
            }
        }
    }
}
