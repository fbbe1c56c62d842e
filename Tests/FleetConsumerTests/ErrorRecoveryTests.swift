import FleetConsumer
import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import MemoryStore
import Synchronization
import Testing

/// Errors as the Consumer SDK's guide sorts them: server and network errors are recovered from with
/// backoff and no event is lost or repeated; client errors are reported with the catalogue's cause
/// and remedy and retried at the refresh interval, or end following with `failFast`.
@Suite struct ErrorRecoveryTests {
    /// A scripted trip on an engine behind an `InstrumentedEngine`, with a test clock.
    struct Setup {
        let manual = ManualClock()
        let engine: Engine
        let server: InstrumentedEngine
        let script: ScriptedTrip
        let clock: TestClock

        init(advancesOnSleep: Bool = false) throws {
            engine = Engine(store: MemoryStore(), clock: manual)
            server = InstrumentedEngine(engine)
            script = ScriptedTrip(api: engine, clock: manual)
            clock = TestClock(manual, advancesOnSleep: advancesOnSleep)
            try script.create()
        }

        func follower(_ name: String = ScriptedTrip.tripName, watch: Bool = false,
                      configuration: FollowConfiguration = .init()) -> TripFollower {
            let source: any TripSnapshotSource = watch ? WatchSource(watcher: server)
                : PollingSource(api: server, intervalSeconds: 5)
            // Jitter takes off a quarter of each wait: 0.5 × 0.5.
            return TripFollower(tripName: name, source: source, configuration: configuration, clock: clock, random: { 0.5 })
        }
    }

    /// Where the outage starts: just before the step that makes the driver arrive at the pickup.
    static let outageStep = ScriptedTrip.steps.firstIndex { $0.name == "arrived at pickup" }!

    @Test func pollingRidesOutAnOutageWithoutLosingOrRepeatingAStatus() throws {
        let setup = try Setup()
        let stepsRun = Mutex(0)
        let restored = Mutex(false)
        setup.clock.onSleep { _ in
            // The outage lasts three failed polls; the wait after the third one ends it.
            let failed = setup.server.failedCalls
            if failed > 0 && failed < 3 { return }
            if failed == 3 && !restored.withLock({ $0 }) {
                setup.server.restore()
                restored.withLock { $0 = true }
                return
            }
            let index = stepsRun.withLock { index in
                defer { index += 1 }
                return index
            }
            if index == Self.outageStep { setup.server.takeDown() }
            do { try setup.script.runNextStep() } catch { Issue.record("step failed: \(error)") }
        }
        let recorder = EventRecorder()
        let outcome = setup.follower().follow { recorder.record($0) }

        #expect(outcome == .tripEnded(.complete))
        Self.expectThreeRecoveredFailures(recorder, waits: setup.clock.recordedWaits)
        // Without the errors, exactly the updates of an undisturbed run.
        let batches = recorder.allUpdates.map { $0.events.map(\.kind) }.filter { $0 != [.error] }
        #expect(batches == ScriptedTripTests.expectedBatches)
    }

    @Test func aBrokenWatchIsReopenedAndResumesWhereItLeftOff() throws {
        let setup = try Setup()
        // The third failed attempt moves the trip on while the server is down, then brings it back.
        setup.clock.onSleep { _ in
            guard setup.server.failedCalls >= 3 else { return }
            do { try setup.script.runNextStep() } catch { Issue.record("step failed: \(error)") }
            setup.server.restore()
        }
        let recorder = EventRecorder()
        let thread = FollowerThread(setup.follower(watch: true), recorder: recorder)
        #expect(recorder.wait { _ in recorder.allUpdates.count == 1 })
        for (index, step) in ScriptedTrip.steps.enumerated() {
            let before = recorder.allUpdates.count
            if index == Self.outageStep {
                setup.server.takeDown()
                #expect(recorder.wait { events in events.contains { $0.kind == .tripStatus && $0.json["value"] == "ARRIVED_AT_PICKUP" } },
                        "the status changed during the outage is reported after it")
                continue
            }
            try setup.script.runNextStep()
            #expect(recorder.wait { _ in recorder.allUpdates.count > before || thread.stop.isStopped }, "after \(step.name)")
        }
        #expect(thread.result() == .tripEnded(.complete))
        Self.expectThreeRecoveredFailures(recorder, waits: setup.clock.recordedWaits)
        let batches = recorder.allUpdates.map { $0.events.map(\.kind) }.filter { $0 != [.error] }
        #expect(batches == ScriptedTripTests.expectedBatches)
    }

    /// Three UNAVAILABLE error events, recovering, with waits of 1, 2 and 4 s less the jitter, then none.
    static func expectThreeRecoveredFailures(_ recorder: EventRecorder, waits: [Double],
                                             sourceLocation: SourceLocation = #_sourceLocation) {
        let failures = recorder.events.compactMap { event -> FollowFailure? in
            if case .failure(let failure) = event.value { return failure }
            return nil
        }
        #expect(failures.map(\.error.code) == [.unavailable, .unavailable, .unavailable], sourceLocation: sourceLocation)
        #expect(failures.allSatisfy { $0.isRecovering }, sourceLocation: sourceLocation)
        #expect(failures.map(\.attempt) == [1, 2, 3], sourceLocation: sourceLocation)
        #expect(failures.map(\.retryInSeconds) == [0.75, 1.5, 3.0], sourceLocation: sourceLocation)
        #expect(failures.first?.causeID == "SERVER_UNAVAILABLE", sourceLocation: sourceLocation)
        for wait in [0.75, 1.5, 3.0] {
            #expect(waits.contains(wait), "waits \(waits)", sourceLocation: sourceLocation)
        }
        // The status after the outage is reported once, the ones before it are not repeated.
        let statuses = recorder.events.filter { $0.kind == .tripStatus }.map { $0.json["value"]?.stringValue ?? "" }
        #expect(statuses == ["NEW", "ENROUTE_TO_PICKUP", "ARRIVED_AT_PICKUP", "ENROUTE_TO_DROPOFF", "COMPLETE"],
                sourceLocation: sourceLocation)
    }

    // MARK: Client errors

    @Test func anUnknownTripIsAClientErrorRetriedAtTheRefreshIntervalUntilItExists() throws {
        let setup = try Setup(advancesOnSleep: true)
        let name = "providers/\(ScriptedTrip.provider)/trips/later"
        setup.clock.onSleep { _ in
            guard setup.clock.recordedWaits.count == 3 else { return }
            _ = try? setup.engine.createTrip(CreateTripRequest(
                parent: "providers/\(ScriptedTrip.provider)", tripId: "later",
                trip: Trip(tripType: .exclusive, pickupPoint: TerminalLocation(point: ScriptedTrip.point(13.4)))))
        }
        let recorder = EventRecorder()
        let follower = setup.follower(name, configuration: FollowConfiguration(until: .new, refreshSeconds: 7))
        let outcome = follower.follow { recorder.record($0) }

        #expect(outcome == .untilReached(.new))
        let failures = recorder.events.compactMap { event -> FollowFailure? in
            if case .failure(let failure) = event.value { return failure }
            return nil
        }
        #expect(failures.count == 3)
        #expect(failures.allSatisfy { !$0.isRecovering && $0.error.code == .notFound && $0.retryInSeconds == 7 })
        #expect(failures.first?.causeID == "TRIP_NOT_FOUND")
        #expect(failures.first?.remedy == ErrorCause.tripNotFound.remedy)
        #expect(setup.clock.recordedWaits == [7, 7, 7])
        #expect(recorder.kinds.suffix(3) == [.trip, .tripStatus, .pickupLocation])
    }

    @Test(arguments: [
        ("providers/scripted/trips/nope", GRPCCode.notFound, "TRIP_NOT_FOUND", ExitCode(rawValue: 15)),
        ("providers/scripted/trip/ride-1", GRPCCode.invalidArgument, "BAD_TRIP_NAME", ExitCode(rawValue: 13)),
    ])
    func failFastEndsAtTheFirstClientErrorWithItsExitCode(name: String, code: GRPCCode, cause: String, exit: ExitCode) throws {
        let setup = try Setup()
        let recorder = EventRecorder()
        let outcome = setup.follower(name, configuration: FollowConfiguration(failFast: true)).follow { recorder.record($0) }

        guard case .failed(let error) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(error.code == code)
        #expect(outcome.exitCode == exit)
        #expect(setup.clock.recordedWaits.isEmpty)
        let events = recorder.events
        #expect(events.count == 1)
        let value = try #require(events.first?.json["value"])
        #expect(value["code"] == .string(code.name))
        #expect(value["number"] == .number(Double(code.rawValue)))
        #expect(value["causeId"] == .string(cause))
        #expect(value["remedy"] == .string(ErrorCatalogue.cause(id: cause)!.remedy))
        #expect(value["recovering"] == false)
        #expect(value["retryInSeconds"] == .null)
    }

    @Test func aTokenForAnotherTripIsAClientError() throws {
        let setup = try Setup(advancesOnSleep: true)
        let denied = FleetError(.jwtForOtherResource, detail: "JWT signed for another trip ('ride-2'), the call is for trip 'ride-1'")
        setup.server.failNext([denied, denied])
        let recorder = EventRecorder()
        let outcome = setup.follower(configuration: FollowConfiguration(until: .new)).follow { recorder.record($0) }

        #expect(outcome == .untilReached(.new))
        let failures = recorder.events.compactMap { event -> FollowFailure? in
            if case .failure(let failure) = event.value { return failure }
            return nil
        }
        #expect(failures.count == 2)
        #expect(failures.allSatisfy { $0.error.code == .permissionDenied && !$0.isRecovering })
        #expect(failures.first?.causeID == "JWT_FOR_OTHER_RESOURCE")
        #expect(failures.first?.remedy.contains("tripid") == true)
        #expect(setup.clock.recordedWaits == [5, 5])

        let failFast = try Setup()
        failFast.server.failNext([denied])
        let ended = failFast.follower(configuration: FollowConfiguration(failFast: true)).follow { _ in }
        #expect(ended.exitCode == ExitCode(rawValue: 17))
    }

    @Test func aRateLimitedCallIsRetriedNoSoonerThanTheServerAsked() throws {
        let setup = try Setup(advancesOnSleep: true)
        var limited = FleetError(.rateLimited, detail: "more than 1 requests a second")
        limited.retryAfter = .seconds(12)
        setup.server.failNext([limited])
        let recorder = EventRecorder()
        let outcome = setup.follower(configuration: FollowConfiguration(until: .new)).follow { recorder.record($0) }

        #expect(outcome == .untilReached(.new))
        // The refresh interval is 5 s; the server asked for 12.
        #expect(setup.clock.recordedWaits == [12])
        let failure = try #require(recorder.events.first.flatMap { event -> FollowFailure? in
            if case .failure(let failure) = event.value { return failure }
            return nil
        })
        #expect(failure.retryInSeconds == 12)
        #expect(failure.causeID == "RATE_LIMITED")
    }

    static let retryable: [GRPCCode] = [.aborted, .cancelled, .deadlineExceeded, .unavailable]
    static let client: [GRPCCode] = [.invalidArgument, .notFound, .permissionDenied, .resourceExhausted, .unauthenticated]

    @Test(arguments: retryable + client)
    func eachCodeIsClassifiedAsTheGuideSays(code: GRPCCode) throws {
        let setup = try Setup(advancesOnSleep: true)
        setup.server.failNext([FleetError(code: code, message: "injected \(code.name)")])
        let recorder = EventRecorder()
        // Even with failFast, server and network errors are recovered from.
        let configuration = FollowConfiguration(until: .new, failFast: Self.retryable.contains(code))
        let outcome = setup.follower(configuration: configuration).follow { recorder.record($0) }

        #expect(outcome == .untilReached(.new))
        let failure = try #require(recorder.events.first.flatMap { event -> FollowFailure? in
            if case .failure(let failure) = event.value { return failure }
            return nil
        })
        let isRetryable = Self.retryable.contains(code)
        #expect(failure.isRecovering == isRetryable)
        #expect(failure.retryInSeconds == (isRetryable ? 0.75 : 5))
        #expect(!failure.cause.isEmpty && !failure.remedy.isEmpty)
        #expect(recorder.kinds.dropFirst().first == .trip)
    }

    @Test func aSourceThatEndsByItselfIsReportedAsAbortedAndRestarted() throws {
        let source = EndingSource()
        let clock = TestClock()
        let recorder = EventRecorder()
        let follower = TripFollower(tripName: "providers/p/trips/t", source: source,
                                    configuration: FollowConfiguration(until: .enrouteToPickup), clock: clock, random: { 0 })
        let outcome = follower.follow { recorder.record($0) }
        #expect(outcome == .untilReached(.enrouteToPickup))
        #expect(recorder.kinds == [.trip, .tripStatus, .error, .trip, .tripStatus])
        // The server stopped sending, as the HTTP client reports a watch the server ended.
        #expect(recorder.events[2].json["value"]?["code"] == "ABORTED")
        #expect(recorder.events[2].json["value"]?["causeId"] == "STREAM_ABORTED")
        #expect(recorder.events[2].json["value"]?["recovering"] == true)
        #expect(clock.recordedWaits == [1])
    }

    @Test func filteredOutErrorsStillClearFromTheModel() throws {
        let setup = try Setup(advancesOnSleep: true)
        setup.server.failNext([InstrumentedEngine.outage])
        let recorder = EventRecorder()
        let configuration = FollowConfiguration(events: [.tripStatus], until: .new)
        let outcome = setup.follower(configuration: configuration).follow { recorder.record($0) }
        #expect(outcome == .untilReached(.new))
        #expect(recorder.kinds == [.tripStatus])
        #expect(recorder.allUpdates.map { $0.model.lastFailure != nil } == [true, false])
    }

    @Test func stoppingFromOutsideEndsAWaitAndReportsStopped() throws {
        let setup = try Setup(advancesOnSleep: true)
        setup.server.takeDown()
        let stop = StopSignal()
        setup.clock.onSleep { _ in if setup.clock.recordedWaits.count == 2 { stop.stop() } }
        let recorder = EventRecorder()
        let outcome = setup.follower().follow(stop: stop) { recorder.record($0) }
        #expect(outcome == .stopped)
        #expect(outcome.exitCode == .interrupted)
        #expect(recorder.kinds == [.error, .error])
    }
}

/// A source that delivers a NEW trip and ends by itself on its first run, and an ENROUTE_TO_PICKUP
/// trip on the next.
final class EndingSource: TripSnapshotSource {
    private let runs = Mutex(0)

    func snapshots(request: () -> GetTripRequest, clock: any FollowClock, stop: StopSignal, deliver: (Trip) -> Void) throws {
        let run = runs.withLock { count in
            defer { count += 1 }
            return count
        }
        deliver(Trip(name: "providers/p/trips/t", tripStatus: run == 0 ? .new : .enrouteToPickup))
    }
}
