import CSQLite
import FleetErrors
import FleetStore
import Foundation
@testable import SQLiteStore
import Testing

/// What the SQLite store does beyond the contract: its file format, migrations, locking and group commit.
@Suite("SQLiteStore")
struct SQLiteStoreTests {
    @Test func registryOpensSQLitePathsWithOptions() throws {
        try withDirectory { directory in
            let registry = StoreRegistry([SQLiteStore.scheme])
            let store = try registry.open("sqlite:\(directory)/fleet.db?durable=false")
            let sqlite = try #require(store as? SQLiteStore)
            #expect(sqlite.path == "\(directory)/fleet.db")
            #expect(sqlite.options.durable == false)
            try store.close()
            #expect(FileManager.default.fileExists(atPath: "\(directory)/fleet.db"))
            let error = #expect(throws: FleetError.self) { try registry.open("sqlite") }
            #expect(error?.code == .invalidArgument)
        }
    }

    /// A store whose last reference goes away in a commit's completion, on the writer thread, still
    /// closes: closing there waited for the very thread it ran on, which hung and kept the file open.
    @Test func aStoreReleasedInItsOwnCompletionStillCloses() throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            let answered = DispatchSemaphore(value: 0)
            do {
                let store = try SQLiteStore(path: path)
                store.commit([.put(Sample.vehicle("v1"), expectedVersion: 0)]) { [store] _ in
                    withExtendedLifetime(store) {}
                    answered.signal()
                }
            }
            #expect(answered.wait(timeout: .now() + 10) == .success)
            // Closed: SQLite removes the write-ahead log when the last connection to the file closes.
            let log = path + "-wal"
            let deadline = Date().addingTimeInterval(10)
            while FileManager.default.fileExists(atPath: log) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            #expect(!FileManager.default.fileExists(atPath: log), "the store was never closed")
        }
    }

    @Test func fileIsInWALModeWithItsSchemaVersionAndMigrationLog() throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            let store = try SQLiteStore(path: path)
            try Sample.create(Sample.vehicle("v1", at: IndexPoint(latitude: 1, longitude: 2)), in: store)
            try Sample.create(Sample.vehicle("v2"), in: store)
            try store.close()
            // Opening again must not apply the migrations again.
            try SQLiteStore(path: path).close()

            let raw = try RawSQLite(path: path)
            #expect(try raw.text("PRAGMA journal_mode") == "wal")
            #expect(try raw.integer("PRAGMA user_version") == Int64(Schema.migrations.count))
            #expect(try raw.integer("SELECT count(*) FROM schema_migrations") == Int64(Schema.migrations.count))
            #expect(try raw.text("SELECT name FROM schema_migrations WHERE version = 1") == Schema.migrations[0].name)
            // Exactly the records with a point are filed under a grid cell; the R*Tree of old is gone.
            #expect(try raw.integer("SELECT count(*) FROM records WHERE cell IS NOT NULL") == 1)
            #expect(try raw.integer("SELECT cell FROM records WHERE id = 'v1'") == GeoBox.cellNumber(of: IndexPoint(latitude: 1, longitude: 2)))
            #expect(try raw.integer("SELECT count(*) FROM sqlite_master WHERE name = 'points'") == 0)
        }
    }

    /// Points are filed by grid cell: a move within the cell leaves the record's cell as it was, a
    /// move across a cell edge refiles it, and a search finds the vehicle after every move (the exact
    /// point comes from the record). Steps straddle edges at negative and positive coordinates and at
    /// the antimeridian.
    @Test(arguments: [(52.5, 13.4), (-33.87, -151.21), (0.0, 0.0), (-0.001, 179.999)])
    func movesWithinACellLeaveItsCellAloneAndSearchesStillFindTheVehicle(start: (Double, Double)) throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            let store = try SQLiteStore(path: path)
            defer { try? store.close() }
            var record = try Sample.create(Sample.vehicle("v1", at: IndexPoint(latitude: start.0, longitude: start.1)), in: store)
            let raw = try RawSQLite(path: path)
            func filed() throws -> Int64 {
                try raw.integer("SELECT cell FROM records")
            }
            var refiled = 0, kept = 0
            for step in 1...400 {
                // Steps of 3 m north and 1-2 m east: about ten of them cross a cell edge.
                let point = IndexPoint(latitude: start.0 + Double(step) * 2.7e-5, longitude: start.1 + Double(step) * 1.9e-5)
                let before = try filed()
                var moved = record
                moved.point = point
                moved.version = try store.commit(.put(moved, expectedVersion: record.version))
                let crossed = GeoBox.cell(of: point) != GeoBox.cell(of: record.point!)
                record = moved
                if crossed { refiled += 1 } else { kept += 1 }
                #expect((try filed() == before) == !crossed, "step \(step)")
                #expect(try filed() == GeoBox.cellNumber(of: point), "step \(step)")
                let found = try store.nearbyIndex(provider: "p", center: point, radiusMeters: 1)
                #expect(found.map(\.key.id) == ["v1"], "step \(step) at \(point)")
                #expect(found.first?.point == IndexPoint(latitude: point.latitude, longitude: GeoBox.normalizedLongitude(point.longitude))
                        || found.first?.point == point)
            }
            #expect(refiled >= 5 && kept > 300, "\(refiled) refiled, \(kept) kept")
        }
    }

    /// A file written before points were filed by cell (schema 1: exact points in an R*Tree) is
    /// migrated: every point filed under its cell, the R*Tree dropped, and searches find the vehicles
    /// as before.
    @Test func aSchemaOneFileIsMigratedToCells() throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            do {
                let raw = try RawSQLite(path: path)
                try raw.run("PRAGMA journal_mode = WAL")
                for statement in Schema.migrations[0].statements { try raw.run(statement) }
                try raw.run("INSERT INTO schema_migrations (version, name) VALUES (1, 'records')")
                for (i, point) in [(52.5, 13.4), (-33.87, -151.21), (52.5001, 13.4001)].enumerated() {
                    try raw.run("INSERT INTO records (rowid, kind, provider, id, version, payload, lat, lng) VALUES (\(i + 1), 'vehicle', 'p', 'v\(i)', 1, x'00', \(point.0), \(point.1))")
                    try raw.run("INSERT INTO points VALUES (\(i + 1), \(point.0), \(point.0), \(point.1), \(point.1))")
                }
                try raw.run("PRAGMA user_version = 1")
            }
            let store = try SQLiteStore(path: path)
            defer { try? store.close() }
            let raw = try RawSQLite(path: path)
            #expect(try raw.integer("PRAGMA user_version") == Int64(Schema.migrations.count))
            #expect(try raw.integer("SELECT count(*) FROM sqlite_master WHERE name = 'points'") == 0)
            #expect(try raw.integer("SELECT count(*) FROM records WHERE cell IS NOT NULL") == 3)
            let cell = GeoBox.cellNumber(of: IndexPoint(latitude: 52.5, longitude: 13.4))
            #expect(try raw.integer("SELECT count(*) FROM records WHERE cell = \(cell)") == 2)
            let near = try store.nearbyIndex(provider: "p", center: IndexPoint(latitude: 52.5, longitude: 13.4), radiusMeters: 50)
            #expect(Set(near.map(\.key.id)) == ["v0", "v2"])
            let south = try store.nearbyIndex(provider: "p", center: IndexPoint(latitude: -33.87, longitude: -151.21), radiusMeters: 5)
            #expect(south.map(\.key.id) == ["v1"])
        }
    }

    /// A file whose history was written before delivery vehicles had one (schema 5, no kind column)
    /// keeps its points as rides vehicles' points, and takes delivery vehicles' points after them.
    @Test func aSchemaFiveHistoryKeepsItsPointsAsRidesVehiclesPoints() throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            try RawSQLite(path: path).createFile(version: 5, data: """
                INSERT INTO history (provider, vehicle, time, lat, lng, accuracy, speed, heading, state, trips)
                VALUES ('p', 'v1', 10000000, 52.5, 13.4, 4, 8.5, 90, 'ONLINE', '')
                """)
            let store = try SQLiteStore(path: path)
            defer { try? store.close() }
            try HistoryContract.expectOnePointOfARidesVehicleKeptBeside(deliveryVehiclePointsIn: store)
        }
    }

    /// A box of many rows of cells is searched as one range over its rows: the cells of those rows
    /// outside its columns are skipped, east and west, and at the antimeridian.
    @Test(arguments: [(52.5, 13.4), (-10.0, 179.9)])
    func aTallBoxSkipsTheCellsOutsideItsColumns(center: (Double, Double)) throws {
        try withDirectory { directory in
            let store = try SQLiteStore(path: "\(directory)/fleet.db")
            defer { try? store.close() }
            let radius = 50_000.0  // about 0.9 degrees each way: hundreds of rows of cells
            let box = try #require(GeoBox.covering(center: IndexPoint(latitude: center.0, longitude: center.1), radiusMeters: radius).first)
            #expect(box.cellSearch.ranges.count == 1)
            let offsets: [(String, Double, Double)] = [("in", 0.3, 0.2), ("edge", -0.4, -0.3), ("east", 0.3, 5), ("west", -0.2, -5), ("far", 20, 0)]
            for (id, north, east) in offsets {
                let point = IndexPoint(latitude: center.0 + north, longitude: GeoBox.normalizedLongitude(center.1 + east))
                try Sample.create(Sample.vehicle(id, at: point), in: store)
            }
            let found = try store.nearbyIndex(provider: "p", center: IndexPoint(latitude: center.0, longitude: center.1), radiusMeters: radius)
            #expect(Set(found.map(\.key.id)) == ["in", "edge"])
            let records = try store.nearby(provider: "p", center: IndexPoint(latitude: center.0, longitude: center.1), radiusMeters: radius)
            #expect(Set(records.map(\.key.id)) == ["in", "edge"])
        }
    }

    @Test func aFileFromANewerVersionIsRefused() throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            try SQLiteStore(path: path).close()
            try RawSQLite(path: path).run("PRAGMA user_version = 99")
            let error = #expect(throws: FleetError.self) { try SQLiteStore(path: path) }
            #expect(error?.cause == ErrorCause.storeSchemaTooNew.id)
            #expect(error?.message.contains("99") == true)
            #expect(error?.message.contains(path) == true)
        }
    }

    @Test func aFileThatIsNotADatabaseFailsClearly() throws {
        try withDirectory { directory in
            let path = "\(directory)/not-a-db"
            try Data(repeating: 0x5a, count: 8192).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: FleetError.self) { try SQLiteStore(path: path) }
            #expect(error?.cause == ErrorCause.storeCorrupted.id)
            #expect(error?.message.contains(path) == true)
            #expect(error?.message.contains("not a database") == true)
        }
    }

    @Test func aMissingDirectoryFailsClearly() throws {
        try withDirectory { directory in
            let path = "\(directory)/missing/fleet.db"
            let error = #expect(throws: FleetError.self) { try SQLiteStore(path: path) }
            #expect(error?.cause == ErrorCause.storeFailure.id)
            #expect(error?.message.contains(path) == true)
        }
    }

    @Test func aLockHeldPastTheTimeoutIsStoreBusyAndReadsGoOn() throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            let store = try SQLiteStore(path: path, busyTimeoutMilliseconds: 20)
            defer { try? store.close() }
            try Sample.create(Sample.vehicle("v1", payload: "committed"), in: store)

            let other = try RawSQLite(path: path)
            try other.run("BEGIN IMMEDIATE")
            try other.run("UPDATE records SET payload = x'00' WHERE id = 'v1'")

            let error = #expect(throws: FleetError.self) {
                try store.commit(.put(Sample.vehicle("v2"), expectedVersion: 0))
            }
            #expect(error?.cause == ErrorCause.storeBusy.id)
            #expect(error?.code == .unavailable)
            #expect(error?.message.contains("locked") == false)
            // WAL: readers see the last committed state while another connection writes.
            #expect(Sample.text(try store.get(RecordKey(.vehicle, provider: "p", id: "v1"))) == "committed")

            try other.run("ROLLBACK")
            #expect(try store.commit(.put(Sample.vehicle("v2"), expectedVersion: 0)) == 1)
        }
    }

    @Test func twoStoresOnOneFileSeeEachOthersCommitsAndConflicts() throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            let first = try SQLiteStore(path: path)
            let second = try SQLiteStore(path: path)
            defer {
                try? first.close()
                try? second.close()
            }
            let key = RecordKey(.vehicle, provider: "p", id: "v1")
            try Sample.create(Sample.vehicle("v1", payload: "from first"), in: first)
            #expect(Sample.text(try second.get(key)) == "from first")
            try second.commit(.put(Sample.vehicle("v1", payload: "from second"), expectedVersion: 1))
            let conflict = #expect(throws: StoreConflict.self) {
                try first.commit(.put(Sample.vehicle("v1", payload: "stale"), expectedVersion: 1))
            }
            #expect(conflict?.actualVersion == 2)
            #expect(Sample.text(try first.get(key)) == "from second")
        }
    }

    /// A lone update of a record at the version and in the grid cell the writer expects is one
    /// statement; everything else (a point gained, lost or moved to another cell, a stale version,
    /// a row another process changed behind the store's back) goes the general way, and the file
    /// ends up the same either way.
    @Test func loneUpdatesInPlaceAndOtherwiseKeepVersionsCellsAndConflicts() throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            let store = try SQLiteStore(path: path)
            defer { try? store.close() }
            let raw = try RawSQLite(path: path)
            let key = RecordKey(.vehicle, provider: "p", id: "v1")
            let here = IndexPoint(latitude: 52.5, longitude: 13.4)
            let nearHere = IndexPoint(latitude: 52.50001, longitude: 13.40001)
            let there = IndexPoint(latitude: 48.85, longitude: 2.35)
            var record = try Sample.create(Sample.vehicle("v1", at: here), in: store)
            // Each step: the point written, and the cell the row must be filed under after it.
            let steps: [(IndexPoint?, String)] = [(nearHere, "same cell"), (nil, "point lost"), (nil, "still none"),
                                                  (there, "point gained"), (here, "moved to another cell"), (here, "unchanged")]
            for (point, step) in steps {
                var next = record
                next.point = point
                next.payload = Array(step.utf8)
                let version = try store.commit(.put(next, expectedVersion: record.version))
                #expect(version == record.version + 1, "\(step)")
                next.version = version
                record = next
                let stored = try #require(try store.get(key))
                #expect(stored.version == version && Sample.text(stored) == step && stored.point == point, "\(step)")
                let cell = try raw.integer("SELECT coalesce(cell, -1) FROM records")
                #expect(cell == point.map(GeoBox.cellNumber(of:)) ?? -1, "\(step)")
                let found = try store.nearbyIndex(provider: "p", center: here, radiusMeters: 50).map(\.key.id)
                #expect(found == (point == nil || point == there ? [] : ["v1"]), "\(step)")
            }
            // Another process bumps the version without our store knowing: the in-place update
            // matches no row, and the general path reports the conflict with the version found.
            try raw.run("UPDATE records SET version = version + 5")
            let conflict = #expect(throws: StoreConflict.self) {
                try store.commit(.put(record, expectedVersion: record.version))
            }
            #expect(conflict?.actualVersion == record.version + 5)
            // Another process moves the row to another cell at the same version: the general path
            // still files it where the new point lies.
            try raw.run("UPDATE records SET cell = 7, version = \(record.version)")
            let version = try store.commit(.put(record, expectedVersion: record.version))
            #expect(version == record.version + 1)
            #expect(try raw.integer("SELECT cell FROM records") == GeoBox.cellNumber(of: here))
            // A lone update of a record that does not exist is a conflict with version 0.
            let missing = #expect(throws: StoreConflict.self) {
                try store.commit(.put(Sample.vehicle("ghost", at: here), expectedVersion: 3))
            }
            #expect(missing?.actualVersion == 0)
        }
    }

    @Test func aConflictingBatchIsRolledBackAloneWithinItsGroup() throws {
        try withDirectory { directory in
            let store = try SQLiteStore(path: "\(directory)/fleet.db")
            defer { try? store.close() }
            let point = IndexPoint(latitude: 3, longitude: 4)
            // One group of four batches, as the group-commit leader would run it.
            let results = store.writer.run([
                [.put(Sample.vehicle("a", at: point), expectedVersion: 0)],
                [.put(Sample.vehicle("c", at: point), expectedVersion: 0), .put(Sample.vehicle("a"), expectedVersion: 0)],
                [.put(Sample.vehicle("b", at: point), expectedVersion: 0), .put(Sample.vehicle("a", at: point), expectedVersion: 1)],
                [.delete(RecordKey(.vehicle, provider: "p", id: "missing"), expectedVersion: 1)],
            ])
            #expect(results.count == 4)
            #expect(try results[0].get() == [1])
            #expect(throws: StoreConflict.self) { try results[1].get() }
            #expect(try results[2].get() == [1, 2])
            #expect(throws: StoreConflict.self) { try results[3].get() }
            #expect(try store.get(RecordKey(.vehicle, provider: "p", id: "a"))?.version == 2)
            #expect(try store.get(RecordKey(.vehicle, provider: "p", id: "c")) == nil)
            #expect(try store.nearby(provider: "p", center: point, radiusMeters: 10).map(\.key.id).sorted() == ["a", "b"])
        }
    }

    @Test func aPointThatIsNotANumberIsRefusedAndNothingApplied() throws {
        try withDirectory { directory in
            let store = try SQLiteStore(path: "\(directory)/fleet.db")
            defer { try? store.close() }
            let error = #expect(throws: FleetError.self) {
                try store.commit([
                    .put(Sample.vehicle("ok"), expectedVersion: 0),
                    .put(Sample.vehicle("bad", at: IndexPoint(latitude: .nan, longitude: 0)), expectedVersion: 0),
                ])
            }
            #expect(error?.code == .invalidArgument)
            #expect(try store.get(RecordKey(.vehicle, provider: "p", id: "ok")) == nil)
        }
    }

    @Test func closingTwiceIsHarmlessAndLaterCallsNameTheFile() throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            let store = try SQLiteStore(path: path)
            try store.close()
            try store.close()
            let error = #expect(throws: FleetError.self) { try store.commit(.put(Sample.vehicle("v"), expectedVersion: 0)) }
            #expect(error?.cause == ErrorCause.storeFailure.id)
            #expect(error?.message.contains("closed") == true)
            #expect(error?.message.contains(path) == true)
            // Closing the last connection checkpoints the log into the database file.
            #expect(!FileManager.default.fileExists(atPath: "\(path)-wal"))
        }
    }

    @Test(arguments: [
        (IndexPoint(latitude: 0, longitude: 0), 1_000.0, 1),
        (IndexPoint(latitude: 10, longitude: 179.99), 5_000.0, 2),
        (IndexPoint(latitude: -10, longitude: -179.99), 5_000.0, 2),
        (IndexPoint(latitude: 89.99, longitude: 0), 5_000.0, 1),
        (IndexPoint(latitude: 0, longitude: 0), 30_000_000.0, 1),
    ])
    func boxesSplitAtTheAntimeridianAndWidenAtThePoles(center: IndexPoint, radius: Double, boxCount: Int) {
        let boxes = GeoBox.covering(center: center, radiusMeters: radius)
        #expect(boxes.count == boxCount)
        for box in boxes {
            #expect(box.south <= box.north)
            #expect(box.west <= box.east)
            #expect(box.west >= -180 && box.east <= 180 && box.south >= -90 && box.north <= 90)
        }
        if center.latitude > 89 || radius > 20_000_000 {
            #expect(boxes.first.map { $0.west == -180 && $0.east == 180 } == true)
        }
    }

    @Test func groupCommitCountsTransactionsAndBatches() throws {
        try withDirectory { directory in
            let store = try SQLiteStore(path: "\(directory)/fleet.db", options: StoreOptions(durable: false))
            defer { try? store.close() }
            try Sample.create(Sample.vehicle("a"), in: store)
            try Sample.create(Sample.vehicle("b"), in: store)
            #expect(try store.commit([]) == [])
            #expect(store.groupCommitStatistics == GroupCommitStatistics(transactions: 2, batches: 2, groupSizes: [1: 2]))
            try ThreadGroup.run(4) { thread in
                for n in 0..<50 {
                    try Sample.create(Sample.trip("t\(thread)-\(n)"), in: store)
                }
            }
            let statistics = store.groupCommitStatistics
            #expect(statistics.batches == 202)
            #expect(statistics.transactions <= 202)
            #expect(statistics.batchesPerTransaction >= 1)
            #expect(statistics.groupSizes.values.reduce(0, +) == statistics.transactions)
            #expect(statistics.groupSizes.reduce(0) { $0 + $1.key * $1.value } == 202)
        }
    }

    @Test func aNegativeRadiusFindsNothing() throws {
        #expect(GeoBox.covering(center: IndexPoint(latitude: 0, longitude: 0), radiusMeters: -1).isEmpty)
        #expect(GeoBox.normalizedLongitude(190) == -170)
        #expect(GeoBox.normalizedLongitude(-540) == -180)
        #expect(GeoBox.normalizedLongitude(180) == 180)
    }

    private func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = try StoreFixture.makeTemporaryDirectory(prefix: "sqlite-store")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }
}

/// A plain SQLite connection for looking at (and tampering with) a store's file from outside.
final class RawSQLite {
    private var db: OpaquePointer?

    init(path: String) throws {
        guard sqlite3_open(path, &db) == SQLITE_OK else {
            throw FleetError.internal("cannot open \(path)")
        }
        sqlite3_busy_timeout(db, 5_000)
    }

    deinit {
        sqlite3_close(db)
    }

    func run(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw FleetError.internal("\(sql): \(message.map { String(cString: $0) } ?? "?")")
        }
    }

    /// Makes the file a WAL database with the schema of the first `version` migrations (their
    /// statements, without their transforms) and their log, as that version of the store left it
    /// before its data; the caller sets `PRAGMA user_version` once it has written the data
    /// (`createFile(version:data:)` does both).
    func createSchema(version: Int) throws {
        try run("PRAGMA journal_mode = WAL")
        for (index, migration) in Schema.migrations.prefix(version).enumerated() {
            for statement in migration.statements { try run(statement) }
            try run("INSERT INTO schema_migrations (version, name) VALUES (\(index + 1), 'v\(index + 1)')")
        }
    }

    /// A file as version `version` of the store left it: `createSchema(version:)`, then `data` (SQL
    /// that writes the rows), then `PRAGMA user_version`.
    func createFile(version: Int, data: String) throws {
        try createSchema(version: version)
        try run(data)
        try run("PRAGMA user_version = \(version)")
    }

    func integer(_ sql: String) throws -> Int64 {
        try first(sql) { sqlite3_column_int64($0, 0) }
    }

    func text(_ sql: String) throws -> String {
        try first(sql) { sqlite3_column_text($0, 0).map { String(cString: $0) } ?? "" }
    }

    private func first<T>(_ sql: String, _ read: (OpaquePointer) -> T) throws -> T {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw FleetError.internal("cannot prepare \(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else {
            throw FleetError.internal("no row from \(sql)")
        }
        return read(statement)
    }
}
