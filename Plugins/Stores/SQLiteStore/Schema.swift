import FleetErrors
import FleetStore

/// The store's schema: an ordered list of migrations; the file's `PRAGMA user_version` says how many
/// of them it has had.
///
/// Never edit a migration that has shipped: append a new one.
enum Schema {
    /// Every migration, oldest first. The schema version of a file is the number applied.
    static let migrations: [SchemaMigration] = [
        SchemaMigration(name: "records, their R*Tree of points and the owner index", statements: [
            """
            CREATE TABLE schema_migrations (
                version INTEGER PRIMARY KEY,
                name TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE records (
                rowid INTEGER PRIMARY KEY,
                kind TEXT NOT NULL,
                provider TEXT NOT NULL,
                id TEXT NOT NULL,
                version INTEGER NOT NULL,
                payload BLOB NOT NULL,
                lat REAL,
                lng REAL,
                owner TEXT,
                UNIQUE (kind, provider, id)
            )
            """,
            "CREATE INDEX records_by_owner ON records (provider, owner) WHERE owner IS NOT NULL",
            "CREATE VIRTUAL TABLE points USING rtree (id, minLat, maxLat, minLng, maxLng)",
        ]),
        SchemaMigration(name: "points filed by grid cell, so that moves within a cell leave the R*Tree alone",
                        statements: ["DELETE FROM points"]) { connection in
            for entry in try located(on: connection) {
                let cell = GeoBox.cell(of: entry.point)
                try connection.execute("INSERT OR REPLACE INTO points (id, minLat, maxLat, minLng, maxLng) VALUES (?1, ?2, ?3, ?4, ?5)",
                                       doing: "filing a point by its cell") {
                    $0.bind(1, entry.row)
                    $0.bind(2, cell.south)
                    $0.bind(3, cell.north)
                    $0.bind(4, cell.west)
                    $0.bind(5, cell.east)
                }
            }
        },
        SchemaMigration(name: "tombstones: a record created again continues from the version it was deleted at", statements: [
            """
            CREATE TABLE tombstones (
                kind TEXT NOT NULL,
                provider TEXT NOT NULL,
                id TEXT NOT NULL,
                version INTEGER NOT NULL,
                PRIMARY KEY (kind, provider, id)
            ) WITHOUT ROWID
            """,
        ]),
        SchemaMigration(name: "grid cells in an index of the records table instead of an R*Tree, which cost more to keep in step",
                        statements: [
                            "ALTER TABLE records ADD COLUMN cell INTEGER",
                            "CREATE INDEX records_by_cell ON records (kind, provider, cell) WHERE cell IS NOT NULL",
                            "DROP TABLE points",
                        ]) { connection in
            for entry in try located(on: connection) {
                try connection.execute("UPDATE records SET cell = ?2 WHERE rowid = ?1", doing: "filing a point by its cell") {
                    $0.bind(1, entry.row)
                    $0.bind(2, GeoBox.cellNumber(of: entry.point))
                }
            }
        },
        SchemaMigration(name: "the position history: every accepted location update, by vehicle and by time", statements: [
            """
            CREATE TABLE history (
                seq INTEGER PRIMARY KEY,
                provider TEXT NOT NULL,
                vehicle TEXT NOT NULL,
                time INTEGER NOT NULL,
                lat REAL NOT NULL,
                lng REAL NOT NULL,
                accuracy REAL,
                speed REAL,
                heading REAL,
                state TEXT,
                trips TEXT NOT NULL
            )
            """,
            "CREATE INDEX history_by_vehicle ON history (provider, vehicle, time)",
            "CREATE INDEX history_by_time ON history (time)",
        ]),
        // A vehicle's reads filter on it beside the (provider, vehicle, time) index: a rides vehicle
        // and a delivery vehicle sharing an ID are rare, and a wider index would cost every write.
        SchemaMigration(name: "the position history of delivery vehicles: each point's vehicle kind, the points before it of rides vehicles",
                        statements: ["ALTER TABLE history ADD COLUMN kind TEXT NOT NULL DEFAULT 'vehicle'"]),
        // The indexes on `history` cost every write a page each (the vehicle index's one at random):
        // the two tables are filled in sorted batches instead (`HistorySQL.fileByVehicle`,
        // `fileByTime`), and reads merge them with the short unfiled tail (`HistorySQL.ofVehicle`).
        SchemaMigration(name: "history points filed by vehicle and by time in sorted batches, not by indexes on every write",
                        statements: [
                            "DROP INDEX history_by_vehicle",
                            "DROP INDEX history_by_time",
                            """
                            CREATE TABLE history_by_vehicle (
                                provider TEXT NOT NULL,
                                vehicle TEXT NOT NULL,
                                time INTEGER NOT NULL,
                                seq INTEGER NOT NULL,
                                PRIMARY KEY (provider, vehicle, time, seq)
                            ) WITHOUT ROWID
                            """,
                            """
                            CREATE TABLE history_by_time (
                                time INTEGER NOT NULL,
                                seq INTEGER NOT NULL,
                                PRIMARY KEY (time, seq)
                            ) WITHOUT ROWID
                            """,
                            // The last `seq` filed: the points above it are the unfiled tail.
                            """
                            CREATE TABLE history_filing_mark (
                                one INTEGER PRIMARY KEY CHECK (one = 1),
                                seq INTEGER NOT NULL
                            )
                            """,
                            """
                            CREATE TRIGGER history_pruned AFTER DELETE ON history BEGIN
                                DELETE FROM history_by_vehicle
                                WHERE provider = old.provider AND vehicle = old.vehicle AND time = old.time AND seq = old.seq;
                                DELETE FROM history_by_time WHERE time = old.time AND seq = old.seq;
                            END
                            """,
                        ]) { connection in
            try connection.execute("INSERT INTO history_filing_mark (one, seq) VALUES (1, 0)", doing: "starting the history filing mark")
            try HistorySQL.file(on: connection)
        },
    ]

    /// The rowid and point of every record with a point, for migrations that file points anew.
    private static func located(on connection: SQLiteConnection) throws -> [(row: Int64, point: IndexPoint)] {
        try connection.rows("SELECT rowid, lat, lng FROM records WHERE lat IS NOT NULL AND lng IS NOT NULL",
                            doing: "reading the points to file by cell") { row in
            (row: row.int64(0), point: IndexPoint(latitude: row.double(1) ?? 0, longitude: row.double(2) ?? 0))
        }
    }

    /// The version this code writes and understands.
    static var currentVersion: Int { migrations.count }

    /// Brings the file up to `currentVersion` in one IMMEDIATE transaction (so that two processes
    /// opening a new file at once migrate it once), or throws if the file is newer than this code.
    static func migrate(_ connection: SQLiteConnection) throws {
        if try version(of: connection) == currentVersion { return }
        try connection.immediateTransaction("the schema migration") {
            let found = try version(of: connection)
            guard found <= currentVersion else {
                throw FleetError(.storeSchemaTooNew, detail: "'\(connection.path)' has schema version \(found), this program knows versions up to \(currentVersion)")
            }
            for index in found..<currentVersion {
                let migration = migrations[index]
                let doing = "applying schema migration \(index + 1) '\(migration.name)'"
                for statement in migration.statements {
                    try connection.executeOnce(statement, doing: doing)
                }
                try migration.transform?(connection)
                try connection.execute("INSERT INTO schema_migrations (version, name) VALUES (?1, ?2)", doing: doing) {
                    $0.bind(1, Int64(index + 1))
                    $0.bind(2, migration.name)
                }
            }
            // PRAGMA takes no parameters; the number is this code's own constant, not a value from outside.
            try connection.executeOnce("PRAGMA user_version = \(currentVersion)", doing: "recording schema version \(currentVersion)")
        }
    }

    /// The file's schema version (`PRAGMA user_version`), 0 for a new file.
    static func version(of connection: SQLiteConnection) throws -> Int {
        let found = try connection.firstRow("PRAGMA user_version", doing: "reading the schema version") { Int($0.int64(0)) }
        return found ?? 0
    }
}
