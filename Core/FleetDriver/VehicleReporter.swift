import FleetErrors
import FleetGeo
import FleetLocation
import FleetInterface
import FleetModel
import Synchronization
import FleetRandom
import FleetBackoff
import FleetConcurrency

/// The Driver SDK's vehicle reporter for one vehicle (a rides vehicle, or a delivery vehicle as the
/// `DeliveryDriverApi` reports it): takes locations as they come, and at each interval sends Fleet
/// Engine what changed since the last acknowledged update.
///
/// - A rides vehicle's first update sets it ONLINE (with the newest location, when there is one), so its
///   mask is never empty; it goes out as soon as a location arrives, or after one interval without.
///   A delivery vehicle has no state: its first update is its first location.
/// - Locations are coalesced: only the newest one waiting is kept, the others are counted and dropped.
///   Locations implying an impossible speed are dropped and counted (`JumpFilter`).
/// - Each update carries only the fields that changed (`UpdatePlanner`); with nothing new, nothing is sent.
/// - A failed update never stops tracking. Retryable errors (the catalogue's retry class) back off with
///   jitter from the interval up to `policy.maximumBackoffSeconds`; client errors keep the interval;
///   UNAUTHENTICATED asks for a fresh token (`onUnauthenticated`) before the next try. The newest
///   location goes out next, not the one that failed.
/// - While navigating, the vehicle's waypoints (GetVehicle) or stops (GetDeliveryVehicle) are read from
///   the engine before any route is planned or sent, so the first route ends at the next one; until a
///   read succeeds, updates carry the location only. They are read again every
///   `policy.waypointRefreshSeconds`.
/// - With a `StopPolicy`, a delivery vehicle's next stop is marked ENROUTE, ARRIVED and served
///   (removed) as the vehicle sets off, arrives and dwells (`StopProgress`), each change decided at the
///   newest location and written in an update of its own on a fresh read of the list.
/// - `stop(deadline:)` sends the final update (OFFLINE for a rides vehicle, the newest location not yet
///   sent for a delivery vehicle), retried until acknowledged or the deadline passes.
///
/// Nothing here sleeps: `tick()` does one step when due and `nextWakeTime` says when the next is due,
/// on the injected `TimeSource`. `ReporterLoop` runs it on a thread; tests call `tick()` themselves.
/// `submit` may be called from any thread; `tick`, `stop` and `sendState` from one thread at a time.
public final class VehicleReporter: Sendable {
    /// The vehicle reported.
    public let vehicle: ReportedVehicle
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
        /// The leg last told to the listener.
        var publishedLeg: PlannedLeg?
        var firstUpdateDeadline: Double
        var nextAttemptAt: Double
        var attemptedFirstUpdate = false
        var lastItineraryRead: Double?
        var itineraryStale = true
        /// Whether the engine's waypoints or stops have been read once: no route is planned or sent before.
        var itineraryRead = false
        /// A delivery vehicle's stops, when the reporter reports their progress.
        var stops: StopProgress?
        /// Whether a stop decision is due (a new location, a new list, the driver's "completed").
        var stopCheckDue = false
        /// No stop change is tried before this time (after a failed one).
        var stopRetryAt = 0.0
        var stopFailures = 0
        var jumpFilter: JumpFilter
        var random: SeededRandom
        var statistics = ReporterStatistics()
    }

    /// A reporter for `vehicle` over `api`, on `time`.
    ///
    /// - Parameters:
    ///   - navigator: follows a route or the vehicle's waypoints or stops and adds the route fields; nil
    ///     reports locations only.
    ///   - stopPolicy: for a delivery vehicle, reports its stops' progress (ENROUTE, ARRIVED, served);
    ///     nil leaves the stops to the provider.
    ///   - listener: hears every update, failure and dropped location.
    ///   - onUnauthenticated: called after an UNAUTHENTICATED answer, to make the token source fetch a
    ///     fresh token for the next try.
    public init(api: any FleetAPI, vehicle: ReportedVehicle, policy: ReporterPolicy = ReporterPolicy(),
                time: any TimeSource, navigator: Navigator? = nil, stopPolicy: StopPolicy? = nil,
                listener: (any VehicleReporterListener)? = nil, onUnauthenticated: (@Sendable () -> Void)? = nil) {
        self.api = api
        self.vehicle = vehicle
        self.policy = policy
        self.time = time
        self.listener = listener
        self.onUnauthenticated = onUnauthenticated
        let start = time.now()
        var initial = Inner(
            navigator: navigator, firstUpdateDeadline: start + policy.interval.seconds, nextAttemptAt: start,
            jumpFilter: JumpFilter(maximumMetersPerSecond: policy.maximumMetersPerSecond),
            random: policy.jitterSeed.map(SeededRandom.init(seed:)) ?? SeededRandom())
        if case .deliveryVehicle = vehicle, let stopPolicy { initial.stops = StopProgress(policy: stopPolicy) }
        inner = Mutex(initial)
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
                state.stopCheckDue = state.stops != nil
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

    /// The next stop of a delivery vehicle whose stops the reporter reports, as last read or written.
    public var nextStop: VehicleStop? { inner.withLock { $0.stops?.nextStop } }

    /// When `tick()` should next run, on the reporter's time; nil when it waits for a new location
    /// (`wakeup` rings when one arrives).
    public var nextWakeTime: Double? {
        inner.withLock { state in
            let now = time.now()
            let update: Double?
            if !state.attemptedFirstUpdate {
                update = state.pending != nil ? state.nextAttemptAt : state.firstUpdateDeadline
            } else if state.pending != nil {
                update = state.nextAttemptAt
            } else {
                update = itineraryReadDue(state, now: now).map { max(state.nextAttemptAt, $0) }
            }
            return [update, stopDecisionDue(state, now: now)].compactMap { $0 }.min()
        }
    }

    /// Makes one step: reads the waypoints or stops when that is due; decides (and writes) a delivery
    /// vehicle's next stop change at the newest location; then, when an update is due, builds and sends
    /// the update of whatever changed since the last acknowledged one.
    @discardableResult
    public func tick() -> TickOutcome {
        let now = time.now()
        let due = inner.withLock { state in
            if now < state.nextAttemptAt { return false }
            if !state.attemptedFirstUpdate && state.pending == nil && now < state.firstUpdateDeadline { return false }
            return true
        }
        if due { readItineraryIfDue(now: now) }
        reportStopIfDue(now: now)
        guard due else { return .notDue }

        let planned = inner.withLock { state -> (ReportUpdate, Pending?, UpdateAttempt, PlannedLeg?)? in
            var leg: PlannedLeg?
            if let current = state.pending ?? state.latest { leg = navigate(&state, at: current.sample, now: now) }
            let desired = VehicleReport(state: vehicle.hasState ? .online : nil, location: state.pending?.location,
                                        navigation: state.navigation)
            state.attemptedFirstUpdate = true
            guard let update = vehicle.update(desired: desired, acknowledged: state.acknowledged) else {
                state.pending = nil  // the same location the server already has
                return nil
            }
            let inFlight = state.pending
            state.pending = nil
            state.statistics.updatesSent += 1
            let attempt = update.attempt(isFinal: false, previousFailures: state.statistics.consecutiveFailures)
            return (update, inFlight, attempt, leg)
        }
        guard let (update, inFlight, attempt, leg) = planned else { return .idle }
        if let leg { listener?.reporterDidPlanLeg(leg) }

        do {
            try call(update)
            let statistics = inner.withLock { state in
                state.acknowledged = update.desired.acknowledged(over: state.acknowledged)
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
                if let field = error.field,
                   field.hasPrefix("vehicle.currentRouteSegment") || field.hasPrefix("deliveryVehicle.currentRouteSegment") {
                    state.itineraryStale = true
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

    /// Stops tracking: sends the final update — a rides vehicle OFFLINE, with the newest location not yet
    /// sent; a delivery vehicle (which has no state) that location alone, or nothing when every location
    /// was sent — retried with backoff until acknowledged or `deadline` (reporter time) passes. Retryable
    /// errors are retried; UNAUTHENTICATED gets one token refresh and one more try; other client errors
    /// end the attempts at once. `abandon` (a second SIGTERM) ends the waiting early.
    public func stop(deadline: Double, abandon: Cancellation? = nil) -> FinalUpdateOutcome {
        sendFinal(vehicle.hasState ? .offline : nil, deadline: deadline, abandon: abandon)
    }

    /// Sends one update that sets a rides vehicle's state (the one-shot `--state` mode), retried as
    /// `stop(deadline:)` describes.
    public func sendState(_ vehicleState: VehicleState, deadline: Double, abandon: Cancellation? = nil) -> FinalUpdateOutcome {
        sendFinal(vehicleState, deadline: deadline, abandon: abandon)
    }

    /// Sends `vehicleState` (nil: none, a delivery vehicle's stop) with the newest location not yet sent.
    private func sendFinal(_ vehicleState: VehicleState?, deadline: Double, abandon: Cancellation?) -> FinalUpdateOutcome {
        let stopping = vehicleState != .online
        let statistics = inner.withLock { state in
            if stopping { state.statistics.state = .stopping }
            return state.statistics
        }
        listener?.reporterStatisticsDidChange(statistics)
        var attempts = 0
        var lastError: FleetError?
        var refreshedToken = false
        let waiter = abandon?.wakeup ?? Doorbell()
        while time.now() < deadline, abandon?.isCancelled != true {
            let planned = inner.withLock { state -> (ReportUpdate, Pending?, UpdateAttempt)? in
                let desired = VehicleReport(state: vehicleState, location: state.pending?.location, navigation: state.acknowledged.navigation)
                guard let update = vehicle.update(desired: desired, acknowledged: state.acknowledged, forceState: true) else {
                    return nil
                }
                let inFlight = state.pending
                state.pending = nil
                state.statistics.updatesSent += 1
                return (update, inFlight, update.attempt(isFinal: true, previousFailures: state.statistics.consecutiveFailures))
            }
            guard let (update, inFlight, attempt) = planned else {
                // A delivery vehicle whose every location was sent: the server has all there is.
                let statistics = inner.withLock { state in
                    state.statistics.state = .stopped
                    return state.statistics
                }
                listener?.reporterStatisticsDidChange(statistics)
                return .acknowledged(attempts: attempts)
            }
            attempts += 1
            do {
                try call(update)
                let statistics = inner.withLock { state in
                    state.acknowledged = update.desired.acknowledged(over: state.acknowledged)
                    recordSuccess(&state, reporting: vehicleState == .offline ? .offline : vehicleState == nil ? .stopped : .reporting)
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
            if vehicleState == nil { state.statistics.state = .stoppedNotAcknowledged }
            return state.statistics
        }
        listener?.reporterStatisticsDidChange(finalStatistics)
        return .notAcknowledged(attempts: attempts, lastError: lastError)
    }

    // MARK: Helpers

    /// Runs an API call, turning anything that is not a `FleetError` into UNKNOWN.
    private func call<Result>(_ body: () throws -> Result) throws(FleetError) -> Result {
        do {
            return try body()
        } catch let error as FleetError {
            throw error
        } catch {
            throw FleetError(code: .unknown, message: "\(error)")
        }
    }

    /// Sends an update.
    private func call(_ update: ReportUpdate) throws(FleetError) {
        try call { try update.send(to: api) }
    }

    /// When the waypoints or stops should next be read: at once the first time, again each interval
    /// until a read succeeds, at once after an update the server refused for its route, then every
    /// `policy.waypointRefreshSeconds` (0: never again). "At once" is `now`, the time the caller decides
    /// on: a running clock read again here would always be a little later than the caller's `now`.
    private func itineraryReadDue(_ state: Inner, now: Double) -> Double? {
        guard state.navigator != nil || state.stops != nil else { return nil }
        guard let last = state.lastItineraryRead else { return now }
        if !state.itineraryRead { return last + policy.interval.seconds }
        if state.itineraryStale { return now }
        guard policy.waypointRefreshSeconds > 0 else { return nil }
        return last + policy.waypointRefreshSeconds
    }

    /// Reads the vehicle's waypoints or stops for the navigator (and the stop progress) when a read is due.
    private func readItineraryIfDue(now: Double) {
        let due = inner.withLock { state -> Bool in
            guard let when = itineraryReadDue(state, now: now), now >= when else { return false }
            state.lastItineraryRead = now
            state.itineraryStale = false
            return true
        }
        guard due else { return }
        do {
            let itinerary = try call { try vehicle.readItinerary(from: api) }
            let statistics = inner.withLock { state in
                if let stops = itinerary.stops {
                    install(stops, into: &state, now: now)
                } else {
                    state.navigator?.setDestinations(itinerary.destinations)
                }
                state.itineraryRead = true
                return state.statistics
            }
            listener?.reporterDidReadItinerary(itinerary.destinations, error: nil)
            if itinerary.stops != nil { listener?.reporterStatisticsDidChange(statistics) }
        } catch {
            listener?.reporterDidReadItinerary([], error: error)
        }
    }

    /// Plans the navigation at `sample` (once the itinerary is known, so the first route sent ends at
    /// the next waypoint or stop rather than at the end of --route); returns the leg when it is new.
    private func navigate(_ state: inout Inner, at sample: LocationSample, now: Double) -> PlannedLeg? {
        guard state.navigator != nil, state.itineraryRead else { return nil }
        state.navigation = state.navigator?.fields(at: sample, now: now)
        guard let leg = state.navigator?.plannedLeg, leg != state.publishedLeg else { return nil }
        state.publishedLeg = leg
        return leg
    }

    // MARK: Stops

    /// The driver's "stop completed" (SIGUSR2), as the Driver SDK's `reportCompletedStop`: the next stop,
    /// when ARRIVED, is served at the next tick — removed from the vehicle's list — without waiting for
    /// the rest of its dwell. Returns false, changing nothing, when the next stop is not ARRIVED or the
    /// reporter does not report stops.
    @discardableResult
    public func completeStop() -> Bool {
        let accepted = inner.withLock { state -> Bool in
            guard state.stops?.requestCompletion() == true else { return false }
            state.stopCheckDue = true
            return true
        }
        if accepted { wakeup.signal() }
        return accepted
    }

    /// When the next stop decision is due: at once after a new location or list (not before a failed
    /// change's retry time), at the end of a dwell; nil when nothing can change by itself.
    private func stopDecisionDue(_ state: Inner, now: Double) -> Double? {
        guard let stops = state.stops, state.itineraryRead, state.latest != nil else { return nil }
        if state.stopCheckDue { return max(now, state.stopRetryAt) }
        return stops.dwellEnd.map { max($0, state.stopRetryAt) }
    }

    /// Decides the next stop change at the newest location and, when there is one, writes it: the list
    /// is read afresh and the change applied to it (`StopProgress.applying`), so stops the provider
    /// added, removed or reordered meanwhile are kept; a change that no longer applies is dropped and the
    /// fresh list installed instead.
    private func reportStopIfDue(now: Double) {
        let decided = inner.withLock { state -> StopChange? in
            guard var progress = state.stops, state.itineraryRead, let latest = state.latest, now >= state.stopRetryAt else { return nil }
            state.stopCheckDue = false
            let change = progress.nextChange(at: latest.sample.point, now: now)
            state.stops = progress
            return change
        }
        guard let change = decided else { return }
        do {
            let fresh = try call { try vehicle.readStops(from: api) }
            guard let written = StopProgress.applying(change, to: fresh) else {
                let (leg, statistics) = inner.withLock { state in
                    install(fresh, into: &state, now: now)
                    return (state.latest.flatMap { navigate(&state, at: $0.sample, now: now) }, state.statistics)
                }
                listener?.reporterDidReportStop(.superseded(change, current: fresh))
                listener?.reporterStatisticsDidChange(statistics)
                if let leg { listener?.reporterDidPlanLeg(leg) }
                return
            }
            let answered = try call { try vehicle.writeStops(written, to: api) }
            let (leg, statistics) = inner.withLock { state in
                state.stopFailures = 0
                switch change.transition {
                case .enroute: state.statistics.stopsEnroute += 1
                case .arrived: state.statistics.stopsArrived += 1
                case .completed: state.statistics.stopsCompleted += 1
                }
                install(answered, into: &state, now: now)
                return (state.latest.flatMap { navigate(&state, at: $0.sample, now: now) }, state.statistics)
            }
            listener?.reporterDidReportStop(.changed(change, remaining: answered))
            listener?.reporterStatisticsDidChange(statistics)
            if let leg { listener?.reporterDidPlanLeg(leg) }
        } catch {
            stopChangeFailed(change, error: error, now: now)
        }
    }

    /// After a failed read or write of the stops: retryable errors back off from the interval, client
    /// errors wait one interval (the list is read again before the next try), UNAUTHENTICATED asks for a
    /// fresh token; PERMISSION_DENIED (a token that may not change stops, such as an untrusted driver's)
    /// ends the stop reporting, while the location reporting goes on.
    private func stopChangeFailed(_ change: StopChange, error: FleetError, now: Double) {
        let (delay, statistics) = inner.withLock { state -> (Double?, ReporterStatistics) in
            state.stopFailures += 1
            state.statistics.stopUpdatesFailed += 1
            state.statistics.lastError = ErrorText.explained(error)
            state.statistics.lastErrorCode = error.code.name
            guard error.code != .permissionDenied else {
                state.stops = nil
                return (nil, state.statistics)
            }
            var delay = policy.interval.seconds
            if error.retryClass == .retryable, error.code != .unauthenticated {
                delay = policy.trackingBackoff.delay(afterFailures: state.stopFailures, using: &state.random)
            }
            delay = max(delay, error.retryAfterSeconds ?? 0)
            state.stopRetryAt = now + delay
            state.stopCheckDue = true
            return (delay, state.statistics)
        }
        if error.code == .unauthenticated { onUnauthenticated?() }
        listener?.reporterDidReportStop(.failed(change, error: error, retryInSeconds: delay))
        listener?.reporterStatisticsDidChange(statistics)
    }

    /// Installs a delivery vehicle's stops as read or written: in the stop progress, as the navigator's
    /// destinations, and in the counters.
    private func install(_ stops: [VehicleJourneySegment], into state: inout Inner, now: Double) {
        state.stops?.install(stops, now: now)
        state.stopCheckDue = state.stops != nil
        state.navigator?.setDestinations(stops.compactMap(Destination.init(stop:)))
        state.statistics.remainingStops = stops.count
        state.statistics.nextStopState = stops.first?.stop?.state?.name
        state.statistics.nextStopTasks = stops.first?.stop?.tasks.compactMap(\.taskId) ?? []
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
