import FleetConcurrency
@testable import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import Foundation
import Synchronization
import Testing

/// Watches of a task (`observeTask`, the server's `tasks/{t}:watch`) and of a shipment by its
/// tracking ID (`observeTaskTrackingInfo`, `taskTrackingInfo/{id}:watch`).
@Suite struct TaskWatchTests {
    typealias TaskDeliveries = WatchDeliveries<DeliveryTask>
    typealias TrackingDeliveries = WatchDeliveries<TaskTrackingInfo>

    /// A delivery vehicle at the depot with task t1 (tracking ID PARCEL-1) at its only stop.
    func assignedTask() throws -> Fixture {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        try f.createTask("t1")
        try f.setStops("dv1", [Fixture.stop((48.11, 11.52), ["t1"])])
        return f
    }

    func observeTask(_ f: Fixture, _ id: String, _ w: TaskDeliveries, header: DeliveryRequestHeader? = nil) throws -> TaskObservation {
        try f.engine.observeTask(GetTaskRequest(header: header, name: f.taskName(id)), onUpdate: w.onUpdate, onEnd: w.onEnd)
    }

    func observeTracking(_ f: Fixture, _ id: String, _ w: TrackingDeliveries) throws -> TaskTrackingInfoObservation {
        try f.engine.observeTaskTrackingInfo(GetTaskTrackingInfoRequest(name: f.trackingName(id)), onUpdate: w.onUpdate, onEnd: w.onEnd)
    }

    /// Sets the vehicle's attributes: a commit of the vehicle that changes nothing a task or a tracking
    /// ID shows.
    func relabel(_ f: Fixture, _ vehicle: String, _ value: String) throws {
        _ = try f.engine.updateDeliveryVehicle(UpdateDeliveryVehicleRequest(
            deliveryVehicle: DeliveryVehicle(name: f.deliveryVehicleName(vehicle),
                                             attributes: [DeliveryVehicleAttribute(key: "shift", value: value)]),
            updateMask: FieldMask(["attributes"])))
    }

    @Test func aTaskWatchGetsTheTaskThenItsAssignmentAndItsVehicleMoving() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        try f.createTask("t1")
        let w = TaskDeliveries()
        let observation = try observeTask(f, "t1", w)
        #expect(w.wait { $0.snapshots.count == 1 })
        #expect(w.messages[0] == (try f.task("t1")))
        #expect(w.messages[0].journeySharingInfo == nil)
        try f.setStops("dv1", [Fixture.stop((48.11, 11.52), ["t1"])])
        #expect(w.wait { $0.snapshots.count == 2 })
        #expect(w.messages[1].deliveryVehicleId == "dv1")
        #expect(w.messages[1] == (try f.task("t1")), "as GetTask answers it")
        try f.moveDeliveryVehicle("dv1", to: 48.105, 11.51)
        #expect(w.wait { $0.snapshots.count == 3 })
        #expect(w.messages[2].journeySharingInfo?.lastLocation?.location == Fixture.point(48.105, 11.51))
        #expect(w.messages[2] == (try f.task("t1")))
        observation.cancel()
        #expect(f.engine.feeds.count == 0)
    }

    @Test func aCommitThatChangesNothingTheTaskShowsDeliversNothing() throws {
        let f = try assignedTask()
        try f.createTask("t2", Fixture.newTask(tracking: "PARCEL-2"))
        let w = TaskDeliveries()
        let observation = try observeTask(f, "t1", w)
        #expect(w.wait { $0.snapshots.count == 1 })
        #expect(f.engine.watchFeedsSettle())
        // The vehicle the feed follows is committed, but nothing of it the task shows changed.
        try relabel(f, "dv1", "late")
        #expect(f.engine.watchFeedsSettle())
        #expect(w.snapshots.count == 1)
        // Another task is none of this watch's business.
        try f.updateTask("t2", DeliveryTask(attributes: [TaskAttribute(key: "floor", taskAttributeValue: .numberValue(2))]), ["attributes"])
        #expect(f.engine.watchFeedsSettle())
        #expect(w.snapshots.count == 1)
        try f.moveDeliveryVehicle("dv1", to: 48.105, 11.51)
        #expect(w.wait { $0.snapshots.count == 2 })
        #expect(f.engine.watchFeedsSettle())
        #expect(w.snapshots.count == 2)
        observation.cancel()
    }

    @Test func aTrackingWatchFollowsTheVehicleButNotTheClock() throws {
        let f = try assignedTask()
        let w = TrackingDeliveries()
        let observation = try observeTracking(f, "PARCEL-1", w)
        #expect(w.wait { $0.snapshots.count == 1 })
        #expect(w.messages[0] == (try f.tracking("PARCEL-1")))
        #expect(w.messages[0].vehicleLocation?.location == Fixture.point(Fixture.depot.0, Fixture.depot.1))
        let firstArrival = try #require(w.messages[0].estimatedArrivalTime)
        try f.moveDeliveryVehicle("dv1", to: 48.105, 11.51)
        #expect(w.wait { $0.snapshots.count == 2 })
        #expect(w.messages[1].vehicleLocation?.location == Fixture.point(48.105, 11.51))
        #expect(w.messages[1] == (try f.tracking("PARCEL-1")), "as GetTaskTrackingInfo answers it")
        #expect(w.messages[1].estimatedArrivalTime != firstArrival)
        #expect(f.engine.watchFeedsSettle())
        // Half a minute later the arrival time GetTaskTrackingInfo gives is half a minute later too, as
        // nothing moved; a commit of the vehicle that shows nothing new is no change.
        f.clock.advance(seconds: 30)
        try relabel(f, "dv1", "late")
        #expect(f.engine.watchFeedsSettle())
        #expect(w.snapshots.count == 2)
        #expect(try f.tracking("PARCEL-1").estimatedArrivalTime == w.messages[1].estimatedArrivalTime?.adding(seconds: 30))
        observation.cancel()
        #expect(f.engine.feeds.count == 0)
    }

    @Test func aTrackingWatchFollowsTheShipmentsTasks() throws {
        let f = try assignedTask()
        let w = TrackingDeliveries()
        let observation = try observeTracking(f, "PARCEL-1", w)
        #expect(w.wait { $0.snapshots.count == 1 })
        #expect(f.engine.watchFeedsSettle())
        // A second task of the shipment, on no vehicle: the one on its way is still the one shown.
        try f.createTask("t2", Fixture.newTask(tracking: "PARCEL-1"))
        #expect(f.engine.watchFeedsSettle())
        #expect(w.snapshots.count == 1)
        // The vehicle leaves t1's stop: t1 is closed, and the open t2 is shown, on no vehicle.
        try f.setStops("dv1", [])
        #expect(w.wait { $0.snapshots.count == 2 })
        #expect(w.messages[1].vehicleLocation == nil)
        #expect(w.messages[1].state == .open)
        #expect(w.messages[1] == (try f.tracking("PARCEL-1")))
        // t2 changes what the shipment shows.
        let size = TaskAttribute(key: "size", taskAttributeValue: .stringValue("L"))
        try f.updateTask("t2", DeliveryTask(attributes: [size]), ["attributes"])
        #expect(w.wait { $0.snapshots.count == 3 })
        #expect(w.messages[2].attributes == [size])
        observation.cancel()
    }

    @Test func deletingTheTaskEndsItsWatchesWithNotFound() throws {
        let f = Fixture()
        try f.createTask("t1")
        let task = TaskDeliveries(), tracking = TrackingDeliveries()
        _ = try observeTask(f, "t1", task)
        _ = try observeTracking(f, "PARCEL-1", tracking)
        #expect(task.wait { $0.snapshots.count == 1 })
        #expect(tracking.wait { $0.snapshots.count == 1 })
        try f.engine.deleteTask(DeleteTaskRequest(name: f.taskName("t1")))
        #expect(task.wait { $0.error != nil })
        #expect(tracking.wait { $0.error != nil })
        #expect(task.error?.code == .notFound)
        #expect(tracking.error?.code == .notFound)
        #expect(tracking.error?.message.contains("PARCEL-1") == true)
        #expect(f.engine.feeds.count == 0)
    }

    @Test func watchersOfOneTaskShareAFeedWhateverTheirHeaders() throws {
        let f = try assignedTask()
        let one = TaskDeliveries(), two = TaskDeliveries(), tracking = TrackingDeliveries()
        let a = try observeTask(f, "t1", one)
        let b = try observeTask(f, "t1", two, header: DeliveryRequestHeader(languageCode: "de-DE"))
        let c = try observeTracking(f, "PARCEL-1", tracking)
        #expect(f.engine.feeds.count == 2, "one for the task, one for its tracking ID")
        #expect(one.wait { $0.snapshots.count == 1 })
        #expect(two.wait { $0.snapshots.count == 1 })
        // The tracking watch's first read before the move, or it reads the moved van first and sees no change.
        #expect(tracking.wait { $0.snapshots.count == 1 })
        try f.moveDeliveryVehicle("dv1", to: 48.105, 11.51)
        #expect(one.wait { $0.snapshots.count == 2 })
        #expect(two.wait { $0.snapshots.count == 2 })
        #expect(tracking.wait { $0.snapshots.count == 2 })
        #expect(one.snapshots[1] === two.snapshots[1], "one read, one snapshot for both")
        a.cancel()
        #expect(f.engine.feeds.count == 2)
        b.cancel()
        c.cancel()
        #expect(f.engine.feeds.count == 0)
    }

    @Test func anUnknownTaskOrTrackingIDOrABadNameIsRefusedAtOnce() {
        let f = Fixture()
        expectFleetError(.notFound) { _ = try observeTask(f, "nope", TaskDeliveries()) }
        expectFleetError(.notFound, field: "name") { _ = try observeTracking(f, "NOPE", TrackingDeliveries()) }
        expectFleetError(.invalidArgument, field: "name") {
            _ = try f.engine.observeTask(GetTaskRequest(name: "tasks/t1"), onUpdate: { _ in true }, onEnd: { _ in })
        }
        expectFleetError(.invalidArgument, field: "name") {
            _ = try f.engine.observeTaskTrackingInfo(GetTaskTrackingInfoRequest(name: f.taskName("t1")), onUpdate: { _ in true }, onEnd: { _ in })
        }
        #expect(f.engine.feeds.count == 0)
    }

    @Test func aBlockingTrackingWatchEndsWhenCancelledAndClosesItsFeed() throws {
        let f = try assignedTask()
        let cancellation = Cancellation()
        let seen = Mutex<[DeliveryTask.State?]>([])
        let done = DispatchSemaphore(value: 0)
        let watcher = Thread {
            try? f.engine.watchTaskTrackingInfo(GetTaskTrackingInfoRequest(name: f.trackingName("PARCEL-1")), cancellation: cancellation) { info in
                seen.withLock { $0.append(info.state) }
                if info.state == .closed { cancellation.cancel() }
            }
            done.signal()
        }
        watcher.start()
        try f.setStops("dv1", [])
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seen.withLock { $0.last } == .closed)
        #expect(f.engine.feeds.count == 0)
    }
}
