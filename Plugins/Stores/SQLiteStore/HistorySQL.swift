import FleetStore

/// The statements of the position history (the `history` table) and how a row becomes a
/// `HistoryPoint`. `seq` is the rowid: the point's `HistoryPoint.sequence`.
enum HistorySQL {
    /// Appends a point: ?1 provider, ?2 vehicle, ?3 time, ?4 lat, ?5 lng, ?6 accuracy, ?7 speed,
    /// ?8 heading, ?9 state, ?10 trips (`HistoryQuery.joinedTripIDs`), ?11 kind (`RecordKind`'s raw value).
    static let insert = """
        INSERT INTO history (provider, vehicle, time, lat, lng, accuracy, speed, heading, state, trips, kind)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
        """

    static func bind(_ point: HistoryPoint, to statement: SQLiteStatement) {
        statement.bind(1, point.provider)
        statement.bind(2, point.vehicleID)
        statement.bind(3, point.time)
        statement.bind(4, point.latitude)
        statement.bind(5, point.longitude)
        statement.bind(6, point.accuracyMeters)
        statement.bind(7, point.speedMetersPerSecond)
        statement.bind(8, point.headingDegrees)
        statement.bind(9, point.vehicleState)
        statement.bind(10, HistoryQuery.joinedTripIDs(point.tripIDs))
        statement.bind(11, point.kind.rawValue)
    }

    private static let columns = "seq, provider, vehicle, time, lat, lng, accuracy, speed, heading, state, trips, kind"

    /// The points of one vehicle (?1 provider, ?2 vehicle, of kind ?9 when not NULL) in the span
    /// ?3 ..< ?4, after the cursor (?5 time, ?6 seq), of trip ?8 when not NULL (its
    /// `HistoryQuery.tripNeedle`), ?7 at most: on the (provider, vehicle, time) index, whose rows
    /// are in (time, seq) order already.
    static let ofVehicle = """
        SELECT \(columns) FROM history
        WHERE provider = ?1 AND vehicle = ?2 AND time >= ?3 AND time < ?4 AND time >= ?5 AND (time, seq) > (?5, ?6)
          AND (?8 IS NULL OR instr(trips, ?8) > 0) AND (?9 IS NULL OR kind = ?9)
        ORDER BY time, seq LIMIT ?7
        """

    /// As `ofVehicle` for every vehicle, of provider ?1 and vehicle ?2 when not NULL: on the time index.
    static let ofSpan = """
        SELECT \(columns) FROM history
        WHERE time >= ?3 AND time < ?4 AND time >= ?5 AND (time, seq) > (?5, ?6)
          AND (?1 IS NULL OR provider = ?1) AND (?2 IS NULL OR vehicle = ?2) AND (?8 IS NULL OR instr(trips, ?8) > 0)
          AND (?9 IS NULL OR kind = ?9)
        ORDER BY time, seq LIMIT ?7
        """

    static func bind(_ query: HistoryQuery, after cursor: HistoryCursor?, limit: Int, to statement: SQLiteStatement) {
        statement.bind(1, query.provider)
        statement.bind(2, query.vehicleID)
        statement.bind(3, query.from)
        statement.bind(4, query.to)
        statement.bind(5, cursor?.time ?? .min)
        statement.bind(6, cursor?.sequence ?? .min)
        statement.bind(7, Int64(limit))
        statement.bind(8, query.tripID.map(HistoryQuery.tripNeedle))
        statement.bind(9, query.kind?.rawValue)
    }

    static func point(from row: SQLiteStatement) -> HistoryPoint {
        HistoryPoint(kind: row.string(11).flatMap(RecordKind.init(rawValue:)) ?? .vehicle, provider: row.string(1) ?? "", vehicleID: row.string(2) ?? "", time: row.int64(3),
                     latitude: row.double(4) ?? 0, longitude: row.double(5) ?? 0,
                     accuracyMeters: row.double(6), speedMetersPerSecond: row.double(7), headingDegrees: row.double(8),
                     vehicleState: row.string(9), tripIDs: HistoryQuery.tripIDs(joined: row.string(10) ?? ""),
                     sequence: row.int64(0))
    }

    /// Removes up to ?2 of the oldest points older than ?1.
    static let prune = """
        DELETE FROM history WHERE seq IN (SELECT seq FROM history WHERE time < ?1 ORDER BY time LIMIT ?2)
        """
}
