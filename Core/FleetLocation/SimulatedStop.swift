import FleetErrors

/// A stop on a simulated drive: the vehicle brakes to a halt `meters` along the route and waits `seconds`.
public struct SimulatedStop: Sendable, Hashable {
    /// Where, in metres from the start of the route.
    public var meters: Double
    /// How long the vehicle stands, seconds.
    public var seconds: Double

    /// A stop.
    public init(meters: Double, seconds: Double) {
        self.meters = meters
        self.seconds = seconds
    }

    /// The dwell time of a stop written without one: 30 seconds.
    public static let defaultSeconds = 30.0

    /// Parses `--stops`: a comma-separated list of `DISTANCE[:WAIT]`, distance in metres (`800`, `800m`)
    /// or kilometres (`1.5km`), wait in seconds (`30`, `30s`) or minutes (`2m`, default 30 s).
    /// - Throws: INVALID_ARGUMENT naming `--stops` and the item at fault.
    public static func parseList(_ text: String) throws -> [SimulatedStop] {
        try text.split(separator: ",").map { item in
            let parts = item.split(separator: ":", maxSplits: 1).map { $0.trimmingSpaces }
            guard let meters = distance(parts[0]) else {
                throw FleetError.invalidArgument("--stops: '\(item)': the distance '\(parts[0])' is not metres (800, 800m) or kilometres (1.5km)", field: "stops")
            }
            var seconds = defaultSeconds
            if parts.count == 2 {
                guard let wait = duration(parts[1]) else {
                    throw FleetError.invalidArgument("--stops: '\(item)': the wait '\(parts[1])' is not seconds (30, 30s) or minutes (2m)", field: "stops")
                }
                seconds = wait
            }
            return SimulatedStop(meters: meters, seconds: seconds)
        }
    }

    private static func distance(_ text: String) -> Double? {
        let lower = text.lowercased()
        let value: Double?
        if lower.hasSuffix("km") { value = Double(lower.dropLast(2)).map { $0 * 1000 } }
        else if lower.hasSuffix("m") { value = Double(lower.dropLast()) }
        else { value = Double(lower) }
        guard let value, value.isFinite, value >= 0 else { return nil }
        return value
    }

    private static func duration(_ text: String) -> Double? {
        let lower = text.lowercased()
        let value: Double?
        if lower.hasSuffix("min") { value = Double(lower.dropLast(3)).map { $0 * 60 } }
        else if lower.hasSuffix("m") { value = Double(lower.dropLast()).map { $0 * 60 } }
        else if lower.hasSuffix("s") { value = Double(lower.dropLast()) }
        else { value = Double(lower) }
        guard let value, value.isFinite, value >= 0 else { return nil }
        return value
    }
}
