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

    /// `columns` of a point read through a filing table aliased `entry` and joined to `history` as `h`.
    private static func filedColumns(_ entry: String) -> String {
        "\(entry).seq, h.provider, h.vehicle, \(entry).time, h.lat, h.lng, h.accuracy, h.speed, h.heading, h.state, h.trips, h.kind"
    }

    /// The points of `history` not filed yet: above the mark.
    private static let unfiled = "seq > (SELECT seq FROM history_filing_mark)"

    /// The highest `seq` in `history`, 0 when it is empty.
    private static let lastSeq = "coalesce((SELECT max(seq) FROM history), 0)"

    /// The points of one vehicle (?1 provider, ?2 vehicle, of kind ?9 when not NULL) in the span
    /// ?3 ..< ?4, after the cursor (?5 time, ?6 seq), of trip ?8 when not NULL (its
    /// `HistoryQuery.tripNeedle`), ?7 at most, in (time, seq) order: those filed by vehicle through
    /// `history_by_vehicle`, whose keys are in that order already, merged with the matching points
    /// of the unfiled tail (`seq` above the mark, a short range of rowids read whole; NOT INDEXED
    /// keeps the planner off the time index, which would read every vehicle's points in the span).
    /// One statement, so both parts and the mark come from one snapshot: a point is read once, filed
    /// or not, as soon as its commit returns. The span's start and the cursor's time make one lower
    /// bound (`max`): of two, SQLite would start the key range at either, and a page far into the
    /// history would walk every entry from the span's start to the cursor.
    static let ofVehicle = """
        SELECT \(filedColumns("v"))
        FROM history_by_vehicle AS v JOIN history AS h ON h.seq = v.seq
        WHERE v.provider = ?1 AND v.vehicle = ?2 AND v.time >= max(?3, ?5) AND v.time < ?4 AND (v.time, v.seq) > (?5, ?6)
          AND (?8 IS NULL OR instr(h.trips, ?8) > 0) AND (?9 IS NULL OR h.kind = ?9)
        UNION ALL
        SELECT \(columns) FROM history NOT INDEXED
        WHERE \(unfiled)
          AND provider = ?1 AND vehicle = ?2 AND time >= max(?3, ?5) AND time < ?4 AND (time, seq) > (?5, ?6)
          AND (?8 IS NULL OR instr(trips, ?8) > 0) AND (?9 IS NULL OR kind = ?9)
        ORDER BY 4, 1 LIMIT ?7
        """

    /// As `ofVehicle` for every vehicle, of provider ?1 and vehicle ?2 when not NULL: the points
    /// filed by time through `history_by_time`, merged with the matching points of the unfiled tail.
    static let ofSpan = """
        SELECT \(filedColumns("t"))
        FROM history_by_time AS t JOIN history AS h ON h.seq = t.seq
        WHERE t.time >= max(?3, ?5) AND t.time < ?4 AND (t.time, t.seq) > (?5, ?6)
          AND (?1 IS NULL OR h.provider = ?1) AND (?2 IS NULL OR h.vehicle = ?2) AND (?8 IS NULL OR instr(h.trips, ?8) > 0)
          AND (?9 IS NULL OR h.kind = ?9)
        UNION ALL
        SELECT \(columns) FROM history NOT INDEXED
        WHERE \(unfiled) AND time >= max(?3, ?5) AND time < ?4 AND (time, seq) > (?5, ?6)
          AND (?1 IS NULL OR provider = ?1) AND (?2 IS NULL OR vehicle = ?2) AND (?8 IS NULL OR instr(trips, ?8) > 0)
          AND (?9 IS NULL OR kind = ?9)
        ORDER BY 4, 1 LIMIT ?7
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

    /// Removes up to ?2 of the oldest points older than ?1, filed or in the tail (the
    /// `history_pruned` trigger removes their entries in `history_by_vehicle` and
    /// `history_by_time`). Run with `lowerMarkAfterPruning` in one transaction.
    static let prune = """
        DELETE FROM history WHERE seq IN (SELECT seq FROM (
            SELECT time, seq FROM history_by_time WHERE time < ?1
            UNION ALL
            SELECT time, seq FROM history NOT INDEXED WHERE \(unfiled) AND time < ?1
            ORDER BY 1, 2 LIMIT ?2))
        """

    /// After a prune that removed the points of the highest `seq`s: the mark comes down to the
    /// highest left (0 when none). SQLite numbers a new row one above the highest in the table, so a
    /// point appended next could otherwise get a `seq` at or below the mark and never be filed.
    static let lowerMarkAfterPruning = """
        UPDATE history_filing_mark SET seq = \(lastSeq) WHERE seq > \(lastSeq)
        """

    /// Files every point appended since the last filing (`seq` above the mark) under its vehicle
    /// in `history_by_vehicle`, sorted by the table's key: a vehicle's new entries land together,
    /// one page touched for many points, where an index on `history` itself would touch a page at
    /// random for every point on the write path. Run with `fileByTime` and `advanceMark` in one
    /// transaction: the entries and the mark are kept or lost together, so no point is filed twice
    /// or left out.
    static let fileByVehicle = """
        INSERT INTO history_by_vehicle (provider, vehicle, time, seq)
        SELECT provider, vehicle, time, seq FROM history WHERE \(unfiled)
        ORDER BY provider, vehicle, time, seq
        """

    /// As `fileByVehicle`, in `history_by_time`: an index of `history` on time would cost every
    /// write a page of its own (a commit of one point writes each page it touched to the log).
    static let fileByTime = """
        INSERT INTO history_by_time (time, seq)
        SELECT time, seq FROM history WHERE \(unfiled)
        ORDER BY time, seq
        """

    /// After `fileByVehicle` and `fileByTime`, in their transaction: every point is filed, the mark
    /// moves to the last.
    static let advanceMark = """
        UPDATE history_filing_mark SET seq = \(lastSeq) WHERE \(lastSeq) > seq
        """

    /// How many points the unfiled tail holds at most: the `seq`s above the mark (points pruned or
    /// rolled back leave gaps, so it may count a few too many).
    static func unfiledCount(on connection: SQLiteConnection) throws -> Int {
        let count = try connection.firstRow(
            "SELECT \(lastSeq) - (SELECT seq FROM history_filing_mark)",
            doing: "reading how much of the position history is unfiled") { $0.int64(0) }
        return Int(max(0, count ?? 0))
    }

    /// Files the unfiled tail by vehicle and by time and moves the mark, inside the caller's
    /// transaction.
    static func file(on connection: SQLiteConnection) throws {
        try connection.execute(fileByVehicle, doing: "filing the position history by vehicle")
        try connection.execute(fileByTime, doing: "filing the position history by time")
        try connection.execute(advanceMark, doing: "marking the position history filed")
    }
}
