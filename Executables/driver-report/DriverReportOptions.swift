import FleetCLI
import FleetDriver

/// driver-report's own options, declared once: the command lists them and `DriverReportSettings`
/// reads them by these declarations (a misspelt name cannot compile); options whose values are types
/// are read as their case, never a string compared at run time.
enum DriverReportOptions {
    /// `--provider`.
    static let provider = OptionDefinition.value("provider", valueName: "id", help: "The provider (Cloud project) ID.", environment: "FLEET_PROVIDER", required: true)
    /// `--vehicle`.
    static let vehicle = OptionDefinition.value("vehicle", valueName: "id", help: "The rides vehicle's ID (it must exist); give this or --delivery-vehicle.",
        environment: "FLEET_VEHICLE")
    /// `--delivery-vehicle`.
    static let deliveryVehicle = OptionDefinition.value("delivery-vehicle", valueName: "id",
        help: "The delivery vehicle's ID (it must exist): report its location, route and stops (UpdateDeliveryVehicle) instead of a rides vehicle's.",
        environment: "FLEET_DELIVERY_VEHICLE")
    /// `--source`.
    static let source = OptionDefinition.value("source", valueName: "source", help: "Where locations come from: gpsd://HOST:PORT, nmea:PATH|-, gpx:PATH, csv:PATH, jsonl:PATH|-, simulate:ROUTE, simulate:plan.",
        environment: "FLEET_SOURCE")
    /// `--interval`.
    static let interval = OptionDefinition.value("interval", valueName: "duration", help: "Time between updates: default 10s, clamped to 5s-60s (simulated seconds under --speedup).",
        environment: "FLEET_INTERVAL")
    /// `--status-file`.
    static let statusFile = OptionDefinition.value("status-file", valueName: "path", help: "Keep the counters in this JSON file (rewritten atomically on each change and on SIGUSR1).",
        environment: "FLEET_STATUS_FILE", completion: .files)
    /// `--duration`.
    static let duration = OptionDefinition.value("duration", valueName: "duration", help: "Stop after this long (simulated seconds under --speedup).",
        environment: "FLEET_DURATION")
    /// `--route`.
    static let route = OptionDefinition.value("route", valueName: "file", help: "Navigate along this route (GPX, encoded polyline or GeoJSON LineString), cut to end at the engine's next waypoint or stop.",
        environment: "FLEET_ROUTE", completion: .files)
    /// `--router`.
    static let router = OptionDefinition.value("router", valueName: "url", help: "Without --route, plan the way to each waypoint or stop on roads: routino:DIR (a Routino database; make map builds .build/map), or straight (a straight line, the default).",
        environment: "FLEET_ROUTER", completion: .values(["straight", "routino:"]))
    /// `--speedup`.
    static let speedup = OptionDefinition.value("speedup", valueName: "n", help: "Run the reporter's clock N times faster (demos and tests).",
        default: "1", environment: "FLEET_SPEEDUP")
    /// `--speed`.
    static let speed = OptionDefinition.value("speed", valueName: "km/h", help: "simulate: cruise speed (default by the vehicle's category: AUTO 50 km/h).",
        environment: "FLEET_SPEED")
    /// `--stops`.
    static let stops = OptionDefinition.value("stops", valueName: "list", help: "simulate: stops as DISTANCE[:WAIT],… (800m:30s,1.5km:2m); the wait defaults to 30s.",
        environment: "FLEET_STOPS")
    /// `--max-speed`.
    static let maxSpeed = OptionDefinition.value("max-speed", valueName: "km/h", help: "Drop locations implying a faster jump than this (default 252 km/h).",
        environment: "FLEET_MAX_SPEED")
    /// `--stop-timeout`.
    static let stopTimeout = OptionDefinition.value("stop-timeout", valueName: "duration", help: "How long (real time) the final update (OFFLINE; a delivery vehicle's last location) is retried.",
        default: "30s", environment: "FLEET_STOP_TIMEOUT")
    /// `--arrival-radius`.
    static let arrivalRadius = OptionDefinition.value("arrival-radius", valueName: "m", help: "--delivery-vehicle: the next stop is ARRIVED when the vehicle is this many metres from it or closer.",
        default: "50", environment: "FLEET_ARRIVAL_RADIUS")
    /// `--dwell`.
    static let dwell = OptionDefinition.value("dwell", valueName: "time", help: "--delivery-vehicle: how long the vehicle stays at an ARRIVED stop before the stop is served and removed: tasks (its tasks' durations; 1m without), a duration, or manual (only on SIGUSR2).",
        default: "tasks", environment: "FLEET_DWELL", completion: .values(["tasks", "manual"]))

    /// `--stop-updates driver|server`: who reports a delivery vehicle's stops.
    enum StopUpdates: String, OptionValue {
        case driver, server
    }

    /// `--stop-updates`.
    static let stopUpdates = OptionDefinition.choice("stop-updates", of: StopUpdates.self, valueName: "who",
        help: "--delivery-vehicle: who marks stops ENROUTE, ARRIVED and served: driver (driver-report; needs a trusted driver's or server token) or server (the provider's backend; driver-report reports the location and route only).",
        default: .driver, environment: "FLEET_STOP_UPDATES")

    /// `--state online|offline`: the one-shot mode.
    enum State: String, OptionValue {
        case online, offline
    }

    /// `--state`.
    static let state = OptionDefinition.choice("state", of: State.self, help: "One-shot: set the vehicle ONLINE or OFFLINE and exit, without tracking.",
                                     environment: "FLEET_STATE")
    /// `--log-format text|json`.
    static let logFormat = OptionDefinition.choice("log-format", of: LogFormat.self, valueName: "format", help: "Log lines as text or json.",
                                         default: .text, environment: "FLEET_LOG_FORMAT")
}

extension LogFormat: OptionValue {}
