import FleetStore
import Foundation
@testable import SQLiteStore
import Testing

/// How the SQLite store files history points by vehicle: appended to `history` alone, filed in
/// `history_by_vehicle` in sorted batches every so many points; a vehicle's reads merge the filed
/// points with the unfiled tail.
@Suite("SQLiteStore history filing")
struct SQLiteHistoryTests {
    /// The queries of one vehicle the tests compare: all of it, one trip, a span, one kind.
    static func queries(of vehicle: String) -> [HistoryQuery] {
        [
            HistoryQuery(provider: "p", vehicleID: vehicle),
            HistoryQuery(provider: "p", vehicleID: vehicle, tripID: "t1"),
            HistoryQuery(provider: "p", vehicleID: vehicle, from: 3_000_000, to: 8_000_000),
            HistoryQuery(kind: .vehicle, provider: "p", vehicleID: vehicle),
        ]
    }

    /// Every point of `query`, read in pages of `size` following the cursor.
    static func paged(_ query: HistoryQuery, size: Int, in store: any Store) throws -> [HistoryPoint] {
        var all: [HistoryPoint] = []
        var cursor: HistoryCursor?
        while true {
            let page = try store.history(query, after: cursor, limit: size)
            #expect(page.count <= size)
            all += page
            guard let last = page.last else { return all }
            cursor = last.cursor
        }
    }

    /// What `query` (of one vehicle) must answer, read on the time index without naming the
    /// vehicle (a path that never looks at the filing) and filtered here.
    static func expected(_ query: HistoryQuery, in store: any Store) throws -> [HistoryPoint] {
        var span = query
        span.provider = nil
        span.vehicleID = nil
        return try store.history(span, after: nil, limit: 10_000).filter { $0.provider == query.provider && $0.vehicleID == query.vehicleID }
    }

    /// Each vehicle's reads, in pages of every size, against the time index.
    static func expectVehicleReadsAgree(in store: any Store, vehicles: [String]) throws -> [HistoryPoint] {
        var answers: [HistoryPoint] = []
        for vehicle in vehicles {
            for query in queries(of: vehicle) {
                let expected = try expected(query, in: store)
                #expect(!expected.isEmpty)
                for size in [1, 2, 5, 100] {
                    #expect(try paged(query, size: size, in: store) == expected, "\(query) in pages of \(size)")
                }
                answers += expected
            }
        }
        return answers
    }

    /// Three vehicles' points, interleaved, two at each time, in trips t1 and t2 by turns.
    static func drive(_ store: any Store, vehicles: [String], rounds: Int, versions: inout [String: UInt64]) throws {
        for round in 0..<rounds {
            for vehicle in vehicles {
                let record = HistoryContract.update(vehicle, time: Int64(round / 2), trips: [round % 3 == 0 ? "t2" : "t1"])
                versions[vehicle] = try store.commit(.put(record, expectedVersion: versions[vehicle] ?? 0))
            }
        }
    }

    /// (filed entries, points in the unfiled tail, points) of the file at `path`.
    static func filing(at path: String) throws -> (filed: Int64, tail: Int64, total: Int64) {
        let raw = try RawSQLite(path: path)
        return (try raw.integer("SELECT count(*) FROM history_by_vehicle"),
                try raw.integer("SELECT count(*) FROM history WHERE seq > (SELECT seq FROM history_by_vehicle_mark)"),
                try raw.integer("SELECT count(*) FROM history"))
    }

    @Test(arguments: [1, 4, 7, 1_000_000])
    func aVehicleReadsTheSameWhetherItsPointsAreFiledOrInTheTail(interval: Int) throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            let vehicles = ["v1", "v2", "v3"]
            var versions: [String: UInt64] = [:]
            let store = try SQLiteStore(path: path, historyFilingInterval: interval)
            try Self.drive(store, vehicles: vehicles, rounds: 20, versions: &versions)
            let before = try Self.filing(at: path)
            #expect(before.total == 60)
            #expect(before.filed + before.tail == before.total)
            switch interval {
            case 1: #expect(before.tail == 1)
            case 1_000_000: #expect(before.filed == 0)
            default: #expect(before.filed > 0 && before.tail > 0 && before.tail <= Int64(interval))
            }
            let answers = try Self.expectVehicleReadsAgree(in: store, vehicles: vehicles)
            try store.close()

            // Opened again, the first write files the whole tail: the same answers from the filed points.
            let reopened = try SQLiteStore(path: path, historyFilingInterval: 1_000_000)
            defer { try? reopened.close() }
            try reopened.commit(.put(HistoryContract.update("v4", time: 100), expectedVersion: 0))
            let after = try Self.filing(at: path)
            #expect(after.filed == 60 && after.tail == 1)
            #expect(try Self.expectVehicleReadsAgree(in: reopened, vehicles: vehicles) == answers)
        }
    }

    @Test func pruningRemovesTheEntriesOfPrunedPointsAndLaterPointsAreFiledStill() throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            let vehicles = ["v1", "v2"]
            var versions: [String: UInt64] = [:]
            let store = try SQLiteStore(path: path, historyFilingInterval: 3)
            defer { try? store.close() }
            try Self.drive(store, vehicles: vehicles, rounds: 10, versions: &versions)
            #expect(try store.pruneHistory(before: 2_000_000, limit: 100) == 8)
            let raw = try RawSQLite(path: path)
            let orphans = "SELECT count(*) FROM history_by_vehicle AS v LEFT JOIN history AS h ON h.seq = v.seq WHERE h.seq IS NULL"
            #expect(try raw.integer(orphans) == 0)
            let pruned = try Self.filing(at: path)
            #expect(pruned.total == 12 && pruned.filed + pruned.tail == 12 && pruned.filed > 0)
            _ = try Self.expectVehicleReadsAgree(in: store, vehicles: vehicles)

            // Pruning everything (the highest seq too) and writing again: SQLite numbers the new
            // points from 1 again, and the mark has come down so that they are read and filed.
            #expect(try store.pruneHistory(before: 1_000_000_000, limit: 100) == 12)
            #expect(try Self.filing(at: path) == (0, 0, 0))
            #expect(try raw.integer("SELECT seq FROM history_by_vehicle_mark") == 0)
            try Self.drive(store, vehicles: vehicles, rounds: 10, versions: &versions)
            #expect(try raw.integer("SELECT min(seq) FROM history") == 1)
            let again = try Self.filing(at: path)
            #expect(again.total == 20 && again.filed + again.tail == 20 && again.filed > 0)
            #expect(try raw.integer(orphans) == 0)
            _ = try Self.expectVehicleReadsAgree(in: store, vehicles: vehicles)
        }
    }

    /// A file whose history had the (provider, vehicle, time) index on every point (schema 6) has
    /// its points filed by vehicle, the index dropped, and reads them all by vehicle.
    @Test func aSchemaSixHistoryIsFiledByVehicle() throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            do {
                let raw = try RawSQLite(path: path)
                try raw.createSchema(version: 6)
                // 3 vehicles × 20 points, two at each time, in trips t1 and t2 by turns, in the order they came.
                try raw.run("""
                    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 59)
                    INSERT INTO history (provider, vehicle, time, lat, lng, accuracy, speed, heading, state, trips, kind)
                    SELECT 'p', 'v' || (i % 3 + 1), (i / 3 / 2) * 1000000, 52.5, 13.4, 4, 8.5, 90, 'ONLINE',
                           CASE WHEN (i / 3) % 3 = 0 THEN '\(HistoryQuery.joinedTripIDs(["t2"]))' ELSE '\(HistoryQuery.joinedTripIDs(["t1"]))' END,
                           'vehicle'
                    FROM n ORDER BY i
                    """)
                try raw.run("PRAGMA user_version = 6")
            }
            let store = try SQLiteStore(path: path, historyFilingInterval: 1_000_000)
            defer { try? store.close() }
            let raw = try RawSQLite(path: path)
            #expect(try raw.integer("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'history_by_vehicle'") == 0)
            #expect(try Self.filing(at: path) == (60, 0, 60))
            #expect(try raw.integer("SELECT seq FROM history_by_vehicle_mark") == 60)
            let answers = try Self.expectVehicleReadsAgree(in: store, vehicles: ["v1", "v2", "v3"])
            #expect(answers.count > 60)
            #expect(try store.history(HistoryQuery(provider: "p", vehicleID: "v2"), after: nil, limit: 100).count == 20)
            // New points follow in the tail.
            var versions: [String: UInt64] = [:]
            try Self.drive(store, vehicles: ["v1"], rounds: 2, versions: &versions)
            #expect(try Self.filing(at: path) == (60, 2, 62))
            #expect(try store.history(HistoryQuery(provider: "p", vehicleID: "v1"), after: nil, limit: 100).count == 22)
        }
    }

    private func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = try StoreFixture.makeTemporaryDirectory(prefix: "sqlite-history")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }
}
