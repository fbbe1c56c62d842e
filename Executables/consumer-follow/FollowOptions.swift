import FleetCLI
import FleetConsumer

/// consumer-follow's own options and argument, declared once: the command lists them and
/// `FollowSettings` reads them by these declarations, so a misspelt name cannot compile.
enum FollowOptions {
    /// `-p`, `--provider ID`.
    static let provider = OptionDefinition.value("provider", short: "p", valueName: "id", help: "The provider (Cloud project) ID, when <trip> is a trip ID (or --tracking-id a tracking ID).",
                                       environment: "FLEET_PROVIDER")
    /// `--tracking-id ID`.
    static let trackingID = OptionDefinition.value("tracking-id", valueName: "id", help: "Follow a shipment instead of a trip: its tracking ID (with --provider), or providers/P/taskTrackingInfo/ID; polls GetTaskTrackingInfo every --interval.")
    /// `--events a,b` (repeatable).
    static let events = OptionDefinition.value("events", valueName: "names", help: "Report only these events (comma-separated; may be repeated).",
                                     repeatable: true, completion: .values(TripEventKind.allCases.map(\.rawValue) + ShipmentEventKind.allCases.map(\.rawValue)))
    /// `--until STATUS`.
    static let until = OptionDefinition.value("until", valueName: "status", help: "Stop once the trip has reached (or passed) this status (trips only).",
                                    allowedValues: TripProgress.untilStatuses.map(\.name))
    /// `--interval D`.
    static let interval = OptionDefinition.value("interval", valueName: "duration", help: "How often to poll, and to retry after a client error (at least 1s).",
                                       default: "5s")
    /// `--deadline D`.
    static let deadline = OptionDefinition.value("deadline", valueName: "duration", help: "Stop with exit 5 when the trip (or shipment) has not ended (or reached --until) within this time, e.g. 30m.")
    /// `--stale-after SECONDS`.
    static let staleAfter = OptionDefinition.value("stale-after", valueName: "seconds", help: "Flag the vehicle's position as stale (panel, vehicleStale event) once older than this.",
                                         default: "30", environment: "FLEET_STALE_AFTER")
    /// `--time-scale N`.
    static let timeScale = OptionDefinition.value("time-scale", valueName: "n", help: "The trip runs N times faster than real time (a drive simulated with driver-report --speedup N, as make demo does): the live panel counts down in the trip's own time.",
                                        default: "1", environment: "FLEET_TIME_SCALE")
    /// `--poll`.
    static let poll = OptionDefinition.flag("poll", help: "Poll GetTrip every --interval even when the transport can push changes.")
    /// `--fail-fast`.
    static let failFast = OptionDefinition.flag("fail-fast", help: "Exit at the first client error with 10 + its gRPC number instead of retrying.")
    /// `<trip>`.
    static let trip = Argument("trip", help: "The trip: providers/P/trips/T, or a trip ID with --provider (none with --tracking-id).", arity: .optional)
}
