@testable import fleet_bench
import Foundation
import Testing
import ThrowawayPostgres

/// The raw clients of `fleet-bench history`'s PostgreSQL-alone rows: with points, every upsert also
/// inserts one point into the store's own `history` table; without, the database has no such table.
@Suite(.enabled(if: PostgresCluster.isInstalled, Comment(rawValue: PostgresCluster.missingMessage)))
struct PostgresAloneTests {
    @Test func everyUpsertKeepsOnePointInTheStoresHistoryTable() throws {
        let cluster = try #require(try PostgresCluster.shared)
        let database = "raw_points_\(UUID().uuidString.prefix(8).lowercased())"
        let (rate, cost) = try PostgresBenchmarks.rawUpserts(cluster: cluster, database: database, keepingPoints: true)
        #expect(rate > 0 && cost.writes > 0, "rate \(rate), \(cost.writes) writes")
        let connection = try PostgresBenchmarks.RawConnection(cluster.conninfo(database: database))
        // An insert starts a row at version 1 and each update adds one: the sum is every upsert run.
        let upserts = try #require(Int(try connection.value("SELECT sum(version)::text FROM upserts")))
        let points = try #require(Int(try connection.value("SELECT count(*)::text FROM history")))
        #expect(points == upserts && points >= cost.writes, "\(points) points, \(upserts) upserts, \(cost.writes) timed")
        // The table is the store's: its two indexes are written with every point.
        #expect(try connection.value("SELECT count(*)::text FROM pg_index WHERE indrelid = 'history'::regclass") == "2")
    }

    @Test func withoutPointsTheUpsertsTouchNoHistory() throws {
        let cluster = try #require(try PostgresCluster.shared)
        let database = "raw_upserts_\(UUID().uuidString.prefix(8).lowercased())"
        _ = try PostgresBenchmarks.rawUpserts(cluster: cluster, database: database)
        let connection = try PostgresBenchmarks.RawConnection(cluster.conninfo(database: database))
        #expect(try connection.value("SELECT coalesce(to_regclass('history')::text, 'none')") == "none")
        #expect(Int(try connection.value("SELECT sum(version)::text FROM upserts")) ?? 0 > 0)
    }
}
