import FleetErrors
import FleetStore

/// The store's schema in PostgreSQL: ordered migrations, recorded in `schema_migrations`.
///
/// Never edit a migration that has shipped: append a new one. Keys (provider, id, owner) are
/// `bytea`: PostgreSQL text cannot hold every string a caller may send (NUL), and bytes order
/// IDs as the other stores do.
enum Schema {
    /// Every migration, oldest first: a name and its statements.
    static let migrations: [(name: String, statements: [String])] = [
        ("records, tombstones, the owner index and the grid-cell index of points", [
            """
            CREATE TABLE records (
                kind text NOT NULL,
                provider bytea NOT NULL,
                id bytea NOT NULL,
                version bigint NOT NULL,
                payload bytea NOT NULL,
                lat double precision,
                lng double precision,
                owner bytea,
                cell bigint,
                PRIMARY KEY (kind, provider, id)
            )
            """,
            "CREATE INDEX records_by_owner ON records (provider, owner) WHERE owner IS NOT NULL",
            "CREATE INDEX records_by_cell ON records (kind, provider, cell) WHERE cell IS NOT NULL",
            """
            CREATE TABLE tombstones (
                kind text NOT NULL,
                provider bytea NOT NULL,
                id bytea NOT NULL,
                version bigint NOT NULL,
                PRIMARY KEY (kind, provider, id)
            )
            """,
        ]),
        ("a notification on the fleet_changes channel for every changed record, so that other nodes wake their watches", [
            """
            CREATE FUNCTION fleet_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                changed records;
            BEGIN
                IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
                PERFORM pg_notify('\(Schema.changeChannel)',
                                  changed.kind || '/' || encode(changed.provider, 'hex') || '/' || encode(changed.id, 'hex'));
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER records_notify AFTER INSERT OR UPDATE OR DELETE ON records
            FOR EACH ROW EXECUTE FUNCTION fleet_notify_change()
            """,
        ]),
        // A NOTIFY inside a writing transaction holds PostgreSQL's notification lock through that
        // transaction's WAL flush, so every commit of the database waited for the one before it to
        // reach the disk: 200 durable commits/s where the same upserts without it made 1,000–2,000/s
        // (pgbench, 8 clients, 2 cores). The store now notifies after each commit instead.
        ("notifications sent by the store after each commit, not by a trigger inside it", [
            "DROP TRIGGER records_notify ON records",
            "DROP FUNCTION fleet_notify_change()",
        ]),
        // A location update that keeps its vehicle's grid cell changes no indexed column, so
        // PostgreSQL can write the new row version on the same page without touching an index (a
        // HOT update), if the page has room. Created full (fillfactor 100), every page of a new
        // fleet has none until its first update moved a row away: 20,000 vehicles created at once
        // and updated twice each made 96.0% of the updates HOT at fillfactor 100 and 99.8% at 90.
        // Pages written before this migration keep their fill; it applies to pages written later.
        ("records pages filled to 90%, leaving room for updates on the same page", [
            "ALTER TABLE records SET (fillfactor = 90)",
        ]),
        // No primary key: the point is written with its vehicle's update, and each index costs
        // that write; `seq` orders points of the same time, and pruning deletes by row address.
        ("the position history: every accepted location update, by vehicle and by time", [
            """
            CREATE TABLE history (
                seq bigint GENERATED ALWAYS AS IDENTITY,
                provider bytea NOT NULL,
                vehicle bytea NOT NULL,
                time bigint NOT NULL,
                lat double precision NOT NULL,
                lng double precision NOT NULL,
                accuracy double precision,
                speed double precision,
                heading double precision,
                state bytea,
                trips bytea NOT NULL
            )
            """,
            "CREATE INDEX history_by_vehicle ON history (provider, vehicle, time, seq)",
            "CREATE INDEX history_by_time ON history (time, seq)",
        ]),
        // A constant default is kept in the catalogue, not written into each row: instant on a long
        // history. A vehicle's reads filter on the kind beside the (provider, vehicle, time, seq)
        // index: a rides vehicle and a delivery vehicle sharing an ID are rare, and a wider index
        // would cost every write.
        ("the position history of delivery vehicles: each point's vehicle kind, the points before it of rides vehicles", [
            "ALTER TABLE history ADD COLUMN kind text NOT NULL DEFAULT 'vehicle'",
        ]),
    ]

    /// The channel stores notify on after a commit: `KIND/HEX(PROVIDER)/HEX(ID)` per changed record.
    static let changeChannel = "fleet_changes"

    /// The version this code writes and understands.
    static var currentVersion: Int { migrations.count }

    /// The advisory lock the migration holds, so that stores opening at once migrate once ("fleet" in ASCII).
    static let migrationLock: Int64 = 0x666c_6565_74

    /// Brings the database up to `currentVersion` in one transaction under an advisory lock, or throws
    /// if a newer version of the engine wrote it.
    static func migrate(_ connection: PGConnection) throws {
        if try version(of: connection) == currentVersion { return }
        try connection.execute("BEGIN", doing: "starting the schema migration")
        do {
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [.int8(migrationLock)], doing: "waiting for other nodes' schema migration")
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                """, doing: "creating the schema version table")
            let found = try version(of: connection)
            guard found <= currentVersion else {
                throw FleetError(.storeSchemaTooNew, detail: "'\(connection.displayURL)' has schema version \(found), this program knows versions up to \(currentVersion)")
            }
            for index in found..<currentVersion {
                let migration = migrations[index]
                let doing = "applying schema migration \(index + 1) '\(migration.name)'"
                for statement in migration.statements {
                    try connection.execute(statement, doing: doing)
                }
                try connection.execute("INSERT INTO schema_migrations (version, name) VALUES ($1::int8, $2)",
                                       [.int8(Int64(index + 1)), .text(migration.name)], doing: doing)
            }
            try connection.execute("COMMIT", doing: "committing the schema migration")
        } catch {
            if connection.isInTransaction { _ = try? connection.execute("ROLLBACK", doing: "rolling back the schema migration") }
            throw error
        }
    }

    /// The database's schema version, 0 for a new database.
    static func version(of connection: PGConnection) throws -> Int {
        let exists = try connection.execute("SELECT (to_regclass('schema_migrations') IS NOT NULL)::int4::int8",
                                            doing: "looking for the schema version table")
        guard exists.count == 1, exists.int8(0, 0) == 1 else { return 0 }
        let rows = try connection.execute("SELECT coalesce(max(version), 0)::int8 FROM schema_migrations", doing: "reading the schema version")
        return rows.count == 0 ? 0 : Int(rows.int8(0, 0))
    }
}
