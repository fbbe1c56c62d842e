import FleetErrors
import FleetLocation
import FleetInterface
import FleetModel
import Synchronization
import FleetRandom
import FleetBackoff
import FleetConcurrency

/// The Driver SDK's vehicle reporter for one vehicle: takes locations as they come, and at each interval
/// sends Fleet Engine what changed since the last acknowledged update.
///
/// - The first update sets the vehicle ONLINE (with the newest location, when there is one), so its
///   mask is never empty; it goes out as soon as a location arrives, or after one interval without.
/// - Locations are coalesced: only the newest one waiting is kept, the others are counted and dropped.
///   Locations implying an impossible speed are dropped and counted (`JumpFilter`).
/// - Each update carries only the fields that changed (`UpdatePlanner`); with nothing new, nothing is sent.
/// - A failed update never stops tracking. Retryable errors (the catalogue's retry class) back off with
///   jitter from the interval up to `policy.maximumBackoffSeconds`; client errors keep the interval;
///   UNAUTHENTICATED asks for a fresh token (`onUnauthenticated`) before the next try. The newest
///   location goes out next, not the one that failed.
/// - While navigating, the vehicle's waypoints are read from the engine (GetVehicle) before any route is
///   planned or sent, so the first route ends at the trip's next waypoint; until a read succeeds,
///   updates carry the location only. They are read again every `policy.waypointRefreshSeconds`.
/// - `stop(deadline:)` sends the final update that sets the vehicle OFFLINE, retried until acknowledged
///   or the deadline passes.
///
/// Nothing here sleeps: `tick()` does one step when due and `nextWakeTime` says when the next is due,
/// on the injected `TimeSource`. `ReporterLoop` runs it on a thread; tests call `tick()` themselves.
/// `submit` may be called from any thread; `tick`, `stop` and `sendState` from one thread at a time.
public final class VehicleReporter: Sendable {
    /// The vehicle reported.
    public let vehicle: VehicleName
    /// The settings.
    public let policy: ReporterPolicy
    /// Rung by `submit`, so a loop waiting for the next update wakes when a location arrives.
    public let wakeup = Doorbell()

    private let api: any FleetAPI
    private let time: any TimeSource
    private let listener: (any VehicleReporterListener)?
    private let onUnauthenticated: (@Sendable () -> Void)?
    private let inner: Mutex<Inner>

    private struct Pending: Sendable {
        var sample: LocationSample
        var receivedAt: Double

        var location: VehicleLocation { sample.vehicleLocation(receivedAt: Timestamp(timeIntervalSince1970: receivedAt)) }
    }

    private struct Inner: Sendable {
        var acknowledged = VehicleReport()
        var pending: Pending?
        var latest: Pending?
        var navigator: Navigator?
        var navigation: NavigationFields?
        var firstUpdateDeadline: Double
        var nextAttemptAt: Double
        var attemptedFirstUpdate = false
        var lastWaypointRefresh: Double?
        var waypointsStale = true
        /// Whether the engine's waypoints have been read once: no route is planned or sent before.
        var waypointsRead = false
        var jumpFilter: JumpFilter
        var random: SeededRandom
        var statistics = ReporterStatistics()
    }

    /// A reporter for `vehicle` over `api`, on `time`.
    ///
    /// - Parameters:
    ///   - navigator: follows a route or the vehicle's waypoints and adds the route fields; nil reports
    ///     locations only.
    ///   - listener: hears every update, failure and dropped location.
    ///   - onUnauthenticated: called after an UNAUTHENTICATED answer, to make the token source fetch a
    ///     fresh token for the next try.
    public init(api: any FleetAPI, vehicle: VehicleName, policy: ReporterPolicy = ReporterPolicy(),
                time: any TimeSource, navigator: Navigator? = nil, listener: (any VehicleReporterListener)? = nil,
                onUnauthenticated: (@Sendable () -> Void)? = nil) {
        self.api = api
        self.vehicle = vehicle
        self.policy = policy
        self.time = time
        self.listener = listener
        self.onUnauthenticated = onUnauthenticated
        let start = time.now()
        inner = Mutex(Inner(
            navigator: navigator, firstUpdateDeadline: start + policy.interval.seconds, nextAttemptAt: start,
            jumpFilter: JumpFilter(maximumMetersPerSecond: policy.maximumMetersPerSecond),
            random: policy.jitterSeed.map(SeededRandom.init(seed:)) ?? SeededRandom()))
    }

    // MARK: Locations

    /// Takes a new location: drops it when it is an impossible jump, else makes it the one to send next
    /// (replacing, and counting as coalesced, any location still waiting). Wakes a waiting loop.
    public func submit(_ sample: LocationSample) {
        let now = time.now()
        let (verdict, statistics) = inner.withLock { state -> (JumpFilter.Verdict, ReporterStatistics) in
            state.statistics.locationsReceived += 1
            let verdict = state.jumpFilter.check(sample, receivedAt: now)
            if case .dropped = verdict {
                state.statistics.droppedJumps += 1
            } else {
                if state.pending != nil { state.statistics.locationsCoalesced += 1 }
                state.pending = Pending(sample: sample, receivedAt: now)
                state.latest = state.pending
            }
            return (verdict, state.statistics)
        }
        if case .dropped(let speed, let meters) = verdict {
            listener?.reporterDidDropJump(sample, metersPerSecond: speed, meters: meters)
        }
        listener?.reporterStatisticsDidChange(statistics)
        wakeup.signal()
    }

    /// Records the location source's decoder counters (bad sentences…) for the status file.
    public func recordSourceStatistics(_ source: DecoderStatistics) {
        let statistics = inner.withLock { state in
            state.statistics.source = source
            return state.statistics
        }
        listener?.reporterStatisticsDidChange(statistics)
    }

    // MARK: Tracking

    /// The counters now.
    public var statistics: ReporterStatistics { inner.withLock { $0.statistics } }

    /// What the server has acknowledged so far.
    public var acknowledged: VehicleReport { inner.withLock { $0.acknowledged } }

    /// When `tick()` should next run, on the reporter's time; nil when it waits for a new location
    /// (`wakeup` rings when one arrives).
    public var nextWakeTime: Double? {
        inner.withLock { state in
            if !state.attemptedFirstUpdate {
                return state.pending != nil ? state.nextAttemptAt : state.firstUpdateDeadline
            }
            if state.pending != nil { return state.nextAttemptAt }
            if let refresh = waypointRefreshDue(state, now: time.now()) { return max(state.nextAttemptAt, refresh) }
            return nil
        }
    }

    /// Makes one step when due: reads the waypoints when that is due, then builds and sends the update
    /// of whatever changed since the last acknowledged one.
    @discardableResult
    public func tick() -> TickOutcome {
        let now = time.now()
        let due = inner.withLock { state in
            if now < state.nextAttemptAt { return false }
            if !state.attemptedFirstUpdate && state.pending == nil && now < state.firstUpdateDeadline { return false }
            return true
        }
        guard due else { return .notDue }
        refreshWaypointsIfDue(now: now)

        let planned = inner.withLock { state -> (UpdateVehicleRequest, VehicleReport, Pending?, UpdateAttempt)? in
            let current = state.pending ?? state.latest
            // Plan only once the engine's waypoints are known, so the first route sent ends at the
            // trip's next waypoint rather than at the end of --route.
            if let current, state.navigator != nil, state.waypointsRead {
                state.navigation = state.navigator?.fields(at: current.sample, now: now)
            }
            let desired = VehicleReport(state: .online, location: state.pending?.location, navigation: state.navigation)
            guard let request = UpdatePlanner.request(for: vehicle, desired: desired, acknowledged: state.acknowledged) else {
                state.pending = nil  // the same location the server already has
                return nil
            }
            state.attemptedFirstUpdate = true
            let inFlight = state.pending
            state.pending = nil
            state.statistics.updatesSent += 1
            let attempt = UpdateAttempt(mask: request.updateMask ?? FieldMask(), state: request.vehicle?.vehicleState,
                                        location: request.vehicle?.lastLocation, isFinal: false,
                                        previousFailures: state.statistics.consecutiveFailures)
            return (request, desired, inFlight, attempt)
        }
        guard let (request, desired, inFlight, attempt) = planned else { return .idle }

        do {
            _ = try call(request)
            let statistics = inner.withLock { state in
                state.acknowledged = desired.acknowledged(over: state.acknowledged)
                state.nextAttemptAt = now + policy.interval.seconds
                recordSuccess(&state, reporting: .reporting)
                return state.statistics
            }
            listener?.reporterDidSucceed(attempt)
            listener?.reporterStatisticsDidChange(statistics)
            return .succeeded
        } catch {
            let (delay, statistics) = inner.withLock { state -> (Double, ReporterStatistics) in
                restore(inFlight, into: &state)
                recordFailure(error, into: &state.statistics)
                if let field = error.field, field.hasPrefix("vehicle.currentRouteSegment") {
                    state.waypointsStale = true
                }
                var delay: Double
                if error.code == .unauthenticated {
                    delay = policy.interval.seconds
                } else if error.retryClass == .retryable {
                    delay = policy.trackingBackoff.delay(afterFailures: state.statistics.consecutiveFailures, using: &state.random)
                } else {
                    delay = policy.interval.seconds
                }
                // A server over its rate limit says how long to wait (Retry-After): never sooner.
                delay = max(delay, error.retryAfterSeconds ?? 0)
                state.nextAttemptAt = now + delay
                return (delay, state.statistics)
            }
            if error.code == .unauthenticated { onUnauthenticated?() }
            listener?.reporterDidFail(attempt, error: error, retryInSeconds: delay)
            listener?.reporterStatisticsDidChange(statistics)
            return .failed(error, retryInSeconds: delay)
        }
    }

    // MARK: Final updates

    /// Stops tracking: sends the update that sets the vehicle OFFLINE (with the newest location not yet
    /// sent), retried with backoff until acknowledged or `deadline` (reporter time) passes. Retryable
    /// errors are retried; UNAUTHENTICATED gets one token refresh and one more try; other client errors
    /// end the attempts at once. `abandon` (a second SIGTERM) ends the waiting early.
    public func stop(deadline: Double, abandon: Cancellation? = nil) -> FinalUpdateOutcome {
        sendState(.offline, deadline: deadline, abandon: abandon)
    }

    /// Sends one update that sets the vehicle's state (the one-shot `--state` mode and the final OFFLINE),
    /// retried as `stop(deadline:)` describes.
    public func sendState(_ vehicleState: VehicleState, deadline: Double, abandon: Cancellation? = nil) -> FinalUpdateOutcome {
        let statistics = inner.withLock { state in
            state.statistics.state = vehicleState == .offline ? .stopping : state.statistics.state
            return state.statistics
        }
        listener?.reporterStatisticsDidChange(statistics)
        var attempts = 0
        var lastError: FleetError?
        var refreshedToken = false
        let waiter = abandon?.wakeup ?? Doorbell()
        while time.now() < deadline, abandon?.isCancelled != true {
            attempts += 1
            let (request, desired, inFlight, attempt) = inner.withLock { state in
                let desired = VehicleReport(state: vehicleState, location: state.pending?.location, navigation: state.acknowledged.navigation)
                let request = UpdatePlanner.request(for: vehicle, desired: desired, acknowledged: state.acknowledged, forceState: true)!
                let inFlight = state.pending
                state.pending = nil
                state.statistics.updatesSent += 1
                let attempt = UpdateAttempt(mask: request.updateMask ?? FieldMask(), state: vehicleState,
                                            location: request.vehicle?.lastLocation, isFinal: true,
                                            previousFailures: state.statistics.consecutiveFailures)
                return (request, desired, inFlight, attempt)
            }
            do {
                _ = try call(request)
                let statistics = inner.withLock { state in
                    state.acknowledged = desired.acknowledged(over: state.acknowledged)
                    recordSuccess(&state, reporting: vehicleState == .offline ? .offline : .reporting)
                    return state.statistics
                }
                listener?.reporterDidSucceed(attempt)
                listener?.reporterStatisticsDidChange(statistics)
                return .acknowledged(attempts: attempts)
            } catch {
                lastError = error
                var delay: Double?
                let statistics = inner.withLock { state in
                    restore(inFlight, into: &state)
                    recordFailure(error, into: &state.statistics)
                    if error.code == .unauthenticated && !refreshedToken {
                        delay = 0
                    } else if let wait = error.retryAfterSeconds {
                        // Over the server's rate limit: the report was not applied; send it again once allowed.
                        delay = max(wait, policy.finalBackoff.delay(afterFailures: state.statistics.consecutiveFailures, using: &state.random))
                    } else if error.retryClass == .retryable {
                        delay = policy.finalBackoff.delay(afterFailures: state.statistics.consecutiveFailures, using: &state.random)
                    }
                    return state.statistics
                }
                if error.code == .unauthenticated && !refreshedToken {
                    refreshedToken = true
                    onUnauthenticated?()
                }
                listener?.reporterDidFail(attempt, error: error, retryInSeconds: delay)
                listener?.reporterStatisticsDidChange(statistics)
                guard let delay else { break }
                let next = min(deadline, time.now() + delay)
                while time.now() < next, abandon?.isCancelled != true {
                    _ = time.wait(until: next, wakeup: waiter)
                }
            }
        }
        let finalStatistics = inner.withLock { state in
            if vehicleState == .offline { state.statistics.state = .offlineNotAcknowledged }
            return state.statistics
        }
        listener?.reporterStatisticsDidChange(finalStatistics)
        return .notAcknowledged(attempts: attempts, lastError: lastError)
    }

    // MARK: Helpers

    /// Calls the API, turning anything that is not a `FleetError` into UNKNOWN.
    private func call(_ request: UpdateVehicleRequest) throws(FleetError) -> Vehicle {
        do {
            return try api.updateVehicle(request)
        } catch let error as FleetError {
            throw error
        } catch {
            throw FleetError(code: .unknown, message: "\(error)")
        }
    }

    /// When the waypoints should next be read: at once the first time, again each interval until a
    /// read succeeds, at once after an update the server refused for its waypoints, then every
    /// `policy.waypointRefreshSeconds` (0: never again). "At once" is `now`, the time the caller decides
    /// on: a running clock read again here would always be a little later than the caller's `now`.
    private func waypointRefreshDue(_ state: Inner, now: Double) -> Double? {
        guard state.navigator != nil else { return nil }
        guard let last = state.lastWaypointRefresh else { return now }
        if !state.waypointsRead { return last + policy.interval.seconds }
        if state.waypointsStale { return now }
        guard policy.waypointRefreshSeconds > 0 else { return nil }
        return last + policy.waypointRefreshSeconds
    }

    /// Reads the vehicle's waypoints for the navigator when a read is due.
    private func refreshWaypointsIfDue(now: Double) {
        let due = inner.withLock { state -> Bool in
            guard let when = waypointRefreshDue(state, now: now), now >= when else { return false }
            state.lastWaypointRefresh = now
            state.waypointsStale = false
            return true
        }
        guard due else { return }
        do {
            let vehicle = try api.getVehicle(GetVehicleRequest(name: self.vehicle.description))
            inner.withLock { state in
                state.navigator?.setWaypoints(vehicle.waypoints)
                state.waypointsRead = true
            }
            listener?.reporterDidRefreshWaypoints(vehicle.waypoints, error: nil)
        } catch {
            let fleetError = error as? FleetError ?? FleetError(code: .unknown, message: "\(error)")
            listener?.reporterDidRefreshWaypoints([], error: fleetError)
        }
    }

    /// Puts back the location of a failed update, unless a newer one arrived meanwhile.
    private func restore(_ inFlight: Pending?, into state: inout Inner) {
        guard let inFlight else { return }
        if state.pending == nil {
            state.pending = inFlight
        } else {
            state.statistics.locationsCoalesced += 1
        }
    }

    /// Counts an acknowledged update; `state.acknowledged` must already hold what it set.
    private func recordSuccess(_ state: inout Inner, reporting newState: ReporterState) {
        state.statistics.updatesSucceeded += 1
        state.statistics.consecutiveFailures = 0
        state.statistics.state = newState
        state.statistics.lastSuccessTime = Timestamp(timeIntervalSince1970: time.now())
        state.statistics.lastReportedLocation = state.acknowledged.location?.location
        state.statistics.vehicleState = state.acknowledged.state
    }

    private func recordFailure(_ error: FleetError, into statistics: inout ReporterStatistics) {
        statistics.updatesFailed += 1
        statistics.consecutiveFailures += 1
        statistics.failuresByCode[error.code.name, default: 0] += 1
        if ErrorText.isEmptyUpdateMask(error) { statistics.emptyMaskFailures += 1 }
        statistics.lastError = ErrorText.explained(error)
        statistics.lastErrorCode = error.code.name
    }
}
