import FleetErrors
import FleetGeo
import FleetInterface
import FleetModel

/// What a trip's driven path adds up to (`fleet-admin trips report`): from the points of the
/// position history that served the trip, in time order.
public struct TripReport: Sendable, Hashable {
    public var tripID: String
    /// The points the report is made of.
    public var points = 0
    /// The first and last point's times.
    public var start: Timestamp?
    public var end: Timestamp?
    /// Great-circle metres between consecutive points, added up.
    public var distanceMeters = 0.0
    /// From the first point to the last.
    public var durationSeconds = 0.0
    /// Time between consecutive points that moved slower than `standingMetersPerSecond` on average.
    public var standingSeconds = 0.0
    /// Distance over duration (0 for a trip of one point).
    public var averageMetersPerSecond: Double { durationSeconds > 0 ? distanceMeters / durationSeconds : 0 }
    /// The highest speed the vehicle reported, or, when it reported none, the highest average
    /// between two consecutive points; never below the trip's average. (A device whose speeds
    /// read low, or whose clock sent points out of order, so that the path zigzags between points
    /// sorted by time, would otherwise report a top speed under the average.)
    public var topMetersPerSecond: Double { max(reportedTop ?? movedTop, averageMetersPerSecond) }

    /// Below this average speed between two points, the vehicle counts as standing: GPS noise
    /// moves a parked vehicle by a few metres between reports.
    public static let standingMetersPerSecond = 0.5

    private var last: PositionRecord?
    private var reportedTop: Double?
    private var movedTop = 0.0

    public init(tripID: String) {
        self.tripID = tripID
    }

    /// Adds the next point (in time order).
    public mutating func add(_ point: PositionRecord) {
        points += 1
        if start == nil { start = point.time }
        end = point.time
        if let speed = point.speedMetersPerSecond { reportedTop = max(reportedTop ?? 0, speed) }
        if let last {
            let seconds = point.time.timeIntervalSince1970 - last.time.timeIntervalSince1970
            let meters = Geodesy.distance(GeoPoint(latitude: last.latitude, longitude: last.longitude),
                                          GeoPoint(latitude: point.latitude, longitude: point.longitude))
            distanceMeters += meters
            durationSeconds += max(0, seconds)
            if seconds > 0 {
                if meters / seconds < Self.standingMetersPerSecond { standingSeconds += seconds }
                movedTop = max(movedTop, meters / seconds)
            }
        }
        last = point
    }

    /// The report of a finished trip (COMPLETE or CANCELED) from the history `reader` keeps.
    /// - Throws: FAILED_PRECONDITION (`tripNotFinished`) for a trip still under way, NOT_FOUND for
    ///   a missing one.
    public static func make(trip name: TripName, api: any FleetAPI, history reader: any HistoryReading) throws -> TripReport {
        let trip = try api.getTrip(GetTripRequest(name: name.description))
        let status = trip.tripStatus ?? .unknownTripStatus
        guard status == .complete || status == .canceled else {
            throw FleetError(.tripNotFinished, detail: "\(name) is \(status.name)", field: "trip")
        }
        var report = TripReport(tripID: name.tripID)
        try reader.forEachPosition(HistoryRequest(name: name.description)) { report.add($0) }
        return report
    }

    /// The report as JSON: `tripId`, `points`, `start`, `end`, `distanceMeters`, `durationSeconds`,
    /// `standingSeconds`, `averageSpeedKmh`, `topSpeedKmh`.
    public var json: JSON {
        var object: JSONObject = ["tripId": .string(tripID), "points": .number(Double(points))]
        if let start { object["start"] = start.protoJSON }
        if let end { object["end"] = end.protoJSON }
        object["distanceMeters"] = .number(Self.rounded(distanceMeters, 1))
        object["durationSeconds"] = .number(Self.rounded(durationSeconds, 3))
        object["standingSeconds"] = .number(Self.rounded(standingSeconds, 3))
        object["averageSpeedKmh"] = .number(Self.rounded(averageMetersPerSecond * 3.6, 1))
        object["topSpeedKmh"] = .number(Self.rounded(topMetersPerSecond * 3.6, 1))
        return .object(object)
    }

    private static func rounded(_ value: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
