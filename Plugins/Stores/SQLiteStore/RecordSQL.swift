import FleetErrors
import FleetStore

/// The statements the store runs on records, and how a row becomes a `StoreRecord`.
///
/// Every value is a bound parameter; the text of each statement is fixed, so each is prepared once
/// per connection.
enum RecordSQL {
    /// The columns `record(from:)` reads, in order.
    static let columns = "r.kind, r.provider, r.id, r.version, r.payload, r.lat, r.lng, r.owner"

    static let get = "SELECT \(columns) FROM records r WHERE r.kind = ?1 AND r.provider = ?2 AND r.id = ?3"

    /// The record under `key`, or nil.
    static func get(_ key: RecordKey, on connection: SQLiteConnection, path: String) throws -> StoreRecord? {
        try connection.firstRow(get, doing: "reading \(key)") {
            bind(key, to: $0)
        } read: {
            try record(from: $0, path: path)
        }
    }

    static let listFirst = """
        SELECT \(columns) FROM records r WHERE r.kind = ?1 AND r.provider = ?2 ORDER BY r.id LIMIT ?3
        """

    static let listAfter = """
        SELECT \(columns) FROM records r WHERE r.kind = ?1 AND r.provider = ?2 AND r.id > ?4 ORDER BY r.id LIMIT ?3
        """

    /// The R*Tree drives the join (CROSS JOIN keeps it the outer loop): only the rows filed under cells
    /// meeting the box are visited. The caller filters them by their exact point.
    static let nearby = """
        SELECT r.rowid, \(columns) FROM points p CROSS JOIN records r ON r.rowid = p.id
        WHERE p.maxLat >= ?1 AND p.minLat <= ?2 AND p.maxLng >= ?3 AND p.minLng <= ?4
          AND r.provider = ?5 AND r.kind = ?6
        """

    /// As `nearby`, without the payload (kind and provider are the query's): id, version, lat, lng.
    static let nearbyIndex = """
        SELECT r.rowid, r.id, r.version, r.lat, r.lng FROM points p CROSS JOIN records r ON r.rowid = p.id
        WHERE p.maxLat >= ?1 AND p.minLat <= ?2 AND p.maxLng >= ?3 AND p.minLng <= ?4
          AND r.provider = ?5 AND r.kind = ?6
        """

    /// `+r.kind` keeps the planner on the (provider, owner) index.
    static let owned = """
        SELECT \(columns) FROM records r WHERE r.provider = ?1 AND r.owner = ?2 AND +r.kind = ?3 ORDER BY r.id
        """

    static let current = "SELECT rowid, version, lat, lng FROM records WHERE kind = ?1 AND provider = ?2 AND id = ?3"

    static let insert = """
        INSERT INTO records (kind, provider, id, version, payload, lat, lng, owner)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        """

    static let update = "UPDATE records SET version = ?2, payload = ?3, lat = ?4, lng = ?5, owner = ?6 WHERE rowid = ?1"

    static let delete = "DELETE FROM records WHERE rowid = ?1"

    /// Remembers the version a record was deleted at (parameters 1–3 the key, 4 the version).
    static let bury = "INSERT OR REPLACE INTO tombstones (kind, provider, id, version) VALUES (?1, ?2, ?3, ?4)"

    /// The version a record was deleted at, forgotten as it is created again.
    static let exhume = "DELETE FROM tombstones WHERE kind = ?1 AND provider = ?2 AND id = ?3 RETURNING version"

    static let indexPoint = "INSERT OR REPLACE INTO points (id, minLat, maxLat, minLng, maxLng) VALUES (?1, ?2, ?3, ?4, ?5)"

    /// Files the row under the grid cell of `point` in the R*Tree (see `GeoBox.cell(of:)`).
    static func index(row: Int64, at point: IndexPoint, on connection: SQLiteConnection, doing: @autoclosure () -> String) throws {
        let cell = GeoBox.cell(of: point)
        try connection.execute(indexPoint, doing: doing()) {
            $0.bind(1, row)
            $0.bind(2, cell.south)
            $0.bind(3, cell.north)
            $0.bind(4, cell.west)
            $0.bind(5, cell.east)
        }
    }

    static let unindexPoint = "DELETE FROM points WHERE id = ?1"

    /// Binds a key to parameters 1 (kind), 2 (provider) and 3 (id).
    static func bind(_ key: RecordKey, to statement: SQLiteStatement) {
        statement.bind(1, key.kind.rawValue)
        statement.bind(2, key.provider)
        statement.bind(3, key.id)
    }

    /// Reads the `columns` starting at column `first`.
    static func record(from row: SQLiteStatement, first: Int32 = 0, path: String) throws -> StoreRecord {
        let kindName = row.string(first) ?? ""
        guard let kind = RecordKind(rawValue: kindName) else {
            throw FleetError(.storeCorrupted, detail: "reading '\(path)': a record has the unknown kind '\(kindName)'")
        }
        let key = RecordKey(kind, provider: row.string(first + 1) ?? "", id: row.string(first + 2) ?? "")
        let point: IndexPoint? = switch (row.double(first + 5), row.double(first + 6)) {
        case let (latitude?, longitude?): IndexPoint(latitude: latitude, longitude: longitude)
        default: nil
        }
        return StoreRecord(key: key, version: UInt64(bitPattern: row.int64(first + 3)),
                           payload: row.bytes(first + 4), point: point, owner: row.string(first + 7))
    }
}
