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

    /// The provider's vehicles filed under cells numbered `?3…?4` whose column (`cell % ?5`) is in
    /// `?6…?7`: one range of `GeoBox.cellSearch`. The caller filters them by their exact point.
    static let nearby = """
        SELECT r.rowid, \(columns) FROM records r INDEXED BY records_by_cell
        WHERE r.kind = ?1 AND r.provider = ?2 AND r.cell BETWEEN ?3 AND ?4 AND r.cell % ?5 BETWEEN ?6 AND ?7
        """

    /// As `nearby`, without the payload (kind and provider are the query's): id, version, lat, lng.
    static let nearbyIndex = """
        SELECT r.rowid, r.id, r.version, r.lat, r.lng FROM records r INDEXED BY records_by_cell
        WHERE r.kind = ?1 AND r.provider = ?2 AND r.cell BETWEEN ?3 AND ?4 AND r.cell % ?5 BETWEEN ?6 AND ?7
        """

    /// Binds the parameters of `nearby` and `nearbyIndex`.
    static func bindNearby(provider: String, cells: ClosedRange<Int64>, columns: ClosedRange<Int64>, to statement: SQLiteStatement) {
        statement.bind(1, RecordKind.vehicle.rawValue)
        statement.bind(2, provider)
        statement.bind(3, cells.lowerBound)
        statement.bind(4, cells.upperBound)
        statement.bind(5, GeoBox.cellColumns)
        statement.bind(6, columns.lowerBound)
        statement.bind(7, columns.upperBound)
    }

    /// `+r.kind` keeps the planner on the (provider, owner) index.
    static let owned = """
        SELECT \(columns) FROM records r WHERE r.provider = ?1 AND r.owner = ?2 AND +r.kind = ?3 ORDER BY r.id
        """

    static let current = "SELECT rowid, version, cell FROM records WHERE kind = ?1 AND provider = ?2 AND id = ?3"

    static let insert = """
        INSERT INTO records (kind, provider, id, version, payload, lat, lng, owner, cell)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
        """

    /// Updates a record that stays in its grid cell, which leaves the cell index alone.
    static let update = "UPDATE records SET version = ?2, payload = ?3, lat = ?4, lng = ?5, owner = ?6 WHERE rowid = ?1"

    /// Updates a record found at version `?9` filed under grid cell `?10` (NULL: none) that stays
    /// there; changes no row otherwise (parameters 1–3 the key).
    static let updateInPlace = """
        UPDATE records SET version = ?4, payload = ?5, lat = ?6, lng = ?7, owner = ?8
        WHERE kind = ?1 AND provider = ?2 AND id = ?3 AND version = ?9 AND cell IS ?10
        """

    /// Updates a record and the grid cell it is filed under.
    static let updateMoving = "UPDATE records SET version = ?2, payload = ?3, lat = ?4, lng = ?5, owner = ?6, cell = ?7 WHERE rowid = ?1"

    static let delete = "DELETE FROM records WHERE rowid = ?1"

    /// Remembers the version a record was deleted at (parameters 1–3 the key, 4 the version).
    static let bury = "INSERT OR REPLACE INTO tombstones (kind, provider, id, version) VALUES (?1, ?2, ?3, ?4)"

    /// The version a record was deleted at, forgotten as it is created again.
    static let exhume = "DELETE FROM tombstones WHERE kind = ?1 AND provider = ?2 AND id = ?3 RETURNING version"

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
