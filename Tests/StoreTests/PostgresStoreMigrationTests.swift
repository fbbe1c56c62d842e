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
        // The database as the engine of schema version 3 left it: its three migrations, then a vehicle.
        let (url, database) = try Self.database("from_v3", migrations: 3, then: """
            INSERT INTO records (kind, provider, id, version, payload) VALUES ('vehicle', 'p'::bytea, 'old'::bytea, 7, 'kept'::bytea);
            """)
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
        // The database as the engine of schema version 5 left it: its five migrations, then a point.
        let (url, _) = try Self.database("from_v5", migrations: 5, then: """
            INSERT INTO history (provider, vehicle, time, lat, lng, accuracy, speed, heading, state, trips)
            VALUES ('p'::bytea, 'v1'::bytea, 10000000, 52.5, 13.4, 4, 8.5, 90, 'ONLINE'::bytea, ''::bytea);
            """)

        let store = try PostgresStore(url: url)
        defer { try? store.close() }
        try HistoryContract.expectOnePointOfARidesVehicleKeptBeside(deliveryVehiclePointsIn: store)
    }

    /// A new database `name` as the engine of schema version `migrations` left it, with `script` run
    /// after its migrations; its URL and its name.
    static func database(_ name: String, migrations: Int, then script: String) throws -> (url: String, name: String) {
        let cluster = try #require(try PostgresCluster.shared)
        let url = try cluster.database(named: name)
        let database = String(url.split(separator: "/").last!)
        var setUp = "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());\n"
        for (index, migration) in Schema.migrations.prefix(migrations).enumerated() {
            setUp += migration.statements.map { $0 + ";\n" }.joined()
            setUp += "INSERT INTO schema_migrations (version, name) VALUES (\(index + 1), 'v\(index + 1)');\n"
        }
        try cluster.psql(setUp + script, database: database)
        return (url, database)
    }
}
