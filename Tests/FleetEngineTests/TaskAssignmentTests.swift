import FleetEngine
import FleetErrors
import FleetModel
import Testing

/// A delivery vehicle's `remainingVehicleJourneySegments` assign tasks to it, and leaving them closes them.
@Suite struct TaskAssignmentTests {
    let a = (48.11, 11.52)
    let b = (48.12, 11.54)
    let c = (48.13, 11.56)

    @Test func listingATaskAssignsItAndGetDeliveryVehicleShowsItsDurationAndWindow() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        var task = Fixture.newTask(seconds: 90)
        let window = TimeWindow(startTime: Timestamp(seconds: 1_767_230_000), endTime: Timestamp(seconds: 1_767_233_600))
        task.targetTimeWindow = window
        try f.createTask("t1", task)
        try f.createTask("t2", Fixture.newTask(seconds: 30))
        let updated = try f.setStops("dv1", [Fixture.stop(a, ["t1", "t2"], .enroute)])
        #expect(updated.remainingVehicleJourneySegments.first?.stop?.tasks.map(\.taskId) == ["t1", "t2"])
        #expect(updated.remainingVehicleJourneySegments.first?.stop?.tasks.first?.targetTimeWindow == nil,
                "the window is only set in the response to GetDeliveryVehicle")
        #expect(try f.task("t1").deliveryVehicleId == "dv1")
        #expect(try f.task("t2").deliveryVehicleId == "dv1")
        let stop = try #require(try f.deliveryVehicle("dv1").remainingVehicleJourneySegments.first?.stop)
        #expect(stop.state == .enroute)
        #expect(stop.tasks.map(\.taskDuration) == [ProtoDuration(seconds: 90), ProtoDuration(seconds: 30)])
        #expect(stop.tasks.first?.targetTimeWindow == window)
    }

    @Test func aStopWithoutAStateIsNew() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        try f.createTask("t1")
        var stop = Fixture.stop(a, ["t1"])
        stop.stop?.state = nil
        #expect(try f.setStops("dv1", [stop]).remainingVehicleJourneySegments.first?.stop?.state == .new)
    }

    @Test func aTaskListedMustExistBeOpenAndBeOnNoOtherVehicle() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        try f.createDeliveryVehicle("dv2")
        try f.createTask("t1")
        try f.createTask("done")
        try f.updateTask("done", DeliveryTask(state: .closed), ["state"])
        let field = "deliveryVehicle.remainingVehicleJourneySegments[1].stop.tasks[0].taskId"
        expectFleetError(.notFound, field: field, containing: "tasks/ghost") {
            try f.setStops("dv1", [Fixture.stop(a, ["t1"]), Fixture.stop(b, ["ghost"])])
        }
        #expect(try f.task("t1").deliveryVehicleId == nil, "nothing of a refused update is written")
        expectFleetError(.failedPrecondition, field: field, containing: "CLOSED") {
            try f.setStops("dv1", [Fixture.stop(a, ["t1"]), Fixture.stop(b, ["done"])])
        }
        try f.setStops("dv2", [Fixture.stop(a, ["t1"])])
        expectFleetError(.failedPrecondition, field: "deliveryVehicle.remainingVehicleJourneySegments[0].stop.tasks[0].taskId", containing: "dv2") {
            try f.setStops("dv1", [Fixture.stop(a, ["t1"])])
        }
    }

    @Test func stopsAreCheckedBeforeAnythingIsRead() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        let field = "deliveryVehicle.remainingVehicleJourneySegments"
        expectFleetError(.invalidArgument, field: "\(field)[1].stop.tasks[0].taskId", containing: "twice") {
            try f.setStops("dv1", [Fixture.stop(a, ["t1"]), Fixture.stop(b, ["t1"])])
        }
        expectFleetError(.invalidArgument, field: "\(field)[0].stop.tasks") { try f.setStops("dv1", [Fixture.stop(a, [])]) }
        expectFleetError(.invalidArgument, field: "\(field)[0].stop") { try f.setStops("dv1", [VehicleJourneySegment()]) }
        expectFleetError(.invalidArgument, field: "\(field)[0].stop.plannedLocation") {
            try f.setStops("dv1", [VehicleJourneySegment(stop: VehicleStop(tasks: [VehicleStop.TaskInfo(taskId: "t1")]))])
        }
        expectFleetError(.invalidArgument, field: "\(field)[1].stop.state", containing: "first") {
            try f.setStops("dv1", [Fixture.stop(a, ["t1"]), Fixture.stop(b, ["t2"], .arrived)])
        }
        expectFleetError(.invalidArgument, field: "\(field)[0].stop.tasks[0].taskId") { try f.setStops("dv1", [Fixture.stop(a, ["a/b"])]) }
    }

    @Test func aStopLeavingTheListClosesItsTasksWhichKeepTheirVehicle() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        for id in ["t1", "t2", "t3"] { try f.createTask(id) }
        try f.setStops("dv1", [Fixture.stop(a, ["t1"], .arrived), Fixture.stop(b, ["t2", "t3"])])
        // t1's stop is served; t3 is dropped from the other stop.
        let after = try f.setStops("dv1", [Fixture.stop(b, ["t2"], .enroute)])
        #expect(after.remainingVehicleJourneySegments.count == 1)
        let t1 = try f.task("t1")
        #expect(t1.state == .closed)
        #expect(t1.deliveryVehicleId == "dv1")
        #expect(t1.journeySharingInfo == nil, "not populated when CLOSED")
        #expect(try f.task("t3").state == .closed)
        #expect(try f.task("t2").state == .open)
        expectFleetError(.failedPrecondition, containing: "CLOSED") { try f.setStops("dv1", [Fixture.stop(b, ["t2", "t3"])]) }
    }

    @Test func anArrivedStopStaysArrivedButAnEnrouteOneMayWaitAgain() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        for id in ["t1", "t2"] { try f.createTask(id) }
        try f.setStops("dv1", [Fixture.stop(a, ["t1"], .enroute), Fixture.stop(b, ["t2"])])
        // The driver goes to b first: a is NEW again.
        let reordered = try f.setStops("dv1", [Fixture.stop(b, ["t2"], .arrived), Fixture.stop(a, ["t1"])])
        #expect(reordered.remainingVehicleJourneySegments.map { $0.stop?.state } == [.arrived, .new])
        expectFleetError(.failedPrecondition, field: "deliveryVehicle.remainingVehicleJourneySegments[0].stop.state", containing: "ARRIVED") {
            try f.setStops("dv1", [Fixture.stop(b, ["t2"], .enroute), Fixture.stop(a, ["t1"])])
        }
    }

    @Test func reassigningAServedShipmentNeedsANewTask() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        try f.createDeliveryVehicle("dv2")
        try f.createTask("t1")
        try f.setStops("dv1", [Fixture.stop(a, ["t1"])])
        try f.setStops("dv1", [])
        expectFleetError(.failedPrecondition) { try f.setStops("dv2", [Fixture.stop(a, ["t1"])]) }
        try f.createTask("t1-again")
        try f.setStops("dv2", [Fixture.stop(a, ["t1-again"])])
        #expect(try f.task("t1-again").deliveryVehicleId == "dv2")
    }

    @Test func journeySharingInfoShowsTheStopsUpToTheTasksOwnAndNothingElse() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        for id in ["t1", "t2", "t3"] { try f.createTask(id) }
        try f.setStops("dv1", [Fixture.stop(a, ["t1"]), Fixture.stop(b, ["t2"]), Fixture.stop(c, ["t3"])])
        let info = try #require(try f.task("t2").journeySharingInfo)
        #expect(info.remainingVehicleJourneySegments.count == 2, "the stops until t2 is done, t2's included")
        #expect(info.remainingVehicleJourneySegments.allSatisfy { $0.stop == nil }, "other tasks' stops are not shown")
        #expect(info.lastLocation?.location == Fixture.point(Fixture.depot.0, Fixture.depot.1))
        #expect(info.lastLocationSnappable == false, "no route to snap to")
        let vehicle = try f.deliveryVehicle("dv1")
        #expect(info.remainingVehicleJourneySegments[0].drivingDistanceMeters == vehicle.remainingDistanceMeters)
        #expect(info.remainingVehicleJourneySegments[0].drivingDuration == vehicle.remainingDuration)
        #expect(info.remainingVehicleJourneySegments[1].drivingDistanceMeters == vehicle.remainingVehicleJourneySegments[1].drivingDistanceMeters)
        #expect(info.remainingVehicleJourneySegments[1].path == vehicle.remainingVehicleJourneySegments[1].path)
        #expect(try f.task("t3").journeySharingInfo?.remainingVehicleJourneySegments.count == 3)
    }
}
