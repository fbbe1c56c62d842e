import FleetLocation
import FleetModel

/// The reporter's counters, as the status file (`--status-file`) and the SIGUSR1 log line show them.
public struct ReporterStatistics: Sendable, Hashable {
    /// Where the reporter is.
    public var state: ReporterState = .starting
    /// UpdateVehicle calls made.
    public var updatesSent = 0
    /// Calls the server acknowledged.
    public var updatesSucceeded = 0
    /// Calls that failed, all codes.
    public var updatesFailed = 0
    /// Failed calls by gRPC code name (`UNAVAILABLE`: 3).
    public var failuresByCode: [String: Int] = [:]
    /// Failures that were "update_mask cannot be empty", counted apart as the Driver SDK's sample does
    /// (they are in `updatesFailed` and `failuresByCode` too).
    public var emptyMaskFailures = 0
    /// Failures in a row since the last success.
    public var consecutiveFailures = 0
    /// Locations the source delivered.
    public var locationsReceived = 0
    /// Locations replaced by a newer one before being sent (only the newest pending location is kept).
    public var locationsCoalesced = 0
    /// Locations dropped as impossible jumps.
    public var droppedJumps = 0
    /// The source decoder's counters (bad sentences, ignored lines, fixes without position).
    public var source = DecoderStatistics()
    /// The last failure, explained from the catalogue.
    public var lastError: String?
    /// The last failure's code name.
    public var lastErrorCode: String?
    /// When the last update was acknowledged.
    public var lastSuccessTime: Timestamp?
    /// The last location the server acknowledged.
    public var lastReportedLocation: LatLng?
    /// The vehicle's state as last acknowledged.
    public var vehicleState: VehicleState?
    /// A delivery vehicle's stops still to serve, as last read or written; nil before the first read
    /// (and for a rides vehicle).
    public var remainingStops: Int?
    /// The next stop's state (`NEW`, `ENROUTE`, `ARRIVED`).
    public var nextStopState: String?
    /// The task IDs of the next stop.
    public var nextStopTasks: [String] = []
    /// Stops marked ENROUTE, acknowledged.
    public var stopsEnroute = 0
    /// Stops marked ARRIVED, acknowledged.
    public var stopsArrived = 0
    /// Stops served and removed, acknowledged.
    public var stopsCompleted = 0
    /// Reads and writes of the stops that failed (apart from `updatesFailed`, which counts the location
    /// updates).
    public var stopUpdatesFailed = 0

    /// Counters at zero.
    public init() {}

    /// The counters as a JSON object (the status file's content), with the vehicle's name and the time
    /// written; for a delivery vehicle also `stops`.
    public func json(vehicle: ReportedVehicle, writtenAt: Timestamp) -> JSON {
        var object = JSONObject()
        object["vehicle"] = .string(vehicle.description)
        object["state"] = .string(state.rawValue)
        object["vehicleState"] = vehicleState.map { .string($0.name) } ?? .null
        object["updatesSent"] = .number(Double(updatesSent))
        object["updatesSucceeded"] = .number(Double(updatesSucceeded))
        object["updatesFailed"] = .number(Double(updatesFailed))
        object["failuresByCode"] = .object(JSONObject(failuresByCode.sorted { $0.key < $1.key }.map { ($0.key, JSON.number(Double($0.value))) }))
        object["emptyMaskFailures"] = .number(Double(emptyMaskFailures))
        object["consecutiveFailures"] = .number(Double(consecutiveFailures))
        object["locationsReceived"] = .number(Double(locationsReceived))
        object["locationsCoalesced"] = .number(Double(locationsCoalesced))
        object["droppedJumps"] = .number(Double(droppedJumps))
        object["badSentences"] = .number(Double(source.bad))
        object["ignoredSentences"] = .number(Double(source.ignored))
        object["fixesWithoutPosition"] = .number(Double(source.noFix))
        object["lastBadSentence"] = source.lastProblem.map { .string($0) } ?? .null
        object["lastError"] = lastError.map { .string($0) } ?? .null
        object["lastErrorCode"] = lastErrorCode.map { .string($0) } ?? .null
        object["lastSuccessTime"] = lastSuccessTime.map { .string($0.rfc3339String) } ?? .null
        object["lastLocation"] = lastReportedLocation?.toJSON() ?? .null
        if case .deliveryVehicle = vehicle {
            var stops = JSONObject()
            stops["remaining"] = remainingStops.map { .number(Double($0)) } ?? .null
            stops["nextState"] = nextStopState.map { .string($0) } ?? .null
            stops["nextTasks"] = .array(nextStopTasks.map { .string($0) })
            stops["enroute"] = .number(Double(stopsEnroute))
            stops["arrived"] = .number(Double(stopsArrived))
            stops["completed"] = .number(Double(stopsCompleted))
            stops["failed"] = .number(Double(stopUpdatesFailed))
            object["stops"] = .object(stops)
        }
        object["writtenAt"] = .string(writtenAt.rfc3339String)
        return .object(object)
    }

    /// The counters in one line of `key=value` pairs, for the SIGUSR1 log line and systemd's STATUS.
    public var summary: String {
        let failures = failuresByCode.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
        return "state=\(state.rawValue) sent=\(updatesSent) succeeded=\(updatesSucceeded) failed=\(updatesFailed)"
            + (failures.isEmpty ? "" : " failures=\(failures)")
            + " empty_mask=\(emptyMaskFailures) received=\(locationsReceived) coalesced=\(locationsCoalesced)"
            + " dropped_jumps=\(droppedJumps) bad_sentences=\(source.bad)"
            + (remainingStops.map { " stops=\($0) next_stop=\(nextStopState ?? "none") stops_completed=\(stopsCompleted)" } ?? "")
    }
}
