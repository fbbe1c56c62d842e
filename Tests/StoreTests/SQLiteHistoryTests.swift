import FleetStore
import Foundation
import MemoryStore
@testable import SQLiteStore
import Testing

/// How the SQLite store files history points: appended to `history` alone, filed in
/// `history_by_vehicle` and `history_by_time` in sorted batches every so many points; reads merge
/// the filed points with the unfiled tail. A memory store given the same writes says what every
/// read must answer.
@Suite("SQLiteStore history filing")
struct SQLiteHistoryTests {
    /// The queries the tests compare: of each vehicle (all of it, one trip, a span, one kind),
    /// and of the whole history (all of it, a provider, a trip, a span, one kind).
    static func queries(of vehicles: [String]) -> [HistoryQuery] {
        vehicles.flatMap { vehicle in
            [
                HistoryQuery(provider: "p", vehicleID: vehicle),
                HistoryQuery(provider: "p", vehicleID: vehicle, tripID: "t1"),
                HistoryQuery(provider: "p", vehicleID: vehicle, from: 3_000_000, to: 8_000_000),
                HistoryQuery(kind: .vehicle, provider: "p", vehicleID: vehicle),
            ]
        } + [
            HistoryQuery(),
            HistoryQuery(provider: "p"),
            HistoryQuery(tripID: "t1"),
            HistoryQuery(from: 3_000_000, to: 8_000_000),
            HistoryQuery(kind: .vehicle),
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

    /// A point without its sequence number, which differs between two stores.
    static func unnumbered(_ point: HistoryPoint) -> HistoryPoint {
        var point = point
        point.sequence = 0
        return point
    }

    /// `store`'s answers, in pages of every size, against those of `oracle` (a memory store given
    /// the same writes); the answers, in order.
    @discardableResult
    static func expectReadsAgree(_ store: any Store, with oracle: any Store, vehicles: [String]) throws -> [HistoryPoint] {
        var answers: [HistoryPoint] = []
        for query in queries(of: vehicles) {
            let expected = try oracle.history(query, after: nil, limit: 10_000).map(unnumbered)
            #expect(!expected.isEmpty, "\(query)")
            for size in [1, 2, 5, 100] {
                #expect(try paged(query, size: size, in: store).map(unnumbered) == expected, "\(query) in pages of \(size)")
            }
            answers += expected
        }
        return answers
    }

    /// The vehicles' points, interleaved, two at each time, in trips t1 and t2 by turns, written
    /// to each of `stores`; the rounds are numbered from `firstRound`.
    static func drive(_ stores: [any Store], vehicles: [String], rounds: Int, versions: inout [String: UInt64],
                      from firstRound: Int = 0) throws {
        for round in firstRound..<firstRound + rounds {
            for vehicle in vehicles {
                let record = HistoryContract.update(vehicle, time: Int64(round / 2), trips: [round % 3 == 0 ? "t2" : "t1"])
                let expected = versions[vehicle] ?? 0
                for store in stores {
                    versions[vehicle] = try store.commit(.put(record, expectedVersion: expected))
                }
            }
        }
    }

    /// (filed points, points in the unfiled tail, points) of the file at `path`; each filed point
    /// is filed both by vehicle and by time.
    static func filing(at path: String) throws -> (filed: Int64, tail: Int64, total: Int64) {
        let raw = try RawSQLite(path: path)
        let byTime = try raw.integer("SELECT count(*) FROM history_by_time")
        #expect(try raw.integer("SELECT count(*) FROM history_by_vehicle") == byTime)
        return (byTime,
                try raw.integer("SELECT count(*) FROM history WHERE seq > (SELECT seq FROM history_filing_mark)"),
                try raw.integer("SELECT count(*) FROM history"))
    }

    @Test(arguments: [1, 4, 7, 1_000_000])
    func pointsReadTheSameWhetherTheyAreFiledOrInTheTail(interval: Int) throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            let vehicles = ["v1", "v2", "v3"]
            var versions: [String: UInt64] = [:]
            let oracle = MemoryStore()
            let store = try SQLiteStore(path: path, historyFilingInterval: interval)
            try Self.drive([store, oracle], vehicles: vehicles, rounds: 20, versions: &versions)
            let before = try Self.filing(at: path)
            #expect(before.total == 60)
            #expect(before.filed + before.tail == before.total)
            switch interval {
            case 1: #expect(before.tail == 1)
            case 1_000_000: #expect(before.filed == 0)
            default: #expect(before.filed > 0 && before.tail > 0 && before.tail <= Int64(interval))
            }
            let answers = try Self.expectReadsAgree(store, with: oracle, vehicles: vehicles)
            try store.close()

            // Opened again, the first write files the whole tail: the same answers from the filed
            // points, and the new point after them in the tail.
            let reopened = try SQLiteStore(path: path, historyFilingInterval: 1_000_000)
            defer { try? reopened.close() }
            try Self.drive([reopened, oracle], vehicles: ["v4"], rounds: 1, versions: &versions)
            let after = try Self.filing(at: path)
            #expect(after.filed == 60 && after.tail == 1)
            let again = try Self.expectReadsAgree(reopened, with: oracle, vehicles: vehicles)
            #expect(again.filter { $0.vehicleID != "v4" } == answers.filter { $0.vehicleID != "v4" })
        }
    }

    /// Two writers on one file (as two processes would be) each count the other's points: the
    /// unfiled tail stays near the interval, where counting only their own let it reach twice that.
    @Test func twoWritersOnOneFileKeepTheTailNearTheInterval() throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            let interval = 16
            let first = try SQLiteStore(path: path, historyFilingInterval: interval)
            defer { try? first.close() }
            let second = try SQLiteStore(path: path, historyFilingInterval: interval)
            defer { try? second.close() }
            var versions: [String: UInt64] = [:]
            let oracle = MemoryStore()
            var longestTail: Int64 = 0
            for round in 0..<100 {
                // Each writer its own vehicle, by turns.
                try Self.drive([first, oracle], vehicles: ["a"], rounds: 1, versions: &versions, from: round)
                try Self.drive([second, oracle], vehicles: ["b"], rounds: 1, versions: &versions, from: round)
                longestTail = max(longestTail, try Self.filing(at: path).tail)
            }
            // Each writer reads the file's tail every interval / 8 = 2 of its own points, and may
            // miss up to that many of the other's since: 16 + 2 + 2, and one group's point.
            #expect(longestTail <= Int64(interval + 5), "the tail reached \(longestTail) points")
            #expect(longestTail >= Int64(interval), "the points were filed as often as the interval says")
            try Self.expectReadsAgree(first, with: oracle, vehicles: ["a", "b"])
            try Self.expectReadsAgree(second, with: oracle, vehicles: ["a", "b"])
        }
    }

    @Test func pruningRemovesTheEntriesOfPrunedPointsAndLaterPointsAreFiledStill() throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            let vehicles = ["v1", "v2"]
            var versions: [String: UInt64] = [:]
            let oracle = MemoryStore()
            let store = try SQLiteStore(path: path, historyFilingInterval: 3)
            defer { try? store.close() }
            try Self.drive([store, oracle], vehicles: vehicles, rounds: 10, versions: &versions)
            // Points filed and in the tail alike, the oldest first.
            for step in [3, 5] {
                #expect(try store.pruneHistory(before: 2_000_000, limit: step) == step)
                #expect(try oracle.pruneHistory(before: 2_000_000, limit: step) == step)
                try Self.expectReadsAgree(store, with: oracle, vehicles: vehicles)
            }
            let raw = try RawSQLite(path: path)
            let orphans = """
                SELECT (SELECT count(*) FROM history_by_vehicle AS v LEFT JOIN history AS h ON h.seq = v.seq WHERE h.seq IS NULL)
                     + (SELECT count(*) FROM history_by_time AS t LEFT JOIN history AS h ON h.seq = t.seq WHERE h.seq IS NULL)
                """
            #expect(try raw.integer(orphans) == 0)
            let pruned = try Self.filing(at: path)
            #expect(pruned.total == 12 && pruned.filed + pruned.tail == 12 && pruned.filed > 0)

            // Pruning everything (the highest seq too) and writing again: SQLite numbers the new
            // points from 1 again, and the mark has come down so that they are read and filed.
            #expect(try store.pruneHistory(before: 1_000_000_000, limit: 100) == 12)
            #expect(try oracle.pruneHistory(before: 1_000_000_000, limit: 100) == 12)
            #expect(try Self.filing(at: path) == (0, 0, 0))
            #expect(try raw.integer("SELECT seq FROM history_filing_mark") == 0)
            try Self.drive([store, oracle], vehicles: vehicles, rounds: 10, versions: &versions)
            #expect(try raw.integer("SELECT min(seq) FROM history") == 1)
            let again = try Self.filing(at: path)
            #expect(again.total == 20 && again.filed + again.tail == 20 && again.filed > 0)
            #expect(try raw.integer(orphans) == 0)
            try Self.expectReadsAgree(store, with: oracle, vehicles: vehicles)
        }
    }

    /// A file whose history had an index by vehicle and one by time on every point (schema 6) has
    /// its points filed, the indexes dropped, and reads them all as before.
    @Test func aSchemaSixHistoryIsFiled() throws {
        try withDirectory { directory in
            let path = "\(directory)/fleet.db"
            // What `drive` writes for 3 vehicles and 20 rounds, in the same order.
            try RawSQLite(path: path).createFile(version: 6, data: """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 59)
                INSERT INTO history (provider, vehicle, time, lat, lng, accuracy, speed, heading, state, trips, kind)
                SELECT 'p', 'v' || (i % 3 + 1), (i / 3 / 2) * 1000000, 52.5, 13.4, 4, 8.5, 90, 'ONLINE',
                       CASE WHEN (i / 3) % 3 = 0 THEN '\(HistoryQuery.joinedTripIDs(["t2"]))' ELSE '\(HistoryQuery.joinedTripIDs(["t1"]))' END,
                       'vehicle'
                FROM n ORDER BY i
                """)
            var versions: [String: UInt64] = [:]
            let oracle = MemoryStore()
            try Self.drive([oracle], vehicles: ["v1", "v2", "v3"], rounds: 20, versions: &versions)
            let store = try SQLiteStore(path: path, historyFilingInterval: 1_000_000)
            defer { try? store.close() }
            let raw = try RawSQLite(path: path)
            #expect(try raw.integer("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name LIKE 'history%'") == 0)
            #expect(try Self.filing(at: path) == (60, 0, 60))
            #expect(try raw.integer("SELECT seq FROM history_filing_mark") == 60)
            try Self.expectReadsAgree(store, with: oracle, vehicles: ["v1", "v2", "v3"])
            // New points follow in the tail (the vehicles' records are new to the SQLite file).
            var fresh: [String: UInt64] = [:]
            try Self.drive([store], vehicles: ["v1"], rounds: 2, versions: &fresh)
            #expect(try Self.filing(at: path) == (60, 2, 62))
            #expect(try store.history(HistoryQuery(provider: "p", vehicleID: "v1"), after: nil, limit: 100).count == 22)
            #expect(try store.history(HistoryQuery(), after: nil, limit: 100).count == 62)
        }
    }

    private func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = try StoreFixture.makeTemporaryDirectory(prefix: "sqlite-history")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }
}
