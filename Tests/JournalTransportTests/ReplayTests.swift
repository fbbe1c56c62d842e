import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import Foundation
import JournalTransport
import MemoryStore
import Synchronization
import Testing

/// Reading a journal back, replaying it into another API, and the determinism of record times.
@Suite("Journal replay and determinism")
struct ReplayTests {
    /// Records a small session: vehicles, a trip through its states, moves with the clock advancing.
    func recordSession(_ fixture: JournalFixture, on api: JournalTransport) throws {
        _ = try api.createVehicle(fixture.createVehicleRequest("v1", at: (52.50, 13.40)))
        _ = try api.createVehicle(fixture.createVehicleRequest("v2", at: nil))
        fixture.clock.advance(seconds: 5)
        _ = try api.createTrip(fixture.createTripRequest("t1", vehicle: "v1"))
        _ = try api.updateTrip(fixture.statusRequest("t1", .enrouteToPickup))
        for step in 1...4 {
            fixture.clock.advance(seconds: 10)
            _ = try api.updateVehicle(fixture.moveRequest("v1", to: 52.50 + Double(step) * 0.005, 13.40 + Double(step) * 0.002))
        }
        _ = try api.updateVehicleAttributes(fixture.attributeRequest("v2", key: "colour", value: "red"))
        _ = try api.createTrip(fixture.createTripRequest("t2"))
        try api.deleteTrip(DeleteTripRequest(name: fixture.tripName("t2")))
        try api.deleteVehicle(DeleteVehicleRequest(name: fixture.vehicleName("v2")))
        try api.reportBillableTrip(ReportBillableTripRequest(name: "providers/\(fixture.provider)/billableTrips/t1", countryCode: "DE"))
    }

    @Test func aRecordRoundTripsThroughItsLine() throws {
        let fixture = try JournalFixture()
        let record = JournalRecord(sequence: 7, at: Timestamp(seconds: 1_767_225_600, nanos: 250_000_000),
                                   call: .updateVehicle(fixture.moveRequest("v1", to: 52.5, 13.4)))
        let line = record.line
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(!line.dropLast().contains(UInt8(ascii: "\n")))
        let text = String(decoding: line.dropLast(), as: UTF8.self)
        #expect(text.hasPrefix(#"{"v":1,"seq":7,"at":"2026-01-01T00:00:00.250Z","method":"UpdateVehicle","request":{"name":"providers/journal-test/vehicles/v1""#))
        #expect(try JournalRecord(line: line.dropLast(), lineNumber: 7, source: "test") == record)
    }

    @Test func everyMethodRoundTrips() throws {
        let fixture = try JournalFixture()
        let calls: [FleetCall] = [
            .createVehicle(fixture.createVehicleRequest("v")),
            .updateVehicle(fixture.moveRequest("v", to: 1, 2)),
            .updateVehicleAttributes(fixture.attributeRequest("v", key: "k", value: "x\ny")),
            .deleteVehicle(DeleteVehicleRequest(name: fixture.vehicleName("v"))),
            .createTrip(fixture.createTripRequest("t")),
            .updateTrip(fixture.statusRequest("t", .complete)),
            .deleteTrip(DeleteTripRequest(name: fixture.tripName("t"))),
            .reportBillableTrip(ReportBillableTripRequest(name: "providers/p/billableTrips/t", countryCode: "DE")),
            .createDeliveryVehicle(CreateDeliveryVehicleRequest(
                parent: "providers/p", deliveryVehicleId: "van", deliveryVehicle: DeliveryVehicle(
                    lastLocation: DeliveryVehicleLocation(location: LatLng(latitude: 52.5, longitude: 13.4))))),
            .deleteDeliveryVehicle(DeleteDeliveryVehicleRequest(name: "providers/p/deliveryVehicles/van")),
            .updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
                deliveryVehicle: DeliveryVehicle(name: "providers/p/deliveryVehicles/van", remainingVehicleJourneySegments: [
                    VehicleJourneySegment(stop: VehicleStop(
                        plannedLocation: LocationInfo(point: LatLng(latitude: 52.51, longitude: 13.41)),
                        tasks: [VehicleStop.TaskInfo(taskId: "drop-1")], state: .enroute)),
                ]), updateMask: ["remainingVehicleJourneySegments"])),
            .batchCreateTasks(BatchCreateTasksRequest(parent: "providers/p", requests: [
                CreateTaskRequest(parent: "providers/p", taskId: "drop-1", task: DeliveryTask(
                    type: .delivery, state: .open, trackingId: "parcel \"1\"",
                    plannedLocation: LocationInfo(point: LatLng(latitude: 52.51, longitude: 13.41)),
                    taskDuration: ProtoDuration(seconds: 120))),
            ])),
            .createTask(CreateTaskRequest(parent: "providers/p", taskId: "drop-2", task: DeliveryTask(
                type: .pickup, state: .open, trackingId: "parcel-2",
                plannedLocation: LocationInfo(point: LatLng(latitude: 52.52, longitude: 13.42)), taskDuration: ProtoDuration(seconds: 60)))),
            .deleteTask(DeleteTaskRequest(name: "providers/p/tasks/drop-2")),
            .updateTask(UpdateTaskRequest(task: DeliveryTask(name: "providers/p/tasks/drop-1", taskOutcome: .failed),
                                          updateMask: ["taskOutcome"])),
        ]
        #expect(calls.map(\.method.rawValue) == JournalRecord.methods)
        for (index, call) in calls.enumerated() {
            let record = JournalRecord(sequence: index + 1, at: fixture.clock.now(), call: call)
            #expect(try JournalRecord(line: record.line.dropLast(), lineNumber: index + 1, source: "test") == record)
        }
    }

    @Test func theJournalHoldsEachCallWithItsTime() throws {
        let fixture = try JournalFixture()
        let api = try fixture.open()
        let start = fixture.clock.now()
        try recordSession(fixture, on: api)
        let records = try JournalReader(path: fixture.path).records()
        #expect(records.map(\.call.method.rawValue) == [
            "CreateVehicle", "CreateVehicle", "CreateTrip", "UpdateTrip",
            "UpdateVehicle", "UpdateVehicle", "UpdateVehicle", "UpdateVehicle",
            "UpdateVehicleAttributes", "CreateTrip", "DeleteTrip", "DeleteVehicle", "ReportBillableTrip",
        ])
        #expect(records.first?.at == start)
        #expect(records[4].at == start.adding(seconds: 15))
        #expect(records.last?.at == start.adding(seconds: 45))
    }

    @Test func replayingIntoAFreshEngineReproducesTheState() throws {
        let fixture = try JournalFixture()
        let api = try fixture.open()
        try recordSession(fixture, on: api)

        // The replaying engine's own clock is far from the session's; the records' times pin it.
        let replayClock = RecordTimeClock(base: fixture.clock)
        let engine = Engine(store: MemoryStore(), clock: replayClock)
        let summary = try JournalTransport.replay(fixture.path, into: engine, clock: replayClock)
        #expect(summary.records == 13)
        #expect(summary.lastSequence == 13)
        #expect(summary.incompleteTailBytes == 0)

        #expect(try engine.listVehicles(fixture.listVehicles()) == api.listVehicles(fixture.listVehicles()))
        #expect(try engine.getTrip(fixture.getTrip("t1")) == api.getTrip(fixture.getTrip("t1")))
        expectFleetError(.notFound) { _ = try engine.getTrip(fixture.getTrip("t2")) }
    }

    @Test func replayingWithoutTheRecordTimesUsesTheTargetsClock() throws {
        let fixture = try JournalFixture()
        let api = try fixture.open()
        try recordSession(fixture, on: api)
        let laterClock = ManualClock(fixture.clock.now().adding(seconds: 3600))
        let engine = Engine(store: MemoryStore(), clock: laterClock)
        for record in try JournalReader(path: fixture.path).records() {
            try JournalTransport.apply(record, to: engine)
        }
        let replayed = try engine.getVehicle(GetVehicleRequest(name: fixture.vehicleName("v1")))
        let original = try api.getVehicle(GetVehicleRequest(name: fixture.vehicleName("v1")))
        #expect(replayed.lastLocation?.location == original.lastLocation?.location)
        #expect(replayed.lastLocation?.serverTime == laterClock.now())
        #expect(original.lastLocation?.serverTime != laterClock.now())
    }

    @Test func aReplayErrorNamesTheLineAndKeepsTheCode() throws {
        let fixture = try JournalFixture()
        let api = try fixture.open()
        try recordSession(fixture, on: api)
        // Replaying twice into one engine: the first create already exists.
        let engine = Engine(store: MemoryStore(), clock: fixture.clock)
        try JournalTransport.replay(fixture.path, into: engine)
        let error = expectFleetError(.alreadyExists, containing: "line 1 (CreateVehicle)") {
            try JournalTransport.replay(fixture.path, into: engine)
        }
        #expect(error?.cause == ErrorCause.alreadyExists.id)
    }

    @Test func twoTransportsReadTheSameETAsAtTheSameClock() throws {
        let fixture = try JournalFixture()
        let a = try fixture.open()
        try recordSession(fixture, on: a)
        // B opens long after the calls were made: it must apply them at their recorded times.
        fixture.clock.advance(seconds: 120)
        let b = try fixture.open()
        let onA = try a.getTrip(fixture.getTrip("t1"))
        let onB = try b.getTrip(fixture.getTrip("t1"))
        #expect(onA == onB)
        #expect(onA.etaToFirstWaypoint != nil)
        #expect(onA.remainingDistanceMeters != nil)
        #expect(onA.etaToFirstWaypoint == onB.etaToFirstWaypoint)
        #expect(onA.remainingTimeToFirstWaypoint == onB.remainingTimeToFirstWaypoint)
        let vehicleOnB = try b.getVehicle(GetVehicleRequest(name: fixture.vehicleName("v1")))
        let lastMove = try #require(try JournalReader(path: fixture.path).records().last { $0.call.method == .updateVehicle })
        #expect(vehicleOnB.lastLocation?.serverTime == lastMove.at)
    }

    @Test func recordTimesNeverGoBackwardsWhenTheClockDoes() throws {
        let fixture = try JournalFixture()
        let api = try fixture.open()
        _ = try api.createVehicle(fixture.createVehicleRequest("v1"))
        let first = fixture.clock.now()
        fixture.clock.set(first.adding(seconds: -60))
        _ = try api.updateVehicle(fixture.moveRequest("v1", to: 52.6, 13.5))
        let records = try JournalReader(path: fixture.path).records()
        #expect(records.map(\.at) == [first, first])
    }

    @Test func thePinnedTimeHoldsOnlyOnThePinningThread() throws {
        let base = ManualClock()
        let clock = RecordTimeClock(base: base)
        let pinned = base.now().adding(seconds: -500)
        let seenElsewhere = clock.pinned(to: pinned) { () -> Timestamp in
            #expect(clock.now() == pinned)
            // A thread of its own (DispatchQueue.sync may run the block on this very thread).
            let seen = Mutex<Timestamp?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                seen.withLock { $0 = clock.now() }
                done.signal()
            }
            done.wait()
            return seen.withLock { $0 }!
        }
        #expect(seenElsewhere == base.now())
        #expect(clock.now() == base.now())
    }
}
