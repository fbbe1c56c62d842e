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
        func seconds(_ option: OptionDefinition) throws -> Double? {
            try arguments.duration(option).map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
        }
        func positive(_ option: OptionDefinition) throws -> Double? {
            guard let value = try arguments.double(option) else { return nil }
            guard value > 0 else { throw usage("--\(option.name) must be above 0, got \(value)") }
            return value
        }

        vehicle = try Self.vehicle(arguments, usage: usage)
        connection = try arguments.group(ConnectionGroup.self)
        try connection.check(arguments, environment: context.environment)

        let state = arguments.value(DriverReportOptions.state, as: DriverReportOptions.State.self)
        let source = arguments.string(DriverReportOptions.source)
        switch (state, source) {
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

        interval = ReportingInterval(requestedSeconds: try seconds(DriverReportOptions.interval))
        statusFile = arguments.string(DriverReportOptions.statusFile)
        duration = try seconds(DriverReportOptions.duration)
        if let duration, duration <= 0 { throw usage("--duration must be above 0") }
        do {
            route = try arguments.string(DriverReportOptions.route).map { try RouteReference(parsing: $0) }
            stops = try arguments.string(DriverReportOptions.stops).map(SimulatedStop.parseList) ?? []
        } catch let error as FleetError {
            throw usage(error.message)
        }
        router = try Self.router(arguments.string(DriverReportOptions.router), context: context)
        speedup = try positive(DriverReportOptions.speedup) ?? 1
        cruiseKilometersPerHour = try positive(DriverReportOptions.speed)
        maximumMetersPerSecond = try positive(DriverReportOptions.maxSpeed).map { $0 / 3.6 }
        stopTimeoutSeconds = try seconds(DriverReportOptions.stopTimeout) ?? 30
        logFormat = arguments.value(DriverReportOptions.logFormat, as: LogFormat.self) ?? .text

        let tokens = try arguments.group(TokenGroup.self)
        token = try arguments.checkingSettings { try TokenOption(tokens) }

        if case .oneShot = mode {
            for option in [DriverReportOptions.route, DriverReportOptions.router, DriverReportOptions.duration, DriverReportOptions.speed, DriverReportOptions.stops] where arguments.isGiven(option) {
                throw usage("--\(option.name) is for tracking (--source); --state only changes the state")
            }
        }
        if case .track(let spec) = mode, !(spec.isSimulation), cruiseKilometersPerHour != nil || !stops.isEmpty {
            throw usage("--speed and --stops shape a simulated drive: use them with --source simulate:ROUTE")
        }
        if case .track(.simulatePlan) = mode, !stops.isEmpty {
            throw usage("--stops puts stops along a route (simulate:ROUTE); simulate:plan stops where the engine's waypoints and stops are")
        }

        let stopOptions = [DriverReportOptions.arrivalRadius, DriverReportOptions.dwell, DriverReportOptions.stopUpdates]
        switch vehicle {
        case .vehicle:
            for option in stopOptions where arguments.isGiven(option) {
                throw usage("--\(option.name) is about a delivery vehicle's stops: use it with --delivery-vehicle")
            }
            stopPolicy = nil
        case .deliveryVehicle:
            if case .oneShot = mode {
                throw usage("--state sets a rides vehicle ONLINE or OFFLINE: a delivery vehicle has no state (track it with --source)")
            }
            let radius = try positive(DriverReportOptions.arrivalRadius) ?? StopPolicy.defaultArrivalRadiusMeters
            let dwell = try Self.dwell(arguments.string(DriverReportOptions.dwell), usage: usage)
            let updates = arguments.value(DriverReportOptions.stopUpdates, as: DriverReportOptions.StopUpdates.self) ?? .driver
            stopPolicy = updates == .driver ? StopPolicy(arrivalRadiusMeters: radius, dwell: dwell) : nil
        }
    }
}

extension DriverReportSettings {
    /// The vehicle `--vehicle` (rides) or `--delivery-vehicle` names, with `--provider`. When both are set,
    /// one typed on the command line wins over one from the environment (the systemd unit sets
    /// FLEET_VEHICLE); two on the same footing are a usage error.
    static func vehicle(_ arguments: ParsedArguments, usage: (String) -> UsageError) throws -> ReportedVehicle {
        var rides = arguments.string(DriverReportOptions.vehicle)
        var delivery = arguments.string(DriverReportOptions.deliveryVehicle)
        if rides != nil, delivery != nil {
            let ridesTyped = arguments.source(DriverReportOptions.vehicle) == .commandLine
            let deliveryTyped = arguments.source(DriverReportOptions.deliveryVehicle) == .commandLine
            guard ridesTyped != deliveryTyped else {
                throw usage("--vehicle names a rides vehicle and --delivery-vehicle a delivery vehicle: give one of them, not both")
            }
            if ridesTyped { delivery = nil } else { rides = nil }
        }
        let provider = try arguments.require(DriverReportOptions.provider)
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
