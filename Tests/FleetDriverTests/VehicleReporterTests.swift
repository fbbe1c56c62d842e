import FleetDriver
import FleetErrors
import FleetGeo
import FleetLocation
import FleetModel
import Synchronization
import Testing
import FleetBackoff

@Suite("VehicleReporter: updates, masks, coalescing, failures")
struct VehicleReporterTests {
    struct Rig {
        let server = FaultyEngine()
        let time = ManualTimeSource(start: 1_800_000_000)
        let listener = RecordingListener()
        let refreshes = Counter()
        let vehicle: VehicleName
        let reporter: VehicleReporter

        init(policy: ReporterPolicy = ReporterPolicy(jitterSeed: 7), navigator: Navigator? = nil) throws {
            vehicle = try server.createVehicle()
            let refreshes = self.refreshes
            reporter = VehicleReporter(api: server, vehicle: .vehicle(vehicle), policy: policy, time: time, navigator: navigator,
                                       listener: listener, onUnauthenticated: { refreshes.increment() })
        }

        /// A sample at `meters` east of the Dam, stamped now.
        func submit(_ meters: Double) {
            reporter.submit(Places.sample(Places.east(meters), at: time.now()))
        }

        var refreshCount: Int { refreshes.value }
    }

    @Test("The first update sets the vehicle ONLINE with its location, so its mask is never empty")
    func firstUpdate() throws {
        let rig = try Rig()
        rig.submit(0)
        #expect(rig.reporter.tick() == .succeeded)
        #expect(rig.server.masks == ["vehicleState,lastLocation"])
        let vehicle = try rig.server.vehicle(rig.vehicle)
        #expect(vehicle.vehicleState == .online)
        #expect(vehicle.lastLocation?.location?.latitude == Places.dam.latitude)
        #expect(rig.reporter.statistics.state == .reporting)
        #expect(rig.listener.successes.first?.mask.description == "vehicleState,lastLocation")
    }

    @Test("Without any location the first update waits one interval, then sets ONLINE alone")
    func firstUpdateWithoutLocation() throws {
        let rig = try Rig()
        let start = rig.time.now()
        #expect(rig.reporter.tick() == .notDue)
        #expect(rig.reporter.nextWakeTime == start + 10)
        rig.time.advance(by: 10)
        #expect(rig.reporter.tick() == .succeeded)
        #expect(rig.server.masks == ["vehicleState"])
    }

    @Test("Updates go out once per interval and carry only what changed")
    func intervalAndMask() throws {
        let rig = try Rig()
        let start = rig.time.now()
        rig.submit(0)
        rig.reporter.tick()
        rig.time.advance(by: 3)
        rig.submit(30)
        #expect(rig.reporter.tick() == .notDue)
        #expect(rig.reporter.nextWakeTime == start + 10)
        rig.time.advance(by: 7)
        #expect(rig.reporter.tick() == .succeeded)
        #expect(rig.server.masks == ["vehicleState,lastLocation", "lastLocation"])
        rig.time.advance(by: 10)
        #expect(rig.reporter.tick() == .idle, "nothing new: nothing sent")
        #expect(rig.reporter.nextWakeTime == nil, "waits for the next location")
        #expect(rig.server.requests.count == 2)
        #expect(rig.server.masks.allSatisfy { !$0.isEmpty })
    }

    @Test("Locations are coalesced: only the newest waiting one is sent")
    func coalesces() throws {
        let rig = try Rig()
        for meters in stride(from: 0.0, through: 40, by: 10) { rig.submit(meters) }
        #expect(rig.reporter.tick() == .succeeded)
        #expect(rig.server.requests.count == 1)
        let sent = try #require(rig.server.requests.first?.vehicle?.lastLocation?.location)
        #expect(Geodesy.distance(GeoPoint(latitude: sent.latitude, longitude: sent.longitude), Places.east(40)) < 0.01)
        #expect(rig.reporter.statistics.locationsReceived == 5)
        #expect(rig.reporter.statistics.locationsCoalesced == 4)
    }

    @Test("While the server is down the reporter backs off with jitter, and the newest location wins when it returns")
    func backsOffAndRecovers() throws {
        let rig = try Rig(policy: ReporterPolicy(maximumBackoffSeconds: 60, jitterSeed: 42))
        rig.submit(0)
        rig.reporter.tick()
        rig.server.failAll(with: FleetError(.serverUnavailable))
        var meters = 10.0
        var waits: [Double] = []
        for failure in 1...5 {
            rig.submit(meters)
            meters += 10
            let wake = try #require(rig.reporter.nextWakeTime)
            rig.time.set(wake)
            guard case .failed(let error, let retry) = rig.reporter.tick() else {
                Issue.record("expected a failure")
                return
            }
            #expect(error.code == .unavailable)
            let ceiling = Backoff(initialSeconds: 10, maximumSeconds: 60).ceiling(afterFailures: failure)
            #expect(retry >= 10 && retry <= ceiling, "wait \(retry) after \(failure) failures, ceiling \(ceiling)")
            waits.append(retry)
        }
        #expect(Set(waits).count > 1, "jittered waits differ")
        rig.server.failAll(with: nil)
        rig.submit(meters)
        rig.time.set(try #require(rig.reporter.nextWakeTime))
        #expect(rig.reporter.tick() == .succeeded)
        let last = try #require(try rig.server.vehicle(rig.vehicle).lastLocation?.location)
        #expect(Geodesy.distance(GeoPoint(latitude: last.latitude, longitude: last.longitude), Places.east(meters)) < 0.01)
        let statistics = rig.reporter.statistics
        #expect(statistics.failuresByCode == ["UNAVAILABLE": 5])
        #expect(statistics.consecutiveFailures == 0)
        #expect(statistics.locationsCoalesced == 5, "each location waiting during the outage was replaced by a newer one")
        #expect(statistics.lastError?.contains("UNAVAILABLE") == true)
        #expect(rig.listener.failures.count == 5)
    }

    @Test("A client error keeps the interval and the explained error; tracking goes on")
    func clientError() throws {
        let rig = try Rig()
        rig.server.failNext(FleetError(.insufficientRole))
        rig.submit(0)
        guard case .failed(let error, let retry) = rig.reporter.tick() else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .permissionDenied)
        #expect(retry == 10)
        rig.time.advance(by: 10)
        #expect(rig.reporter.tick() == .succeeded)
        #expect(rig.reporter.statistics.lastError?.contains("Remedy") == true)
    }

    @Test("UNAUTHENTICATED asks for a fresh token once before the next try")
    func unauthenticated() throws {
        let rig = try Rig()
        rig.server.failNext(FleetError(.jwtExpired))
        rig.submit(0)
        #expect(rig.reporter.tick() != .succeeded)
        #expect(rig.refreshCount == 1)
        rig.time.advance(by: 10)
        #expect(rig.reporter.tick() == .succeeded)
        #expect(rig.refreshCount == 1)
    }

    @Test("An 'update_mask cannot be empty' answer is counted apart from other failures")
    func emptyMaskCounted() throws {
        let rig = try Rig()
        rig.server.failNext(FleetError(.emptyUpdateMask), FleetError(.serverUnavailable))
        rig.submit(0)
        rig.reporter.tick()
        rig.time.set(try #require(rig.reporter.nextWakeTime))
        rig.reporter.tick()
        let statistics = rig.reporter.statistics
        #expect(statistics.emptyMaskFailures == 1)
        #expect(statistics.updatesFailed == 2)
        #expect(statistics.failuresByCode == ["INVALID_ARGUMENT": 1, "UNAVAILABLE": 1])
    }

    @Test("A location implying an impossible jump is dropped and counted")
    func dropsJumps() throws {
        let rig = try Rig()
        rig.submit(0)
        rig.reporter.tick()
        rig.time.advance(by: 1)
        rig.submit(50_000)
        #expect(rig.reporter.statistics.droppedJumps == 1)
        #expect(rig.listener.drops == 1)
        rig.time.advance(by: 10)
        #expect(rig.reporter.tick() == .idle)
    }

    @Test("Stopping sends one final update: OFFLINE with the newest location")
    func stopSetsOffline() throws {
        let rig = try Rig()
        rig.submit(0)
        rig.reporter.tick()
        rig.time.advance(by: 2)
        rig.submit(20)
        let outcome = rig.reporter.stop(deadline: rig.time.now() + 30)
        #expect(outcome == .acknowledged(attempts: 1))
        #expect(rig.server.masks.last == "vehicleState,lastLocation")
        let vehicle = try rig.server.vehicle(rig.vehicle)
        #expect(vehicle.vehicleState == .offline)
        let point = try #require(vehicle.lastLocation?.location)
        #expect(Geodesy.distance(GeoPoint(latitude: point.latitude, longitude: point.longitude), Places.east(20)) < 0.01)
        #expect(rig.reporter.statistics.state == .offline)
    }

    @Test("A rate-limited update waits at least the server's Retry-After, and so does the final OFFLINE")
    func rateLimited() throws {
        var limited = FleetError(.rateLimited, detail: "more than 1 requests a second")
        limited.retryAfter = .seconds(25)
        let rig = try Rig()
        rig.server.failNext(limited)
        rig.submit(0)
        guard case .failed(let error, let retry) = rig.reporter.tick() else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .resourceExhausted)
        #expect(retry == 25, "the interval is 10 s; the server asked for 25")

        let stopping = try Rig()
        stopping.submit(0)
        stopping.reporter.tick()
        stopping.server.failNext(limited)
        let start = stopping.time.now()
        #expect(stopping.reporter.stop(deadline: start + 60) == .acknowledged(attempts: 2))
        #expect(stopping.time.now() - start >= 25)
    }

    @Test("The final OFFLINE is retried until acknowledged")
    func stopRetries() throws {
        let rig = try Rig()
        rig.submit(0)
        rig.reporter.tick()
        rig.server.failNext(FleetError(.serverUnavailable), FleetError(.storeBusy))
        #expect(rig.reporter.stop(deadline: rig.time.now() + 30) == .acknowledged(attempts: 3))
        #expect(try rig.server.vehicle(rig.vehicle).vehicleState == .offline)
    }

    @Test("With the server down the final OFFLINE gives up at the deadline")
    func stopDeadline() throws {
        let rig = try Rig()
        rig.submit(0)
        rig.reporter.tick()
        rig.server.failAll(with: FleetError(.serverUnavailable))
        let deadline = rig.time.now() + 30
        guard case .notAcknowledged(let attempts, let error) = rig.reporter.stop(deadline: deadline) else {
            Issue.record("expected no acknowledgement")
            return
        }
        #expect(attempts >= 4)
        #expect(error?.code == .unavailable)
        #expect(rig.time.now() >= deadline)
        #expect(rig.reporter.statistics.state == .offlineNotAcknowledged)
        #expect(try rig.server.vehicle(rig.vehicle).vehicleState == .online)
    }

    @Test("A client error ends the final attempts at once; UNAUTHENTICATED gets one refresh first")
    func stopClientErrors() throws {
        let rig = try Rig()
        rig.server.failNext(FleetError(.vehicleNotFound))
        guard case .notAcknowledged(let attempts, _) = rig.reporter.stop(deadline: rig.time.now() + 30) else {
            Issue.record("expected no acknowledgement")
            return
        }
        #expect(attempts == 1)

        let again = try Rig()
        again.server.failNext(FleetError(.jwtExpired))
        #expect(again.reporter.stop(deadline: again.time.now() + 30) == .acknowledged(attempts: 2))
        #expect(again.refreshCount == 1)
    }

    @Test("A one-shot state change sends vehicleState alone")
    func oneShot() throws {
        let rig = try Rig()
        #expect(rig.reporter.sendState(.online, deadline: rig.time.now() + 30) == .acknowledged(attempts: 1))
        #expect(rig.server.masks == ["vehicleState"])
        #expect(try rig.server.vehicle(rig.vehicle).vehicleState == .online)
    }

    @Test("The loop ticks on the reporter's clock until the duration ends, without sleeping")
    func loopRunsForDuration() throws {
        let rig = try Rig()
        let start = rig.time.now()
        rig.submit(0)
        let loop = ReporterLoop(reporter: rig.reporter, time: rig.time)
        #expect(loop.run(until: start + 35) == .durationElapsed)
        #expect(rig.time.now() == start + 35)
        #expect(rig.server.masks == ["vehicleState,lastLocation"])
        loop.requestStop(reason: "test")
        #expect(loop.run() == .requested("test"))
    }
}

/// A thread-safe count.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
