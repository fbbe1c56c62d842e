import FleetCLI
import FleetConsumer
import FleetKit
import FleetModel

/// consumer-follow's options and argument, each declared once with its checks: the command lists
/// `options` and `FollowSettings` reads the group, so a misspelt name cannot compile.
struct FollowOptions: OptionGroup {
    /// `-p`, `--provider ID`.
    @Option("provider", short: "p", valueName: "id", help: "The provider (Cloud project) ID, when <trip> is a trip ID (or --tracking-id a tracking ID).",
            environment: "FLEET_PROVIDER")
    var provider: String?
    /// `--tracking-id ID`.
    @Option("tracking-id", valueName: "id", help: "Follow a shipment instead of a trip: its tracking ID (with --provider), or providers/P/taskTrackingInfo/ID; watched or polled as a trip is.")
    var trackingID: String?
    /// `--transport`, `--store`.
    var connection = ConnectionGroup()
    /// `--json`, `--jsonl`, `--no-color`.
    var output = OutputGroup()
    /// `--events a,b` (repeatable).
    @Option("events", valueName: "names", help: "Report only these events (comma-separated; may be repeated).",
            completion: .values(TripEventKind.allCases.map(\.rawValue) + ShipmentEventKind.allCases.map(\.rawValue)))
    var events: [String]
    /// `--until STATUS`.
    @Option("until", valueName: "status", help: "Stop once the trip has reached (or passed) this status (trips only).",
            allowedValues: TripProgress.untilStatuses.map(\.name), transform: { TripStatus(name: $0) })
    var until: TripStatus?
    /// `--deadline D`.
    @Option("deadline", valueName: "duration", help: "Stop with exit 5 when the trip (or shipment) has not ended (or reached --until) within this time, e.g. 30m.",
            check: OptionCheck { deadline throws(ArgumentProblem) in
                guard deadline > .zero else { throw .sentence("must be above 0", showingText: true) }
            })
    var deadline: Duration?
    /// `--interval D`.
    @Option("interval", valueName: "duration", help: "How often to poll, and to retry after a client error (at least 1s).",
            default: "5s",
            check: OptionCheck { interval throws(ArgumentProblem) in
                guard interval.seconds >= FollowConfiguration.minimumRefreshSeconds else { throw .sentence("must be at least 1s", showingText: true) }
            })
    var interval: Duration
    /// `--stale-after SECONDS`.
    @Option("stale-after", valueName: "seconds", help: "Flag the vehicle's position as stale (panel, vehicleStale event) once older than this.",
            default: "30", environment: "FLEET_STALE_AFTER",
            check: OptionCheck { seconds throws(ArgumentProblem) in
                guard seconds > 0 else { throw .sentence("must be a positive number of seconds", showingText: true) }
            })
    var staleAfterSeconds: Double
    /// `--time-scale N`.
    @Option("time-scale", valueName: "n", help: "The trip runs N times faster than real time (a drive simulated with driver-report --speedup N, as make demo does): the live panel counts down in the trip's own time.",
            default: "1", environment: "FLEET_TIME_SCALE",
            check: OptionCheck { scale throws(ArgumentProblem) in
                guard scale > 0 else { throw .sentence("must be above 0", showingText: true) }
            })
    var timeScale: Double
    /// `--poll`.
    @Flag("poll", help: "Poll GetTrip (GetTaskTrackingInfo with --tracking-id) every --interval even when the transport can push changes.")
    var poll: Bool
    /// `--fail-fast`.
    @Flag("fail-fast", help: "Exit at the first client error with 10 + its gRPC number instead of retrying.")
    var failFast: Bool
    /// `--token`, `--token-file`, `--token-url`, `--token-key`, `--token-expiry-key`.
    var token = TokenGroup()

    /// `<trip>`.
    static let trip = Argument("trip", help: "The trip: providers/P/trips/T, or a trip ID with --provider (none with --tracking-id).", arity: .optional)

    /// No option given.
    init() {}

    /// `--until` is a trip status: it does not go with `--tracking-id`.
    func validate() throws(ValidationError) {
        if trackingID != nil && until != nil {
            throw ValidationError("--until takes a trip status: it does not go with --tracking-id (a shipment is followed until its task closes)")
        }
    }
}
