import FleetCLI
import FleetDriver
import FleetErrors
import FleetKit
import FleetLocation
import FleetModel
import FleetRouting
import Foundation

/// driver-report's command line, read and checked: every mistake is a usage error (exit 2) naming the option.
struct DriverReportSettings: Sendable {
    /// What the run does.
    enum Mode: Sendable {
        /// Track locations from a source until stopped.
        case track(LocationSourceSpec)
        /// Set the vehicle's state once and exit.
        case oneShot(VehicleState)
    }

    /// `--vehicle` or `--delivery-vehicle`.
    let vehicle: ReportedVehicle
    /// How a delivery vehicle's stops are reported; nil for a rides vehicle, or with `--stop-updates server`.
    let stopPolicy: StopPolicy?
    /// `--transport` and `--store`.
    let connection: ConnectionGroup
    let mode: Mode
    let interval: ReportingInterval
    let statusFile: String?
    let duration: Double?
    let route: RouteReference?
    /// The router named by `--router` (or `FLEET_ROUTER`), when it plans on roads.
    let router: (any Router)?
    let speedup: Double
    let cruiseKilometersPerHour: Double?
    let stops: [SimulatedStop]
    let maximumMetersPerSecond: Double?
    let token: TokenOption
    let stopTimeoutSeconds: Double
    let logFormat: LogFormat

    init(_ arguments: ParsedArguments, context: Context) throws {
        func usage(_ message: String) -> UsageError { context.usageError(message) }
        let options = try DriverReportOptions(arguments)

        vehicle = try Self.vehicle(options, usage: usage)
        connection = options.connection
        try connection.check(arguments, environment: context.environment)

        switch (options.state, options.source) {
        case (let state?, nil):
            mode = .oneShot(state == .online ? .online : .offline)
        case (nil, let source?):
            let spec: LocationSourceSpec
            do {
                spec = try LocationSourceSpec(parsing: source)
            } catch let error as FleetError {
                throw usage("--source: \(error.message)")
            }
            // Checked before connecting, so a mistyped path is the first thing reported.
            if case .file(_, let path) = spec, path != "-", !FileManager.default.fileExists(atPath: path) {
                throw usage("--source: " + FleetError(.locationFileMissing, detail: "\(spec): there is no file \(path)").message)
            }
            mode = .track(spec)
        case (.some, .some):
            throw usage("--state changes the state once and --source tracks: give one of them, not both")
        case (nil, nil):
            throw usage("give --source SOURCE to track the vehicle, or --state online|offline to change its state once")
        }

        interval = ReportingInterval(requestedSeconds: options.interval?.seconds)
        statusFile = options.statusFile
        duration = options.duration?.seconds
        do {
            route = try options.route.map { try RouteReference(parsing: $0) }
            stops = try options.stops.map(SimulatedStop.parseList) ?? []
        } catch let error as FleetError {
            throw usage(error.message)
        }
        router = try Self.router(options.router, context: context)
        speedup = options.speedup
        cruiseKilometersPerHour = options.speed
        maximumMetersPerSecond = options.maxSpeed.map { $0 / 3.6 }
        stopTimeoutSeconds = options.stopTimeout.seconds
        logFormat = options.logFormat
        token = try arguments.checkingSettings { try TokenOption(options.token) }

        /// `--name` of an option given, or nil.
        func given<Value>(_ option: Option<Value>) -> String? { option.isGiven ? option.definition.longSpelling : nil }
        if case .oneShot = mode,
           let tracking = [given(options.$route), given(options.$router), given(options.$duration), given(options.$speed),
                           given(options.$stops)].compactMap({ $0 }).first {
            throw usage("\(tracking) is for tracking (--source); --state only changes the state")
        }
        if case .track(let spec) = mode, !(spec.isSimulation), cruiseKilometersPerHour != nil || !stops.isEmpty {
            throw usage("--speed and --stops shape a simulated drive: use them with --source simulate:ROUTE")
        }
        if case .track(.simulatePlan) = mode, !stops.isEmpty {
            throw usage("--stops puts stops along a route (simulate:ROUTE); simulate:plan stops where the engine's waypoints and stops are")
        }

        switch vehicle {
        case .vehicle:
            if let stopOption = [given(options.$arrivalRadius), given(options.$dwell), given(options.$stopUpdates)].compactMap({ $0 }).first {
                throw usage("\(stopOption) is about a delivery vehicle's stops: use it with --delivery-vehicle")
            }
            stopPolicy = nil
        case .deliveryVehicle:
            if case .oneShot = mode {
                throw usage("--state sets a rides vehicle ONLINE or OFFLINE: a delivery vehicle has no state (track it with --source)")
            }
            let dwell = try Self.dwell(options.dwell, usage: usage)
            stopPolicy = options.stopUpdates == .driver ? StopPolicy(arrivalRadiusMeters: options.arrivalRadius, dwell: dwell) : nil
        }
    }
}

extension DriverReportSettings {
    /// The vehicle `--vehicle` (rides) or `--delivery-vehicle` names, with `--provider`. When both are set,
    /// one typed on the command line wins over one from the environment (the systemd unit sets
    /// FLEET_VEHICLE); two on the same footing are a usage error.
    static func vehicle(_ options: DriverReportOptions, usage: (String) -> UsageError) throws -> ReportedVehicle {
        var rides = options.vehicle
        var delivery = options.deliveryVehicle
        if rides != nil, delivery != nil {
            let ridesTyped = options.$vehicle.source == .commandLine
            let deliveryTyped = options.$deliveryVehicle.source == .commandLine
            guard ridesTyped != deliveryTyped else {
                throw usage("--vehicle names a rides vehicle and --delivery-vehicle a delivery vehicle: give one of them, not both")
            }
            if ridesTyped { delivery = nil } else { rides = nil }
        }
        let provider = options.provider
        do {
            if let rides { return .vehicle(try VehicleName(provider: provider, vehicleID: rides)) }
            if let delivery { return .deliveryVehicle(try DeliveryVehicleName(provider: provider, deliveryVehicleID: delivery)) }
        } catch let error as FleetError {
            throw usage("--provider/--\(rides != nil ? "vehicle" : "delivery-vehicle"): \(error.message)")
        }
        throw usage("give --vehicle ID (a rides vehicle) or --delivery-vehicle ID (a delivery vehicle)")
    }

    /// `--dwell`: `tasks`, `manual` or a duration.
    static func dwell(_ text: String?, usage: (String) -> UsageError) throws -> DwellRule {
        switch text?.lowercased() {
        case nil, "tasks": return .standard
        case "manual": return .manual
        case let text?:
            guard let duration = DurationText.parse(text) else {
                throw usage("--dwell '\(text)' is not tasks, manual or a duration (write it like 30s, 2m or 1m30s)")
            }
            return .fixed(seconds: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
        }
    }
}

extension DriverReportSettings {
    /// The router `--router` names when it plans on roads; a bad URL is a usage error listing the schemes.
    static func router(_ url: String?, context: Context) throws -> (any Router)? {
        do {
            return try Wiring.planningRouter(url, environment: [:])
        } catch {
            throw context.usageError("--router: \(error.message)")
        }
    }
}

extension LocationSourceSpec {
    /// Whether this is a `simulate:` source.
    var isSimulation: Bool {
        switch self {
        case .simulate, .simulatePlan: true
        case .gpsd, .file: false
        }
    }
}
