/// One accepted location update of a vehicle (a rides vehicle or a delivery vehicle), as the
/// position history keeps it.
///
/// The engine hands it to the store with the vehicle's own write (`StoreRecord.historyPoint`), so
/// the point is committed in the same transaction as the update it records: a crash keeps both or
/// neither. Reads return points in time order (`HistoryQuery`, `Store.history(_:after:limit:)`).
public struct HistoryPoint: Sendable, Hashable {
    /// The kind of vehicle: `.vehicle` (rides) or `.deliveryVehicle`. A rides vehicle and a delivery
    /// vehicle may share an ID; their histories stay apart.
    public var kind: RecordKind
    public var provider: String
    public var vehicleID: String
    /// When the vehicle was there (the location's update time): microseconds since 1970-01-01 UTC.
    public var time: Int64
    /// WGS84 degrees.
    public var latitude: Double
    public var longitude: Double
    /// Horizontal accuracy in metres, when the device gave one.
    public var accuracyMeters: Double?
    /// Speed in metres per second, when the device gave one.
    public var speedMetersPerSecond: Double?
    /// Heading in degrees clockwise from north, when the device gave one.
    public var headingDegrees: Double?
    /// The vehicle's state at the time (`ONLINE`, `OFFLINE`), as Fleet Engine names it.
    public var vehicleState: String?
    /// The trips the vehicle was serving (its `currentTrips`); none for a delivery vehicle.
    public var tripIDs: [String]
    /// Assigned by the store when the point is committed, increasing with each point: orders points
    /// of the same `time` and makes the `HistoryCursor` of a page. Ignored on write.
    public var sequence: Int64

    public init(kind: RecordKind = .vehicle, provider: String, vehicleID: String, time: Int64, latitude: Double, longitude: Double,
                accuracyMeters: Double? = nil, speedMetersPerSecond: Double? = nil, headingDegrees: Double? = nil,
                vehicleState: String? = nil, tripIDs: [String] = [], sequence: Int64 = 0) {
        self.kind = kind
        self.provider = provider
        self.vehicleID = vehicleID
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyMeters = accuracyMeters
        self.speedMetersPerSecond = speedMetersPerSecond
        self.headingDegrees = headingDegrees
        self.vehicleState = vehicleState
        self.tripIDs = tripIDs
        self.sequence = sequence
    }

    /// `time` in seconds since 1970-01-01 UTC.
    public var seconds: Double { Double(time) / 1_000_000 }

    /// Where the next page starts after this point.
    public var cursor: HistoryCursor { HistoryCursor(time: time, sequence: sequence) }

    /// Whether the point lies after `cursor` in the history's order (time, then sequence).
    public func isAfter(_ cursor: HistoryCursor?) -> Bool {
        guard let cursor else { return true }
        return (time, sequence) > (cursor.time, cursor.sequence)
    }

    /// Whether the point matches `query`'s kind, provider, vehicle, trip and time span.
    public func matches(_ query: HistoryQuery) -> Bool {
        time >= query.from && time < query.to
            && (query.kind.map { $0 == kind } ?? true)
            && (query.provider.map { $0 == provider } ?? true)
            && (query.vehicleID.map { $0 == vehicleID } ?? true)
            && (query.tripID.map(tripIDs.contains) ?? true)
    }
}

/// The position of a point in the history's order: the last point of a page, after which the next
/// page starts.
public struct HistoryCursor: Sendable, Hashable {
    public var time: Int64
    public var sequence: Int64

    public init(time: Int64, sequence: Int64) {
        self.time = time
        self.sequence = sequence
    }
}

/// Which points a history read returns: those of a time span, optionally of one kind of vehicle,
/// one provider, one vehicle and one trip.
public struct HistoryQuery: Sendable, Hashable {
    /// Nil: every kind (what a learner reads). A vehicle's history names its kind, since a rides
    /// vehicle and a delivery vehicle may share an ID.
    public var kind: RecordKind?
    /// Nil: every provider.
    public var provider: String?
    /// Nil: every vehicle (what a learner reads).
    public var vehicleID: String?
    /// Only points that served this trip (`HistoryPoint.tripIDs`).
    public var tripID: String?
    /// The span, microseconds since 1970-01-01 UTC: from inclusive, to exclusive.
    public var from: Int64
    public var to: Int64

    public init(kind: RecordKind? = nil, provider: String? = nil, vehicleID: String? = nil, tripID: String? = nil,
                from: Int64 = .min, to: Int64 = .max) {
        self.kind = kind
        self.provider = provider
        self.vehicleID = vehicleID
        self.tripID = tripID
        self.from = from
        self.to = to
    }

    /// The text a trip ID is looked for in `HistoryPoint.tripIDs` joined by `joinedTripIDs`.
    public static func tripNeedle(_ tripID: String) -> String {
        separator + tripID + separator
    }

    /// Trip IDs as one text that SQL stores keep in a column and search with `tripNeedle`: each ID
    /// between unit separators (U+001F), which no trip ID the engine accepts holds.
    public static func joinedTripIDs(_ ids: [String]) -> String {
        ids.isEmpty ? "" : separator + ids.joined(separator: separator) + separator
    }

    /// The IDs `joinedTripIDs` joined.
    public static func tripIDs(joined: String) -> [String] {
        joined.split(separator: Character(separator)).map(String.init)
    }

    private static let separator = "\u{1F}"
}

extension Store {
    /// Calls `body` with every point `query` matches, in time order, reading `pageSize` points at a
    /// time: a long history is never held at once. `body` returns false to stop early.
    public func forEachHistoryPoint(_ query: HistoryQuery, pageSize: Int = 1_000,
                                    _ body: (HistoryPoint) throws -> Bool) throws {
        var cursor: HistoryCursor?
        while true {
            let page = try history(query, after: cursor, limit: pageSize)
            for point in page {
                guard try body(point) else { return }
            }
            guard page.count == pageSize, let last = page.last else { return }
            cursor = last.cursor
        }
    }
}
