@testable import FleetEngine
import FleetErrors
import FleetModel
import FleetStore
import Foundation
import SQLiteStore
import Synchronization
import Testing

/// Deliveries over SQLite: the records survive the store, and two engines sharing one file (two
/// processes) never assign one task to two vehicles.
@Suite struct DeliverySQLiteTests {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("deliveries-\(UUID().uuidString).db").path

    func removeFiles() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test func aShipmentFromCreationToOutcomeOverSQLite() throws {
        defer { removeFiles() }
        let f = Fixture(store: try SQLiteStore(path: path))
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        let batch = try f.engine.batchCreateTasks(BatchCreateTasksRequest(parent: f.parent, requests: [
            CreateTaskRequest(taskId: "pickup", task: Fixture.newTask(.pickup, tracking: "PARCEL-1")),
            CreateTaskRequest(taskId: "delivery", task: Fixture.newTask(.delivery, tracking: "PARCEL-1", at: (48.12, 11.54))),
            CreateTaskRequest(taskId: "lunch", task: Fixture.newTask(.unavailable, tracking: nil, at: nil, seconds: 1800)),
        ]))
        #expect(batch.tasks.count == 3)
        try f.setStops("dv1", [Fixture.stop((48.11, 11.52), ["pickup"], .enroute), Fixture.stop((48.12, 11.54), ["delivery", "lunch"])])
        #expect(try f.tracking("PARCEL-1").remainingStopCount == 1)
        try f.moveDeliveryVehicle("dv1", to: 48.105, 11.51)

        // Another engine on the same file sees everything the first wrote.
        let other = Engine(store: try SQLiteStore(path: path), clock: f.clock)
        let vehicle = try other.getDeliveryVehicle(GetDeliveryVehicleRequest(name: f.deliveryVehicleName("dv1")))
        #expect(vehicle.remainingVehicleJourneySegments.count == 2)
        #expect(vehicle.remainingVehicleJourneySegments[1].stop?.tasks.map(\.taskDuration) == [ProtoDuration(seconds: 120), ProtoDuration(seconds: 1800)])
        #expect(vehicle.lastLocation?.location?.latitude == 48.105)
        let delivery = try other.getTask(GetTaskRequest(name: f.taskName("delivery")))
        #expect(delivery.journeySharingInfo?.remainingVehicleJourneySegments.count == 2)

        try f.setStops("dv1", [Fixture.stop((48.12, 11.54), ["delivery", "lunch"], .arrived)])
        try f.updateTask("pickup", DeliveryTask(taskOutcome: .succeeded), ["taskOutcome"])
        try f.setStops("dv1", [])
        try f.updateTask("delivery", DeliveryTask(taskOutcome: .succeeded), ["taskOutcome"])
        let info = try other.getTaskTrackingInfo(GetTaskTrackingInfoRequest(name: f.trackingName("PARCEL-1")))
        #expect(info.state == .closed)
        #expect(info.taskOutcome == .succeeded)
        #expect(info.plannedLocation?.point == Fixture.point(48.12, 11.54))
        let listed = try other.listTasks(ListTasksRequest(parent: f.parent, filter: "state = CLOSED"))
        #expect(listed.tasks.compactMap(\.name) == ["delivery", "lunch", "pickup"].map(f.taskName))
        try other.deleteDeliveryVehicle(DeleteDeliveryVehicleRequest(name: f.deliveryVehicleName("dv1")))
        try other.deleteTask(DeleteTaskRequest(name: f.taskName("pickup")))
        try other.deleteTask(DeleteTaskRequest(name: f.taskName("delivery")))
        expectFleetError(.notFound) { _ = try f.tracking("PARCEL-1") }
    }

    @Test func twoEnginesAssigningOneTaskAtOnceGiveItToOneVehicle() throws {
        defer { removeFiles() }
        for round in 0..<5 {
            let a = Fixture(store: try SQLiteStore(path: path))
            let b = Engine(store: try SQLiteStore(path: path), clock: a.clock)
            let task = "t\(round)"
            try a.createDeliveryVehicle("van\(round)")
            try a.createDeliveryVehicle("bike\(round)")
            try a.createTask(task)
            let outcomes = Mutex<[String: Result<DeliveryVehicle, any Error>]>([:])
            let done = DispatchSemaphore(value: 0)
            for (engine, vehicle) in [(a.engine, "van\(round)"), (b, "bike\(round)")] {
                engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
                    deliveryVehicle: DeliveryVehicle(name: a.deliveryVehicleName(vehicle), remainingVehicleJourneySegments: [Fixture.stop((48.11, 11.52), [task])]),
                    updateMask: FieldMask(["remainingVehicleJourneySegments"]))) { result in
                    outcomes.withLock { $0[vehicle] = result }
                    done.signal()
                }
            }
            done.wait()
            done.wait()
            let results = outcomes.withLock { $0 }
            let winners = results.filter { if case .success = $0.value { true } else { false } }.map(\.key)
            #expect(winners.count == 1, "\(results)")
            for (_, result) in results {
                if case .failure(let error) = result {
                    #expect((error as? FleetError)?.cause == ErrorCause.taskOnAnotherVehicle.id, "\(error)")
                }
            }
            #expect(try a.task(task).deliveryVehicleId == winners.first)
        }
    }

    @Test func commitsSignalTheKeysAWatchOfATaskOrTrackingIDWouldFollow() throws {
        let f = Fixture()
        let task = ChangeNotifierTests.KeyObserver()
        let shipment = ChangeNotifierTests.KeyObserver()
        let vehicle = ChangeNotifierTests.KeyObserver()
        f.engine.changes.observe(RecordKey(.task, provider: f.provider, id: "t1"), by: task)
        f.engine.changes.observe(RecordKey(.shipment, provider: f.provider, id: "PARCEL-1"), by: shipment)
        f.engine.changes.observe(RecordKey(.deliveryVehicle, provider: f.provider, id: "dv1"), by: vehicle)
        try f.createDeliveryVehicle("dv1")
        try f.createTask("t1")
        #expect(task.changes == 1)
        #expect(shipment.changes == 1)
        try f.setStops("dv1", [Fixture.stop((48.11, 11.52), ["t1"])])
        #expect(task.changes == 2, "assigned in the vehicle's commit")
        #expect(vehicle.changes == 2)
        try f.moveDeliveryVehicle("dv1", to: 48.105, 11.51)
        #expect(vehicle.changes == 3)
        #expect(task.changes == 2)
    }
}
