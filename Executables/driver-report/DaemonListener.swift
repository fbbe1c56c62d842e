import FleetCLI
import FleetDriver
import FleetErrors
import FleetGeo
import FleetLocation
import FleetModel
import Synchronization

/// The daemon's ears on the reporter and the feed: a log line per event, the status file rewritten on
/// every change of the counters, and systemd's STATUS line.
final class DaemonListener: VehicleReporterListener, LocationSink {
    let log: EventLog
    private let statusFile: StatusFile?
    private let vehicle: ReportedVehicle
    private let notifier: SystemdNotifier
    private let reporter = Mutex<VehicleReporter?>(nil)
    private let plannedDrive = Mutex<PlannedDriveFeed?>(nil)
    private let writeLock = Mutex(0)
    private let badInputs = Mutex(0)

    init(log: EventLog, statusFile: StatusFile?, vehicle: ReportedVehicle, notifier: SystemdNotifier) {
        self.log = log
        self.statusFile = statusFile
        self.vehicle = vehicle
        self.notifier = notifier
    }

    /// The reporter whose counters are shown and to which the feed's samples go; `plannedDrive`, a
    /// `simulate:plan` source, drives each leg the reporter's navigator plans.
    func attach(_ reporter: VehicleReporter, plannedDrive: PlannedDriveFeed? = nil) {
        self.reporter.withLock { $0 = reporter }
        self.plannedDrive.withLock { $0 = plannedDrive }
    }

    /// The driver's "stop completed" (SIGUSR2), logged either way.
    func completeStop() {
        guard let reporter = reporter.withLock({ $0 }) else { return }
        if reporter.completeStop() {
            log.log(.notice, "stop-completion-requested", "SIGUSR2: the ARRIVED stop is served now", [("vehicle", .string(vehicle.description))])
        } else {
            let next = reporter.nextStop.map { "the next stop is \($0.state?.name ?? "NEW")" } ?? "there is no stop to serve"
            log.log(.warning, "stop-completion-ignored", "SIGUSR2 ignored: only an ARRIVED stop can be served, and \(next)",
                    [("vehicle", .string(vehicle.description))])
        }
    }

    private func statistics() -> ReporterStatistics {
        reporter.withLock { $0 }?.statistics ?? ReporterStatistics()
    }

    // MARK: Reporter

    func reporterDidSucceed(_ attempt: UpdateAttempt) {
        var fields: [(String, JSON)] = [("vehicle", .string(vehicle.description)), ("fields", .string(attempt.mask.description))]
        if let state = attempt.state { fields.append(("state", .string(state.name))) }
        if let point = attempt.location?.location {
            fields.append(("lat", .number(point.latitude)))
            fields.append(("lng", .number(point.longitude)))
        }
        let message = attempt.isFinal ? "final update acknowledged" : "update acknowledged"
        log.log(attempt.isFinal ? .notice : .info, "update-succeeded", message, fields)
    }

    func reporterDidFail(_ attempt: UpdateAttempt, error: FleetError, retryInSeconds: Double?) {
        var fields: [(String, JSON)] = [
            ("vehicle", .string(vehicle.description)), ("code", .string(error.code.name)),
            ("retry_class", .string(error.retryClass.rawValue)), ("fields", .string(attempt.mask.description)),
            ("consecutive_failures", .number(Double(attempt.previousFailures + 1))),
        ]
        if ErrorText.isEmptyUpdateMask(error) { fields.append(("empty_update_mask", .bool(true))) }
        if let retryInSeconds { fields.append(("retry_in_s", .number((retryInSeconds * 10).rounded() / 10))) }
        log.log(.warning, "update-failed", ErrorText.explained(error), fields)
    }

    func reporterDidDropJump(_ sample: LocationSample, metersPerSecond: Double, meters: Double) {
        log.log(.warning, "location-dropped", "impossible jump of \(Int(meters)) m (\(Int(metersPerSecond * 3.6)) km/h)",
                [("lat", .number(sample.point.latitude)), ("lng", .number(sample.point.longitude))])
    }

    func reporterDidReadItinerary(_ destinations: [Destination], error: FleetError?) {
        if let error {
            let what = vehicle.hasState ? "waypoints" : "stops"
            log.log(.warning, "\(what)-unavailable", "could not read the vehicle's \(what): \(ErrorText.explained(error))")
        }
    }

    func reporterDidPlanLeg(_ leg: PlannedLeg) {
        plannedDrive.withLock { $0 }?.follow(leg.points)
        guard let end = leg.points.last else { return }
        if let error = leg.roadError {
            log.log(.warning, "leg-not-routed", "no road route to the next stop or waypoint; following the straight line: "
                        + ErrorText.explained(error), [("lat", .number(end.latitude)), ("lng", .number(end.longitude))])
        }
        log.log(.debug, "leg-planned", "\(leg.points.count) points to \(end.latitude),\(end.longitude)")
    }

    func reporterDidReportStop(_ event: StopEvent) {
        func fields(_ change: StopChange) -> [(String, JSON)] {
            var fields: [(String, JSON)] = [("vehicle", .string(vehicle.description)), ("tasks", .string(change.taskIDs.joined(separator: ",")))]
            if let point = change.stop.plannedLocation?.point {
                fields.append(("lat", .number(point.latitude)))
                fields.append(("lng", .number(point.longitude)))
            }
            return fields
        }
        switch event {
        case .changed(let change, let remaining):
            let message = switch change.transition {
            case .enroute: "set off towards the next stop: ENROUTE"
            case .arrived: "arrived at the stop: ARRIVED"
            case .completed: "the stop is served: removed from the vehicle's stops"
            }
            log.log(.notice, "stop-\(change.transition.rawValue)", message, fields(change) + [("remaining_stops", .number(Double(remaining.count)))])
        case .failed(let change, let error, let retry):
            var extra: [(String, JSON)] = [("code", .string(error.code.name)), ("transition", .string(change.transition.rawValue))]
            if let retry {
                extra.append(("retry_in_s", .number((retry * 10).rounded() / 10)))
                log.log(.warning, "stop-update-failed", ErrorText.explained(error), fields(change) + extra)
            } else {
                log.log(.error, "stop-updates-disabled",
                        "the token may not change stops (it needs a trusted driver's or the server's role; --stop-updates server leaves them to the provider): reporting the location only. \(ErrorText.explained(error))",
                        fields(change) + extra)
            }
        case .superseded(let change, let current):
            log.log(.info, "stops-changed", "the vehicle's stops changed on the server: nothing written, following its list",
                    fields(change) + [("transition", .string(change.transition.rawValue)), ("remaining_stops", .number(Double(current.count)))])
        }
    }

    func reporterStatisticsDidChange(_ statistics: ReporterStatistics) {
        writeStatus()
    }

    /// Rewrites the status file from the reporter's current counters (serialised: one writer at a time).
    func writeStatus() {
        guard let statusFile else { return }
        writeLock.withLock { _ in
            do {
                try statusFile.write(statistics().json(vehicle: vehicle, writtenAt: Timestamp(date: .now)))
            } catch let error as FleetError {
                log.log(.error, "status-file-failed", error.message)
            } catch {
                log.log(.error, "status-file-failed", "\(error)")
            }
        }
    }

    /// Logs every counter (SIGUSR1) and rewrites the status file.
    func logStatus() {
        let current = statistics()
        log.log(.notice, "status", current.summary, [("vehicle", .string(vehicle.description))])
        writeStatus()
    }

    /// Tells systemd the state in one line (`systemctl status`).
    func notifyStatus() {
        let current = statistics()
        var text = "\(current.state.rawValue): \(current.updatesSucceeded)/\(current.updatesSent) updates acknowledged"
        if let last = current.lastReportedLocation { text += ", last at \(last.latitude),\(last.longitude)" }
        if current.consecutiveFailures > 0, let code = current.lastErrorCode { text += ", \(current.consecutiveFailures) failing (\(code))" }
        notifier.status(text)
    }

    // MARK: Feed

    func receive(_ sample: LocationSample) {
        reporter.withLock { $0 }?.submit(sample)
    }

    func decoderStatistics(_ statistics: DecoderStatistics) {
        reporter.withLock { $0 }?.recordSourceStatistics(statistics)
    }

    func feedEvent(_ event: FeedEvent) {
        switch event {
        case .connected(let what):
            log.log(.notice, "source-connected", "connected to \(what)")
        case .disconnected(let why, let retry):
            log.log(.warning, "source-disconnected", why, [("retry_in_s", .number(retry))])
        case .badInput(let problem):
            // The first 10, then every 100th: a noisy serial line must not flood the journal.
            let count = badInputs.withLock { count in
                count += 1
                return count
            }
            if count <= 10 || count % 100 == 0 {
                log.log(.warning, "bad-input", problem, [("bad_so_far", .number(Double(count)))])
            }
        case .replaying(let samples, let seconds):
            log.log(.info, "source-replaying", "\(samples) locations over \(Int(seconds.rounded())) s")
        }
    }
}
