import FleetCLI
import FleetDriver
import FleetKit

/// driver-report's options, each declared once with its checks: the command lists `options` and
/// `DriverReportSettings` reads the group (a misspelt name cannot compile); options whose values are
/// types are read as their case, never a string compared at run time.
struct DriverReportOptions: OptionGroup {
    /// `--stop-updates driver|server`: who reports a delivery vehicle's stops.
    enum StopUpdates: String, OptionValue {
        case driver, server
    }

    /// `--state online|offline`: the one-shot mode.
    enum State: String, OptionValue {
        case online, offline
    }

    @Option("provider", valueName: "id", help: "The provider (Cloud project) ID.", environment: "FLEET_PROVIDER")
    var provider: String
    @Option("vehicle", valueName: "id", help: "The rides vehicle's ID (it must exist); give this or --delivery-vehicle.",
            environment: "FLEET_VEHICLE")
    var vehicle: String?
    @Option("delivery-vehicle", valueName: "id",
            help: "The delivery vehicle's ID (it must exist): report its location, route and stops (UpdateDeliveryVehicle) instead of a rides vehicle's.",
            environment: "FLEET_DELIVERY_VEHICLE")
    var deliveryVehicle: String?
    /// `--transport`, `--store`.
    var connection = ConnectionGroup()
    @Option("source", valueName: "source", help: "Where locations come from: gpsd://HOST:PORT, nmea:PATH|-, gpx:PATH, csv:PATH, jsonl:PATH|-, simulate:ROUTE, simulate:plan.",
            environment: "FLEET_SOURCE")
    var source: String?
    @Option("interval", valueName: "duration", help: "Time between updates: default 10s, clamped to 5s-60s (simulated seconds under --speedup).",
            environment: "FLEET_INTERVAL")
    var interval: Duration?
    @Option("status-file", valueName: "path", help: "Keep the counters in this JSON file (rewritten atomically on each change and on SIGUSR1).",
            environment: "FLEET_STATUS_FILE", completion: .files)
    var statusFile: String?
    @Option("duration", valueName: "duration", help: "Stop after this long (simulated seconds under --speedup).",
            environment: "FLEET_DURATION",
            check: OptionCheck { duration throws(ArgumentProblem) in
                guard duration > .zero else { throw .sentence("must be above 0") }
            })
    var duration: Duration?
    @Option("state", valueName: "state", help: "One-shot: set the vehicle ONLINE or OFFLINE and exit, without tracking.",
            environment: "FLEET_STATE")
    var state: State?
    @Option("route", valueName: "file", help: "Navigate along this route (GPX, encoded polyline or GeoJSON LineString), cut to end at the engine's next waypoint or stop.",
            environment: "FLEET_ROUTE", completion: .files)
    var route: String?
    @Option("router", valueName: "url", help: "Without --route, plan the way to each waypoint or stop on roads: routino:DIR (a Routino database; make map builds .build/map), or straight (a straight line, the default).",
            environment: "FLEET_ROUTER", completion: .values(["straight", "routino:"]))
    var router: String?
    @Option("speedup", valueName: "n", help: "Run the reporter's clock N times faster (demos and tests).",
            default: "1", environment: "FLEET_SPEEDUP", check: .aboveZero)
    var speedup: Double
    @Option("speed", valueName: "km/h", help: "simulate: cruise speed (default by the vehicle's category: AUTO 50 km/h).",
            environment: "FLEET_SPEED", check: .aboveZero)
    var speed: Double?
    @Option("stops", valueName: "list", help: "simulate: stops as DISTANCE[:WAIT],… (800m:30s,1.5km:2m); the wait defaults to 30s.",
            environment: "FLEET_STOPS")
    var stops: String?
    @Option("max-speed", valueName: "km/h", help: "Drop locations implying a faster jump than this (default 252 km/h).",
            environment: "FLEET_MAX_SPEED", check: .aboveZero)
    var maxSpeed: Double?
    @Option("arrival-radius", valueName: "m", help: "--delivery-vehicle: the next stop is ARRIVED when the vehicle is this many metres from it or closer.",
            default: "50", environment: "FLEET_ARRIVAL_RADIUS", check: .aboveZero)
    var arrivalRadius: Double
    @Option("dwell", valueName: "time", help: "--delivery-vehicle: how long the vehicle stays at an ARRIVED stop before the stop is served and removed: tasks (its tasks' durations; 1m without), a duration, or manual (only on SIGUSR2).",
            default: "tasks", environment: "FLEET_DWELL", completion: .values(["tasks", "manual"]))
    var dwell: String
    @Option("stop-updates", valueName: "who",
            help: "--delivery-vehicle: who marks stops ENROUTE, ARRIVED and served: driver (driver-report; needs a trusted driver's or server token) or server (the provider's backend; driver-report reports the location and route only).",
            default: "driver", environment: "FLEET_STOP_UPDATES")
    var stopUpdates: StopUpdates
    /// `--token`, `--token-file`, `--token-url`, `--token-key`, `--token-expiry-key`.
    var token = TokenGroup()
    @Option("stop-timeout", valueName: "duration", help: "How long (real time) the final update (OFFLINE; a delivery vehicle's last location) is retried.",
            default: "30s", environment: "FLEET_STOP_TIMEOUT")
    var stopTimeout: Duration
    @Option("log-format", valueName: "format", help: "Log lines as text or json.",
            default: "text", environment: "FLEET_LOG_FORMAT")
    var logFormat: LogFormat

    /// No option given.
    init() {}
}

extension OptionCheck where Value == Double {
    /// Above zero: `--name must be above 0, got VALUE` otherwise.
    static var aboveZero: OptionCheck {
        OptionCheck { value throws(ArgumentProblem) in
            guard value > 0 else { throw .sentence("must be above 0, got \(value)") }
        }
    }
}

extension LogFormat: OptionValue {}
