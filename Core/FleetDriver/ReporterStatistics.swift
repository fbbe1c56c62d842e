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

    /// Counters at zero.
    public init() {}

    /// The counters as a JSON object (the status file's content), with the vehicle's name and the time written.
    public func json(vehicle: VehicleName, writtenAt: Timestamp) -> JSON {
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
    }
}
