import FleetEngine
import FleetErrors
import FleetModel
import Testing

/// GetTaskTrackingInfo: what the person waiting for a shipment sees, by its tracking ID.
@Suite struct TaskTrackingInfoTests {
    let a = (48.11, 11.52)
    let b = (48.12, 11.54)

    static func visibility(_ option: TaskTrackingViewConfig.VisibilityOption.VisibilityOption) -> TaskTrackingViewConfig.VisibilityOption {
        TaskTrackingViewConfig.VisibilityOption(visibilityOption: option)
    }

    @Test func anUnknownTrackingIDIsNotFound() throws {
        let f = Fixture()
        expectFleetError(.notFound, field: "name", containing: "taskTrackingInfo/NOPE") { _ = try f.tracking("NOPE") }
        expectFleetError(.invalidArgument, field: "name") {
            _ = try f.engine.getTaskTrackingInfo(GetTaskTrackingInfoRequest(name: "providers/p/tasks/t1"))
        }
    }

    @Test func aTaskOnNoVehicleShowsItsOwnFieldsOnly() throws {
        let f = Fixture()
        var task = Fixture.newTask(tracking: "PARCEL-1", attributes: [TaskAttribute(key: "size", taskAttributeValue: .stringValue("S"))])
        task.targetTimeWindow = TimeWindow(startTime: Timestamp(seconds: 1_767_230_000), endTime: Timestamp(seconds: 1_767_233_600))
        try f.createTask("t1", task)
        let info = try f.tracking("PARCEL-1")
        #expect(info.name == f.trackingName("PARCEL-1"))
        #expect(info.trackingId == "PARCEL-1")
        #expect(info.state == .open)
        #expect(info.plannedLocation == task.plannedLocation)
        #expect(info.targetTimeWindow == task.targetTimeWindow)
        #expect(info.attributes == task.attributes)
        #expect(info.vehicleLocation == nil)
        #expect(info.remainingStopCount == nil)
        #expect(info.estimatedArrivalTime == nil)
        #expect(info.routePolylinePoints.isEmpty)
    }

    @Test func aTaskOnAVehicleShowsTheWayToItsStop() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        try f.createTask("other", Fixture.newTask(tracking: "OTHER", seconds: 300))
        try f.createTask("mine", Fixture.newTask(tracking: "MINE", at: b, seconds: 60))
        try f.createTask("after-mine", Fixture.newTask(tracking: "OTHER-2", at: b, seconds: 45))
        try f.setStops("dv1", [Fixture.stop(a, ["other"]), Fixture.stop(b, ["mine", "after-mine"])])
        let vehicle = try f.deliveryVehicle("dv1")
        let info = try f.tracking("MINE")
        #expect(info.state == .open)
        #expect(info.remainingStopCount == 2, "the stops left until the task's, its own included")
        #expect(info.vehicleLocation?.location == Fixture.point(Fixture.depot.0, Fixture.depot.1))
        let toFirst = try #require(vehicle.remainingDistanceMeters)
        let leg = try #require(vehicle.remainingVehicleJourneySegments[1].drivingDistanceMeters)
        #expect(info.remainingDrivingDistanceMeters == toFirst + leg)
        let seconds = try #require(vehicle.remainingDuration).timeInterval + 300  // the task at the first stop
            + (try #require(vehicle.remainingVehicleJourneySegments[1].drivingDuration).timeInterval)
        let arrival = try #require(info.estimatedArrivalTime)
        #expect(abs(arrival.timeIntervalSince(f.clock.now()) - seconds) < 0.01)
        #expect(info.estimatedTaskCompletionTime == arrival.adding(seconds: 60), "its own task done first at its stop")
        #expect(info.routePolylinePoints.first == Fixture.point(Fixture.depot.0, Fixture.depot.1))
        #expect(info.routePolylinePoints.last == Fixture.point(b.0, b.1))
        #expect(try f.tracking("OTHER-2").estimatedTaskCompletionTime == arrival.adding(seconds: 105), "after the task before it")
    }

    @Test func eachElementIsShownAsTheTasksViewConfigSays() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        let view = TaskTrackingViewConfig(
            routePolylinePointsVisibility: Self.visibility(.never(true)),
            estimatedArrivalTimeVisibility: Self.visibility(.durationUntilEstimatedArrivalTimeThreshold(ProtoDuration(seconds: 60))),
            remainingDrivingDistanceVisibility: Self.visibility(.remainingDrivingDistanceMetersThreshold(2000)),
            remainingStopCountVisibility: Self.visibility(.always(true)),
            vehicleLocationVisibility: Self.visibility(.remainingStopCountThreshold(1)))
        try f.createTask("first", Fixture.newTask(tracking: "FIRST"))
        try f.createTask("mine", Fixture.newTask(tracking: "MINE", at: b, view: view))
        try f.setStops("dv1", [Fixture.stop(a, ["first"]), Fixture.stop(b, ["mine"])])
        let far = try f.tracking("MINE")
        #expect(far.remainingStopCount == 2)
        #expect(far.vehicleLocation == nil, "two stops away, shown from one")
        #expect(far.routePolylinePoints.isEmpty, "never")
        #expect(far.remainingDrivingDistanceMeters == nil, "farther than 2 km")
        #expect(far.estimatedArrivalTime == nil, "more than a minute away")
        #expect(far.estimatedTaskCompletionTime != nil, "no option for it: the engine's default shows it")

        try f.setStops("dv1", [Fixture.stop(b, ["mine"], .enroute)])
        f.clock.advance(seconds: 10)
        try f.moveDeliveryVehicle("dv1", to: b.0 - 0.0002, b.1)
        let near = try f.tracking("MINE")
        #expect(near.remainingStopCount == 1)
        #expect(near.vehicleLocation != nil)
        #expect(near.remainingDrivingDistanceMeters != nil)
        #expect(near.estimatedArrivalTime != nil)
        #expect(near.routePolylinePoints.isEmpty)
    }

    @Test func theEnginesDefaultsApplyWhereATaskSaysNothing() throws {
        var configuration = EngineConfiguration()
        configuration.taskTrackingDefaults = TaskTrackingViewConfig(vehicleLocationVisibility: Self.visibility(.never(true)))
        let f = Fixture(configuration: configuration)
        try f.createDeliveryVehicle("dv1", at: Fixture.depot)
        try f.createTask("quiet", Fixture.newTask(tracking: "QUIET"))
        try f.createTask("open", Fixture.newTask(tracking: "OPEN", view: TaskTrackingViewConfig(vehicleLocationVisibility: Self.visibility(.always(true)))))
        try f.setStops("dv1", [Fixture.stop(a, ["quiet", "open"])])
        #expect(try f.tracking("QUIET").vehicleLocation == nil)
        #expect(try f.tracking("QUIET").remainingStopCount == 1)
        #expect(try f.tracking("OPEN").vehicleLocation != nil, "the task's own option wins")
    }

    @Test func ofAShipmentsTasksTheOneUnderWayIsShownThenTheLastClosed() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("van", at: Fixture.depot)
        try f.createDeliveryVehicle("bike", at: Fixture.depot)
        try f.createTask("pickup", Fixture.newTask(.pickup, tracking: "PARCEL-1", at: a))
        try f.createTask("delivery", Fixture.newTask(.delivery, tracking: "PARCEL-1", at: b))
        #expect(try f.tracking("PARCEL-1").plannedLocation?.point == Fixture.point(a.0, a.1), "both waiting: the pickup comes first")

        try f.setStops("van", [Fixture.stop(a, ["pickup"])])
        #expect(try f.tracking("PARCEL-1").remainingStopCount == 1, "the pickup on its way")

        try f.setStops("van", [])  // picked up
        try f.updateTask("pickup", DeliveryTask(taskOutcome: .succeeded), ["taskOutcome"])
        let atHub = try f.tracking("PARCEL-1")
        #expect(atHub.plannedLocation?.point == Fixture.point(b.0, b.1), "the delivery is what is awaited now")
        #expect(atHub.state == .open)
        #expect(atHub.vehicleLocation == nil)

        try f.setStops("bike", [Fixture.stop(b, ["delivery"])])
        #expect(try f.tracking("PARCEL-1").vehicleLocation != nil)

        f.clock.advance(seconds: 600)
        try f.setStops("bike", [])
        try f.updateTask("delivery", DeliveryTask(taskOutcome: .failed), ["taskOutcome"])
        let ended = try f.tracking("PARCEL-1")
        #expect(ended.state == .closed)
        #expect(ended.taskOutcome == .failed, "the task closed last says how the shipment ended")
        #expect(ended.taskOutcomeTime == f.clock.now())
        #expect(ended.vehicleLocation == nil)
    }
}
