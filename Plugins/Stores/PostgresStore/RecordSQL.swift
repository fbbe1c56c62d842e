import FleetErrors
import FleetStore

/// The statements the store runs on records, and how a row becomes a `StoreRecord`. Every value is
/// a bound parameter: $1 kind, $2 provider, $3 id wherever a statement names one record.
enum RecordSQL {
    /// The columns `record(from:row:)` reads, in order.
    static let columns = "kind, provider, id, version, payload, lat, lng, owner"

    static let get = "SELECT \(columns) FROM records WHERE kind = $1 AND provider = $2 AND id = $3"

    static let listFirst = "SELECT \(columns) FROM records WHERE kind = $1 AND provider = $2 ORDER BY id LIMIT $3"

    static let listAfter = "SELECT \(columns) FROM records WHERE kind = $1 AND provider = $2 AND id > $4 ORDER BY id LIMIT $3"

    static let owned = "SELECT \(columns) FROM records WHERE provider = $1 AND owner = $2 AND kind = $3 ORDER BY id"

    /// The cell ranges of a search as four arrays ($3 first cell, $4 last cell, $5 first column, $6
    /// last column, one element per range; `GeoBox.cellSearch`) joined to the cell index, so that a
    /// search is one statement however many rows of cells it meets. $7 is `GeoBox.cellColumns`.
    private static func nearby(_ selected: String) -> String {
        """
        SELECT \(selected) FROM unnest($3::text::int8[], $4::text::int8[], $5::text::int8[], $6::text::int8[]) AS c(lo, hi, clo, chi)
        JOIN records r ON r.kind = $1 AND r.provider = $2 AND r.cell BETWEEN c.lo AND c.hi AND r.cell % $7 BETWEEN c.clo AND c.chi
        """
    }

    static let nearby = nearby("r.kind, r.provider, r.id, r.version, r.payload, r.lat, r.lng, r.owner")

    /// As `nearby`, without the payload: id, version, lat, lng.
    static let nearbyIndex = nearby("r.id, r.version, r.lat, r.lng")

    /// Parameters of `nearby` and `nearbyIndex` for a circle.
    static func nearbyParameters(provider: String, center: IndexPoint, radiusMeters: Double) -> [PGValue] {
        var lows: [Int64] = [], highs: [Int64] = [], west: [Int64] = [], east: [Int64] = []
        for box in GeoBox.covering(center: center, radiusMeters: radiusMeters) {
            let search = box.cellSearch
            for cells in search.ranges {
                lows.append(cells.lowerBound)
                highs.append(cells.upperBound)
                west.append(search.columns.lowerBound)
                east.append(search.columns.upperBound)
            }
        }
        func array(_ values: [Int64]) -> PGValue { .text("{" + values.map(String.init).joined(separator: ",") + "}") }
        return [.text(RecordKind.vehicle.rawValue), .bytes(Array(provider.utf8)),
                array(lows), array(highs), array(west), array(east), .int8(GeoBox.cellColumns)]
    }

    /// Creates a record that does not exist: its version goes on from the one it was deleted at,
    /// if it was. No row back means it exists already.
    static let create = """
        WITH buried AS (DELETE FROM tombstones WHERE kind = $1 AND provider = $2 AND id = $3 RETURNING version)
        INSERT INTO records (kind, provider, id, version, payload, lat, lng, owner, cell)
        VALUES ($1, $2, $3, coalesce((SELECT version FROM buried), 0) + 1, $4, $5, $6, $7, $8)
        ON CONFLICT (kind, provider, id) DO NOTHING
        RETURNING version
        """

    /// Replaces a record at version $4. No row back means it is at another version (or gone). A
    /// concurrent update of the same row is waited for, and the version compared on what it wrote.
    static let update = """
        UPDATE records SET version = version + 1, payload = $5, lat = $6, lng = $7, owner = $8, cell = $9
        WHERE kind = $1 AND provider = $2 AND id = $3 AND version = $4
        RETURNING version
        """

    /// `update` with the insert of a point from $10 (`HistorySQL.keeping`).
    static let updateKeeping = HistorySQL.keeping(update, first: 10)

    /// Deletes a record at version $4, remembering that version. No row back means a conflict.
    static let delete = """
        WITH gone AS (DELETE FROM records WHERE kind = $1 AND provider = $2 AND id = $3 AND version = $4
                      RETURNING kind, provider, id, version)
        INSERT INTO tombstones (kind, provider, id, version) SELECT kind, provider, id, version FROM gone
        ON CONFLICT (kind, provider, id) DO UPDATE SET version = excluded.version
        RETURNING version
        """

    /// A record and, when it names an owner, the owner's record, in one statement (one snapshot):
    /// $4 is the owner's kind (`RecordKind.ownerKind`: a trip's vehicle, a task's delivery vehicle).
    /// The rows come in no particular order.
    static let getWithOwner = """
        WITH asked AS (SELECT \(columns) FROM records WHERE kind = $1 AND provider = $2 AND id = $3)
        SELECT \(columns) FROM asked
        UNION ALL
        SELECT r.kind, r.provider, r.id, r.version, r.payload, r.lat, r.lng, r.owner
        FROM asked a JOIN records r ON r.kind = $4 AND r.provider = a.provider AND r.id = a.owner
        """

    /// Reads `key` and its owner's record with `getWithOwner`: every record the statement found,
    /// and nil for the key and the owner it did not.
    static func withOwner(_ key: RecordKey, on connection: PGConnection, url: String) throws -> [RecordKey: StoreRecord?] {
        let ownerKind = key.kind.ownerKind ?? .vehicle
        let rows = try connection.execute(getWithOwner, Self.key(key) + [.text(ownerKind.rawValue)], prepared: true,
                                          doing: "reading \(key)")
        var found: [RecordKey: StoreRecord?] = [key: nil]
        for row in 0..<rows.count {
            let record = try record(from: rows, row: row, url: url)
            found[record.key] = .some(record)
        }
        if let owner = found[key]??.owner {
            let ownerKey = RecordKey(ownerKind, provider: key.provider, id: owner)
            if found[ownerKey] == nil { found[ownerKey] = .some(nil) }
        }
        return found
    }

    static let currentVersion = "SELECT version FROM records WHERE kind = $1 AND provider = $2 AND id = $3"

    /// The statement of one write (`create`, `update` or `delete`) with its parameters. It changes
    /// one row and returns its version, or changes none and returns no row when the record is not at
    /// the expected version: a conflict is no error, so a transaction that holds other writes too
    /// goes on.
    static func statement(for write: StoreWrite) -> PGStatement {
        let key = write.key
        switch write {
        case .put(let record, 0):
            guard let point = record.historyPoint else {
                return PGStatement(sql: create, parameters: Self.key(key) + contents(record))
            }
            return PGStatement(sql: HistorySQL.createKeeping, parameters: Self.key(key) + contents(record) + HistorySQL.parameters(of: point))
        case .put(let record, let expected):
            let parameters = Self.key(key) + [.int8(Int64(bitPattern: expected))] + contents(record)
            guard let point = record.historyPoint else {
                return PGStatement(sql: update, parameters: parameters)
            }
            return PGStatement(sql: updateKeeping, parameters: parameters + HistorySQL.parameters(of: point))
        case .delete(_, let expected):
            return PGStatement(sql: delete, parameters: Self.key(key) + [.int8(Int64(bitPattern: expected))])
        }
    }

    /// The indices of `writes` in key order, the order every transaction writes rows in, so that
    /// two transactions lock shared rows in the same order (a deadlock otherwise); a key written
    /// twice keeps its order.
    static func keyOrder(_ writes: [StoreWrite]) -> [Int] {
        writes.indices.sorted { (writes[$0].key, $0) < (writes[$1].key, $1) }
    }

    /// What `write` does, for errors.
    static func doing(_ write: StoreWrite) -> String {
        switch write {
        case .put(let record, 0): "creating \(record.key)"
        case .put(let record, _): "updating \(record.key)"
        case .delete(let key, _): "deleting \(key)"
        }
    }

    /// $1 kind, $2 provider, $3 id.
    static func key(_ key: RecordKey) -> [PGValue] {
        [.text(key.kind.rawValue), .bytes(Array(key.provider.utf8)), .bytes(Array(key.id.utf8))]
    }

    /// The parameters after the key for `create` ($4…$8) or `update` ($5…$9).
    static func contents(_ record: StoreRecord) -> [PGValue] {
        [.bytes(record.payload), .float8(record.point?.latitude), .float8(record.point?.longitude),
         .optionalBytes(record.owner.map { Array($0.utf8) }), .optionalInt8(record.point.map(GeoBox.cellNumber(of:)))]
    }

    /// Reads the `columns` of row `row`.
    static func record(from rows: borrowing PGRows, row: Int, url: String) throws -> StoreRecord {
        let kindName = rows.string(row, 0)
        guard let kind = RecordKind(rawValue: kindName) else {
            throw FleetError(.storeCorrupted, detail: "reading '\(url)': a record has the unknown kind '\(kindName)'")
        }
        let key = RecordKey(kind, provider: rows.string(row, 1), id: rows.string(row, 2))
        let point: IndexPoint? = switch (rows.float8(row, 5), rows.float8(row, 6)) {
        case let (latitude?, longitude?): IndexPoint(latitude: latitude, longitude: longitude)
        default: nil
        }
        return StoreRecord(key: key, version: UInt64(bitPattern: rows.int8(row, 3)), payload: rows.bytes(row, 4),
                           point: point, owner: rows.optionalBytes(row, 7).map { String(decoding: $0, as: UTF8.self) })
    }

    /// Every row of `rows` as a record.
    static func records(from rows: borrowing PGRows, url: String) throws -> [StoreRecord] {
        var found: [StoreRecord] = []
        found.reserveCapacity(rows.count)
        for row in 0..<rows.count { found.append(try record(from: rows, row: row, url: url)) }
        return found
    }

    /// A notification on channel $1 for each element of the text array $2 (`notificationArray`).
    static let notify = "SELECT count(pg_notify($1, payload))::int8 FROM unnest($2::text::text[]) AS payload"

    /// The payloads of `keys` as a PostgreSQL array literal: `{KIND/HEX/HEX,…}`. Kinds are letters
    /// and the rest hex digits and slashes, none of which an array literal quotes.
    static func notificationArray(_ keys: [RecordKey]) -> String {
        "{" + keys.map(notification).joined(separator: ",") + "}"
    }

    /// The payload of a change notification: `KIND/HEX(PROVIDER)/HEX(ID)` (`ChangeListener.key(from:)`
    /// reads it back); hex, because a notification's payload is text and IDs may hold any byte.
    static func notification(_ key: RecordKey) -> String {
        key.kind.rawValue + "/" + hex(key.provider) + "/" + hex(key.id)
    }

    private static func hex(_ text: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 2)
        for byte in text.utf8 {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
