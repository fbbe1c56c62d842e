import FleetDriver
import FleetErrors
import FleetGeo
import FleetLocation
import FleetModel
import Testing

@Suite("VehicleReporter for a delivery vehicle: location apart, stops changed on a fresh list, over the real engine")
struct DeliveryReporterTests {
    /// Three stops 1 km apart going east from the Dam.
    static let places = [Places.east(1000), Places.east(2000), Places.east(3000)]

    struct Rig {
        let server = FaultyEngine()
        let time = ManualTimeSource(start: 1_800_000_000)
        let listener = RecordingListener()
        let vehicle: DeliveryVehicleName
        let reporter: VehicleReporter

        init(dwell: DwellRule = .fixed(seconds: 30), policy: ReporterPolicy = ReporterPolicy(jitterSeed: 3)) throws {
            let server = self.server
            vehicle = try server.createDeliveryVehicle(at: Places.dam)
            var stops: [VehicleJourneySegment] = []
            for (index, place) in DeliveryReporterTests.places.enumerated() {
                stops.append(try server.createTask("task-\(index + 1)", at: place))
            }
            try server.setStops(vehicle, stops)
            reporter = VehicleReporter(api: server, vehicle: .deliveryVehicle(vehicle), policy: policy, time: time,
                                       navigator: Navigator(route: nil, category: .auto), stopPolicy: StopPolicy(dwell: dwell),
                                       listener: listener)
        }

        /// A sample `meters` east of the Dam, now, then a tick.
        @discardableResult
        func drive(to meters: Double, after seconds: Double = 1) -> TickOutcome {
            time.advance(by: seconds)
            reporter.submit(Places.sample(Places.east(meters), at: time.now()))
            return reporter.tick()
        }

        /// The engine's stops as `task state` strings.
        func stops() throws -> [String] {
            try server.deliveryVehicle(vehicle).remainingVehicleJourneySegments.map {
                "\($0.stop?.tasks.first?.taskId ?? "") \($0.stop?.state?.name ?? "")"
            }
        }

        /// The stop writes: requests whose mask names the stops.
        var stopWrites: [UpdateDeliveryVehicleRequest] {
            server.deliveryRequests.filter { $0.updateMask?.paths.contains("remainingVehicleJourneySegments") == true }
        }
    }

    @Test("The next stop goes ENROUTE, ARRIVED and, after the dwell, is removed (its task closed); the location updates never carry the stops")
    func stopLifecycle() throws {
        let rig = try Rig()
        rig.drive(to: 0, after: 0)
        #expect(try rig.stops() == ["task-1 NEW", "task-2 NEW", "task-3 NEW"], "standing at the depot")
        rig.drive(to: 100, after: 10)
        #expect(try rig.stops() == ["task-1 ENROUTE", "task-2 NEW", "task-3 NEW"])
        rig.drive(to: 500, after: 30)
        rig.drive(to: 960, after: 30)
        #expect(try rig.stops() == ["task-1 ARRIVED", "task-2 NEW", "task-3 NEW"], "within 50 m")
        rig.drive(to: 1000, after: 10)
        #expect(try rig.stops().first == "task-1 ARRIVED", "the dwell is not over")
        rig.time.advance(by: 20)
        #expect(rig.reporter.nextWakeTime.map { $0 <= rig.time.now() } == true, "the end of the dwell is a reason to wake")
        rig.reporter.tick()
        #expect(try rig.stops() == ["task-2 NEW", "task-3 NEW"], "served: removed from the list")
        #expect(try rig.server.task("task-1").state == .closed)
        #expect(rig.reporter.nextStop?.tasks.first?.taskId == "task-2")

        #expect(rig.stopWrites.count == 3)
        #expect(rig.stopWrites.allSatisfy { $0.updateMask?.paths == ["remainingVehicleJourneySegments"] }, "stop changes go alone")
        let locationUpdates = rig.server.deliveryRequests.filter { $0.updateMask?.paths.contains("lastLocation") == true }
        #expect(!locationUpdates.isEmpty)
        #expect(locationUpdates.allSatisfy { $0.deliveryVehicle?.remainingVehicleJourneySegments.isEmpty == true })
        let transitions = rig.listener.stopEvents.compactMap { event -> String? in
            if case .changed(let change, _) = event { return "\(change.transition.rawValue) \(change.taskIDs.joined())" }
            return nil
        }
        #expect(transitions == ["enroute task-1", "arrived task-1", "completed task-1"])
        let statistics = rig.reporter.statistics
        #expect(statistics.remainingStops == 2)
        #expect(statistics.stopsCompleted == 1)
        #expect(statistics.nextStopState == "NEW")
    }

    @Test("A stop the provider put in front meanwhile is kept: the reporter's change no longer applies, nothing is written, the new list is followed")
    func providerChangedTheList() throws {
        // Stops read once only: the change is decided on the list as the reporter last knew it.
        let rig = try Rig(policy: ReporterPolicy(waypointRefreshSeconds: 0, jitterSeed: 3))
        rig.drive(to: 0, after: 0)
        rig.drive(to: 100, after: 10)
        #expect(try rig.stops().first == "task-1 ENROUTE")
        // The provider sends the vehicle to an urgent stop first (task-1 back to NEW behind it).
        let urgent = try rig.server.createTask("urgent", at: Places.east(1500))
        var stops = try rig.server.deliveryVehicle(rig.vehicle).remainingVehicleJourneySegments
        stops[0].stop?.state = .new
        try rig.server.setStops(rig.vehicle, [urgent] + stops.map { segment in
            VehicleJourneySegment(stop: VehicleStop(plannedLocation: segment.stop?.plannedLocation,
                                                    tasks: segment.stop?.tasks.map { VehicleStop.TaskInfo(taskId: $0.taskId) } ?? [],
                                                    state: segment.stop?.state))
        })
        let writesBefore = rig.stopWrites.count

        rig.drive(to: 980, after: 60)  // at task-1's place, which is no longer the next stop
        #expect(try rig.stops() == ["urgent NEW", "task-1 NEW", "task-2 NEW", "task-3 NEW"], "the provider's list stands")
        #expect(rig.stopWrites.count == writesBefore, "nothing written over it")
        guard case .superseded(let change, let current)? = rig.listener.stopEvents.last else {
            Issue.record("expected a superseded change, got \(rig.listener.stopEvents)")
            return
        }
        #expect(change.transition == .arrived)
        #expect(current.count == 4)
        #expect(rig.reporter.nextStop?.tasks.first?.taskId == "urgent", "the reporter follows the server's list")

        // Driving on to the urgent stop marks it, not task-1.
        rig.drive(to: 1480, after: 40)
        #expect(try rig.stops().first == "urgent ARRIVED")
    }

    @Test("PERMISSION_DENIED on a stop change ends the stop reporting; the location reporting goes on")
    func permissionDeniedEndsStopReporting() throws {
        let rig = try Rig()
        rig.drive(to: 0, after: 0)
        rig.server.failNextDeliveryUpdate(FleetError(.insufficientRole, detail: "a driver may not update remainingVehicleJourneySegments"))
        rig.drive(to: 100, after: 10)
        guard case .failed(_, let error, let retry)? = rig.listener.stopEvents.last else {
            Issue.record("expected a failed change, got \(rig.listener.stopEvents)")
            return
        }
        #expect(error.code == .permissionDenied)
        #expect(retry == nil, "not retried")
        #expect(rig.reporter.nextStop == nil, "no stop reporting any more")
        #expect(rig.reporter.statistics.stopUpdatesFailed == 1)
        let writes = rig.stopWrites.count
        #expect(rig.drive(to: 960, after: 30) == .succeeded, "the location still goes out")
        #expect(rig.stopWrites.count == writes)
        #expect(try rig.stops().first == "task-1 NEW")
        let location = try #require(try rig.server.deliveryVehicle(rig.vehicle).lastLocation?.location)
        #expect(Geodesy.distance(GeoPoint(latitude: location.latitude, longitude: location.longitude), Places.east(960)) < 1)
    }

    @Test("A retryable failure of a stop change is decided again after a backoff, on a fresh list")
    func retryableStopFailure() throws {
        let rig = try Rig()
        rig.drive(to: 0, after: 0)
        rig.server.failNextDeliveryUpdate(FleetError(.serverUnavailable))
        rig.drive(to: 100, after: 10)
        guard case .failed(_, _, let retry?)? = rig.listener.stopEvents.last else {
            Issue.record("expected a retried failure, got \(rig.listener.stopEvents)")
            return
        }
        #expect(retry > 1)
        rig.drive(to: 110, after: 1)
        #expect(try rig.stops().first == "task-1 NEW", "not before the backoff")
        rig.drive(to: 200, after: retry)
        #expect(try rig.stops().first == "task-1 ENROUTE")
    }

    @Test("Stopping a delivery vehicle sends the newest location unsent, no state; nothing when the server has it")
    func finalUpdate() throws {
        let rig = try Rig()
        rig.drive(to: 0, after: 0)
        rig.time.advance(by: 1)
        rig.reporter.submit(Places.sample(Places.east(50), at: rig.time.now()))
        let outcome = rig.reporter.stop(deadline: rig.time.now() + 30)
        #expect(outcome == .acknowledged(attempts: 1))
        #expect(rig.server.deliveryRequests.last?.updateMask?.paths == ["lastLocation"])
        #expect(rig.reporter.statistics.state == .stopped)
        let again = rig.reporter.stop(deadline: rig.time.now() + 30)
        #expect(again == .acknowledged(attempts: 0), "nothing left to send")
    }
}
