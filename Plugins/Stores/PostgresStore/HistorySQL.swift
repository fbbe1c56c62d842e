import FleetStore

/// The statements of the position history (the `history` table) and how a row becomes a
/// `HistoryPoint`. A point is written by the same statement as the vehicle's update it records
/// (`RecordSQL.statement(for:)`), a data-modifying `WITH` that inserts it only when the update
/// changed its row: one statement, so a batch of updates stays one pipeline and one WAL flush.
enum HistorySQL {
    /// The history's columns, in the order `values` gives them.
    private static let insertColumns = "kind, provider, vehicle, time, lat, lng, accuracy, speed, heading, state, trips"

    /// `statement` (which returns the written record's version) followed by the insert of a point
    /// whose parameters start at `$first` (`parameters(of:)`), kept only when `statement` returned
    /// a row. The point's kind, provider and vehicle are the record key's ($1, $2, $3). `statement`
    /// must not begin with a `WITH` of its own (`createKeeping` is that case).
    static func keeping(_ statement: String, first: Int) -> String {
        """
        WITH written AS (\(statement)),
        kept AS (INSERT INTO history (\(insertColumns)) SELECT $1, $2, $3, \(values(first: first)) FROM written)
        SELECT version FROM written
        """
    }

    /// `RecordSQL.create` with the insert of a point from $9.
    static let createKeeping = """
        WITH buried AS (DELETE FROM tombstones WHERE kind = $1 AND provider = $2 AND id = $3 RETURNING version),
        written AS (INSERT INTO records (kind, provider, id, version, payload, lat, lng, owner, cell)
                    VALUES ($1, $2, $3, coalesce((SELECT version FROM buried), 0) + 1, $4, $5, $6, $7, $8)
                    ON CONFLICT (kind, provider, id) DO NOTHING
                    RETURNING version),
        kept AS (INSERT INTO history (\(insertColumns)) SELECT $1, $2, $3, \(values(first: 9)) FROM written)
        SELECT version FROM written
        """

    /// `$first … $first+7`: time, lat, lng, accuracy, speed, heading, state, trips.
    private static func values(first: Int) -> String {
        (first..<first + 8).map { "$\($0)" }.joined(separator: ", ")
    }

    /// The parameters of a point after the record's (provider and vehicle are the record key's).
    static func parameters(of point: HistoryPoint) -> [PGValue] {
        [.int8(point.time), .float8(point.latitude), .float8(point.longitude), .float8(point.accuracyMeters),
         .float8(point.speedMetersPerSecond), .float8(point.headingDegrees),
         .optionalBytes(point.vehicleState.map { Array($0.utf8) }), .bytes(Array(HistoryQuery.joinedTripIDs(point.tripIDs).utf8))]
    }

    private static let columns = "seq, provider, vehicle, time, lat, lng, accuracy, speed, heading, state, trips, kind"

    /// The points of one vehicle ($1 provider, $2 vehicle, of kind $9 when not NULL) in the span
    /// $3 ..< $4 after the cursor ($5 time, $6 seq), of trip $8 when not NULL (its
    /// `HistoryQuery.tripNeedle`), $7 at most.
    static let ofVehicle = """
        SELECT \(columns) FROM history
        WHERE provider = $1 AND vehicle = $2 AND time >= $3 AND time < $4 AND time >= $5 AND (time, seq) > ($5, $6)
          AND ($8::bytea IS NULL OR position($8::bytea IN trips) > 0) AND ($9::text IS NULL OR kind = $9::text)
        ORDER BY time, seq LIMIT $7
        """

    /// As `ofVehicle` for every vehicle, of provider $1 and vehicle $2 when not NULL.
    static let ofSpan = """
        SELECT \(columns) FROM history
        WHERE time >= $3 AND time < $4 AND time >= $5 AND (time, seq) > ($5, $6)
          AND ($1::bytea IS NULL OR provider = $1) AND ($2::bytea IS NULL OR vehicle = $2)
          AND ($8::bytea IS NULL OR position($8::bytea IN trips) > 0) AND ($9::text IS NULL OR kind = $9::text)
        ORDER BY time, seq LIMIT $7
        """

    static func parameters(_ query: HistoryQuery, after cursor: HistoryCursor?, limit: Int) -> [PGValue] {
        [.optionalBytes(query.provider.map { Array($0.utf8) }), .optionalBytes(query.vehicleID.map { Array($0.utf8) }),
         .int8(query.from), .int8(query.to), .int8(cursor?.time ?? .min), .int8(cursor?.sequence ?? .min),
         .int8(Int64(limit)), .optionalBytes(query.tripID.map { Array(HistoryQuery.tripNeedle($0).utf8) }),
         .optionalText(query.kind?.rawValue)]
    }

    static func points(from rows: borrowing PGRows) -> [HistoryPoint] {
        var found: [HistoryPoint] = []
        found.reserveCapacity(rows.count)
        for row in 0..<rows.count {
            found.append(HistoryPoint(
                kind: RecordKind(rawValue: rows.string(row, 11)) ?? .vehicle, provider: rows.string(row, 1), vehicleID: rows.string(row, 2), time: rows.int8(row, 3),
                latitude: rows.float8(row, 4) ?? 0, longitude: rows.float8(row, 5) ?? 0,
                accuracyMeters: rows.float8(row, 6), speedMetersPerSecond: rows.float8(row, 7), headingDegrees: rows.float8(row, 8),
                vehicleState: rows.optionalBytes(row, 9).map { String(decoding: $0, as: UTF8.self) },
                tripIDs: HistoryQuery.tripIDs(joined: rows.string(row, 10)), sequence: rows.int8(row, 0)))
        }
        return found
    }

    /// Removes up to $2 of the oldest points older than $1, found on the time index and deleted by
    /// their row addresses.
    static let prune = """
        DELETE FROM history WHERE ctid = ANY (ARRAY(SELECT ctid FROM history WHERE time < $1 ORDER BY time LIMIT $2))
        """
}
