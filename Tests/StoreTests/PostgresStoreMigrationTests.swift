import FleetStore
import FleetTestSupport
import Foundation
@testable import PostgresStore
import Testing

/// A database an older engine made (schema version 3, before the records' fillfactor) upgrades
/// when a store opens it, keeping its records.
@Suite(.enabled(if: PostgresCluster.isInstalled, Comment(rawValue: PostgresCluster.missingMessage)))
struct PostgresStoreMigrationTests {
    @Test func aVersion3DatabaseGetsTheFillfactorAndKeepsItsRecords() throws {
        let cluster = try #require(try PostgresCluster.shared)
        let url = try cluster.database(named: "from_v3")
        let database = String(url.split(separator: "/").last!)
        // The database as the engine of schema version 3 left it: its three migrations, then a vehicle.
        var script = "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());\n"
        for (index, migration) in Schema.migrations.prefix(3).enumerated() {
            script += migration.statements.map { $0 + ";\n" }.joined()
            script += "INSERT INTO schema_migrations (version, name) VALUES (\(index + 1), 'v\(index + 1)');\n"
        }
        script += """
            INSERT INTO records (kind, provider, id, version, payload) VALUES ('vehicle', 'p'::bytea, 'old'::bytea, 7, 'kept'::bytea);
            """
        try cluster.psql(script, database: database)
        func options() throws -> String {
            try cluster.psql("SELECT coalesce(array_to_string(reloptions, ','), '') FROM pg_class WHERE oid = 'records'::regclass",
                             database: database).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try options() == "")

        let store = try PostgresStore(url: url)
        defer { try? store.close() }
        #expect(try options() == "fillfactor=90")
        let versions = try cluster.psql("SELECT count(*), max(version) FROM schema_migrations", database: database)
        #expect(versions.trimmingCharacters(in: .whitespacesAndNewlines) == "\(Schema.migrations.count)|\(Schema.migrations.count)")
        let kept = try #require(try store.get(RecordKey(.vehicle, provider: "p", id: "old")))
        #expect(kept.version == 7)
        #expect(kept.payload == Array("kept".utf8))
        #expect(try store.commit(.put(StoreRecord(key: kept.key, version: 0, payload: Array("moved".utf8)), expectedVersion: 7)) == 8)
    }

    @Test func aVersion5HistoryKeepsItsPointsAsRidesVehiclesPoints() throws {
        let cluster = try #require(try PostgresCluster.shared)
        let url = try cluster.database(named: "from_v5")
        let database = String(url.split(separator: "/").last!)
        // The database as the engine of schema version 5 left it: its five migrations, then a point.
        var script = "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());\n"
        for (index, migration) in Schema.migrations.prefix(5).enumerated() {
            script += migration.statements.map { $0 + ";\n" }.joined()
            script += "INSERT INTO schema_migrations (version, name) VALUES (\(index + 1), 'v\(index + 1)');\n"
        }
        script += """
            INSERT INTO history (provider, vehicle, time, lat, lng, accuracy, speed, heading, state, trips)
            VALUES ('p'::bytea, 'v1'::bytea, 10000000, 52.5, 13.4, 4, 8.5, 90, 'ONLINE'::bytea, ''::bytea);
            """
        try cluster.psql(script, database: database)

        let store = try PostgresStore(url: url)
        defer { try? store.close() }
        let old = try store.history(HistoryQuery(kind: .vehicle, provider: "p", vehicleID: "v1"), after: nil, limit: 10)
        #expect(old.count == 1 && old.first?.kind == .vehicle && old.first?.vehicleState == "ONLINE")
        try HistoryContract.drive("v1", kind: .deliveryVehicle, times: [20], in: store)
        #expect(try store.history(HistoryQuery(), after: nil, limit: 10).map(\.kind) == [.vehicle, .deliveryVehicle])
        #expect(try store.history(HistoryQuery(kind: .vehicle, provider: "p", vehicleID: "v1"), after: nil, limit: 10) == old)
    }
}
