import Dispatch
import FleetAuth
import FleetCLI
import FleetDriver
import FleetErrors
import FleetGeo
import FleetKit
import FleetLocation
import FleetInterface
import FleetModel
import Foundation
import Glibc
import Synchronization
import FleetBackoff
import FleetConcurrency

/// One run of driver-report: checks what start-up needs (token, engine, vehicle, source), then either
/// changes the state once or tracks until stopped, and returns the exit status.

struct ReportingDaemon {
    let settings: DriverReportSettings
    let context: Context

    func run() async throws -> Int32 {
        let environment = context.environment
        let time = SystemTimeSource(rate: settings.speedup)
        let standardError = context.standardError
        let log = EventLog(format: settings.logFormat, forJournal: environment["JOURNAL_STREAM"] != nil,
                           now: { Date().timeIntervalSince1970 }, write: { standardError.write($0) })
        if let warning = settings.interval.warning { log.log(.warning, "interval-clamped", warning) }

        // Start-up checks: each failure is fatal, with its own exit code.
        let tokens = try settings.token.provider(placeholder: "vehicle", cacheKey: settings.vehicle.id,
                                                 provider: settings.vehicle.provider)
        _ = try tokens?.token()
        let connection: Connection
        do {
            connection = try Wiring.connect(transport: settings.connection.transport,
                                            options: ConnectionOptions(store: settings.connection.storeURL(environment: environment),
                                                                       tokens: tokens))
        } catch let error as FleetError where error.field == "transport" || error.field == "store" {
            throw context.usageError("--\(error.field ?? "transport"): \(error.message)")
        }
        defer { try? connection.close() }
        let atStart = try Self.read(settings.vehicle, api: connection.api)

        let notifier = SystemdNotifier(socketPath: environment["NOTIFY_SOCKET"])
        let listener = DaemonListener(log: log, statusFile: settings.statusFile.map(StatusFile.init(path:)),
                                      vehicle: settings.vehicle, notifier: notifier)
        var policy = ReporterPolicy(interval: settings.interval,
                                    finalBackoff: Backoff(initialSeconds: 1 * settings.speedup, maximumSeconds: 8 * settings.speedup))
        if let maximum = settings.maximumMetersPerSecond { policy.maximumMetersPerSecond = maximum }
        let stopDeadline: @Sendable () -> Double = { [settings] in time.now() + settings.stopTimeoutSeconds * settings.speedup }

        switch settings.mode {
        case .oneShot(let state):
            let reporter = VehicleReporter(api: connection.api, vehicle: settings.vehicle, policy: policy, time: time,
                                           listener: listener, onUnauthenticated: { tokens?.invalidate() })
            listener.attach(reporter)
            let outcome = await onThread { reporter.sendState(state, deadline: stopDeadline()) }
            switch outcome {
            case .acknowledged:
                return ExitCode.success.rawValue
            case .notAcknowledged(_, let error?):
                throw error
            case .notAcknowledged(_, nil):
                log.log(.error, "state-not-acknowledged", "the state change was not acknowledged before --stop-timeout")
                return ExitCode.offlineNotAcknowledged.rawValue
            }
        case .track(let spec):
            return try await track(spec, api: connection.api, atStart: atStart, policy: policy, time: time, log: log,
                                   listener: listener, tokens: tokens, notifier: notifier, stopDeadline: stopDeadline)
        }
    }

    /// Reads the vehicle (a fatal NOT_FOUND when it does not exist): its category and last location.
    private static func read(_ vehicle: ReportedVehicle, api: any FleetAPI) throws -> VehicleAtStart {
        switch vehicle {
        case .vehicle(let name):
            let vehicle = try api.getVehicle(GetVehicleRequest(name: name.description))
            return VehicleAtStart(category: VehicleCategory(rawValue: vehicle.vehicleType?.category?.name ?? "") ?? .unknown,
                                  lastLocation: vehicle.lastLocation?.location)
        case .deliveryVehicle(let name):
            let vehicle = try api.getDeliveryVehicle(GetDeliveryVehicleRequest(name: name.description))
            // Google: "If unset, this will default to AUTO"; the other types have the same names.
            return VehicleAtStart(category: vehicle.type.flatMap { VehicleCategory(rawValue: $0.name) } ?? .auto,
                                  lastLocation: vehicle.lastLocation?.location)
        }
    }

    private func track(_ spec: LocationSourceSpec, api: any FleetAPI, atStart: VehicleAtStart, policy: ReporterPolicy,
                       time: SystemTimeSource, log: EventLog, listener: DaemonListener, tokens: (any TokenProvider)?, notifier: SystemdNotifier,
                       stopDeadline: @escaping @Sendable () -> Double) async throws -> Int32 {
        let category = atStart.category
        var style = DrivingStyle.standard(for: category)
        if let speed = settings.cruiseKilometersPerHour { style = style.cruising(atKilometersPerHour: speed) }
        let feed: any LocationFeed
        let routePoints: [GeoPoint]?
        do {
            routePoints = try settings.route?.points()
        } catch let error as FleetError {
            throw context.usageError("--route: \(error.message)")
        }
        // simulate:plan starts where the vehicle was last reported, else at the start of --route.
        let start = atStart.lastLocation.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) } ?? routePoints?.first
        if spec == .simulatePlan, start == nil {
            throw context.usageError("--source simulate:plan starts where the vehicle was last reported, and \(settings.vehicle.id) has no last location: give --route (the drive starts at its first point)")
        }
        do {
            feed = try LocationFeeds.feed(for: spec, simulation: LocationFeeds.Simulation(style: style, stops: settings.stops, start: start))
        } catch let error as FleetError {
            throw context.usageError("--source: \(error.message)")
        }

        let reporter = VehicleReporter(api: api, vehicle: settings.vehicle, policy: policy, time: time,
                                       navigator: Navigator(route: routePoints, category: category, router: settings.router),
                                       stopPolicy: settings.stopPolicy, listener: listener,
                                       onUnauthenticated: { tokens?.invalidate() })
        listener.attach(reporter, plannedDrive: feed as? PlannedDriveFeed)
        let loop = ReporterLoop(reporter: reporter, time: time)

        var fields: [(String, JSON)] = [
            ("vehicle", .string(settings.vehicle.description)), ("transport", .string(settings.connection.transport)),
            ("source", .string(feed.description)), ("interval_s", .number(policy.interval.seconds)),
        ]
        if settings.speedup != 1 {
            fields.append(("speedup", .number(settings.speedup)))
            fields.append(("real_interval_s", .number(policy.interval.seconds / settings.speedup)))
        }
        if let routePoints { fields.append(("route_points", .number(Double(routePoints.count)))) }
        if let stopPolicy = settings.stopPolicy {
            fields.append(("arrival_radius_m", .number(stopPolicy.arrivalRadiusMeters)))
            fields.append(("dwell", .string(Self.text(stopPolicy.dwell))))
        } else if case .deliveryVehicle = settings.vehicle {
            fields.append(("stop_updates", .string("server")))
        }
        log.log(.notice, "started", "reporting \(settings.vehicle.id) every \(Int(policy.interval.seconds))s"
                + (settings.speedup != 1 ? " of simulated time (\(ReportingDaemon.number(settings.speedup))x faster than real time)" : ""), fields)
        if let replay = feed as? ReplayFeed, replay.statistics.bad > 0 {
            log.log(.warning, "bad-input", "\(replay.statistics.bad) bad lines in \(feed.description) were skipped; the last: \(replay.statistics.lastProblem ?? "")",
                    [("bad_lines", .number(Double(replay.statistics.bad)))])
        }
        listener.writeStatus()

        // Signals: the first SIGTERM/SIGINT stops tracking, a second one gives up on the final update;
        // SIGUSR2 is the driver's "stop completed".
        let abandon = Cancellation()
        let signals = SignalWatcher(signals: [SIGTERM, SIGINT, SIGUSR1, SIGUSR2], queue: DispatchQueue(label: "driver-report.signals")) { number in
            if number == SIGUSR1 {
                listener.logStatus()
            } else if number == SIGUSR2 {
                listener.completeStop()
            } else if loop.isStopRequested {
                log.log(.warning, "stop-forced", "\(SignalWatcher.name(number)) again: giving up on the final OFFLINE update")
                abandon.cancel()
            } else {
                loop.requestStop(reason: SignalWatcher.name(number))
            }
        }

        // The source runs on its own thread; a finite one ending stops tracking.
        let feedCancellation = Cancellation()
        let feedEnd = Mutex<FeedEnd?>(nil)
        WorkerThread.start(name: "driver-feed") {
            let end = feed.run(into: listener, time: time, cancellation: feedCancellation)
            feedEnd.withLock { $0 = end }
            switch end {
            case .finished:
                log.log(.notice, "source-ended", "\(feed.description) ended")
                loop.requestStop(reason: "end of source")
            case .failed(let error):
                log.log(.error, "source-failed", error.message)
                loop.requestStop(reason: "source failed")
            case .cancelled:
                break
            }
        }

        notifier.ready()
        listener.notifyStatus()
        let watchdog = SystemdNotifier.watchdogInterval(environment: context.environment)
        let heartbeatSeconds: Double? = watchdog.map { Double($0.components.seconds) / 2 + Double($0.components.attoseconds) / 2e18 }
            ?? (notifier.socketPath != nil ? 30 : nil)
        let until = settings.duration.map { time.now() + $0 }
        let end = await onThread {
            loop.run(until: until, heartbeatSeconds: heartbeatSeconds) {
                if watchdog != nil { notifier.watchdog() }
                listener.notifyStatus()
            }
        }

        let reason: String
        switch end {
        case .requested(let why): reason = why
        case .durationElapsed: reason = "--duration elapsed"
        }
        notifier.stopping()
        let finalUpdate = settings.vehicle.hasState ? "setting the vehicle OFFLINE" : "sending the last location"
        log.log(.notice, "stopping", "stopping (\(reason)): \(finalUpdate)", [("reason", .string(reason))])
        feedCancellation.cancel()
        let outcome = await onThread { reporter.stop(deadline: stopDeadline(), abandon: abandon) }
        withExtendedLifetime(signals) {}
        listener.writeStatus()
        let hasState = settings.vehicle.hasState
        switch outcome {
        case .acknowledged(let attempts):
            log.log(.notice, hasState ? "offline" : "stopped", hasState ? "the vehicle is OFFLINE" : "stopped: the server has the last location",
                    [("attempts", .number(Double(attempts)))])
        case .notAcknowledged(let attempts, let error):
            let why = error.map(ErrorText.explained) ?? "no attempt could be made"
            log.log(.error, hasState ? "offline-not-acknowledged" : "final-update-not-acknowledged",
                    "the final \(hasState ? "OFFLINE" : "location") update was not acknowledged before --stop-timeout: \(why)",
                    [("attempts", .number(Double(attempts)))])
            return ExitCode.offlineNotAcknowledged.rawValue
        }
        if case .failed? = feedEnd.withLock({ $0 }) { return ExitCode.locationSourceFailed.rawValue }
        return ExitCode.success.rawValue
    }

    /// `--dwell` as written: `tasks`, `manual` or seconds.
    static func text(_ dwell: DwellRule) -> String {
        switch dwell {
        case .taskDurations: "tasks"
        case .fixed(let seconds): "\(number(seconds))s"
        case .manual: "manual"
        }
    }

    /// A number without a useless `.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Runs blocking work on a thread of its own, off Swift's cooperative pool.
    private func onThread<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await WorkerThread.run(name: "driver-report", work)
    }
}

/// What the vehicle is, as read at start.
private struct VehicleAtStart {
    /// Its category, for the driving style and the time estimates.
    var category: VehicleCategory
    /// Where it was last reported, if anywhere: where `simulate:plan` starts.
    var lastLocation: LatLng?
}
