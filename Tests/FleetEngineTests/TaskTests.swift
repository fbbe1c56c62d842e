import FleetEngine
import FleetErrors
import FleetModel
import Testing

/// CreateTask, BatchCreateTasks, GetTask, UpdateTask, DeleteTask and ListTasks, as Google's field
/// documentation describes them.
@Suite struct TaskTests {
    @Test func createKeepsTheFieldsItTakesAndStartsOpenOnNoVehicle() throws {
        let f = Fixture()
        var input = Fixture.newTask(.pickup, tracking: "PARCEL-1",
                                    attributes: [TaskAttribute(key: "fragile", taskAttributeValue: .boolValue(true)), TaskAttribute(key: "note")])
        input.name = "providers/other/tasks/forged"
        input.targetTimeWindow = TimeWindow(startTime: Timestamp(seconds: 1_767_230_000), endTime: Timestamp(seconds: 1_767_233_600))
        let created = try f.createTask("t1", input)
        #expect(created.name == f.taskName("t1"), "the name in the body is ignored")
        #expect(created.state == .open)
        #expect(created.type == .pickup)
        #expect(created.trackingId == "PARCEL-1")
        #expect(created.deliveryVehicleId == nil)
        #expect(created.journeySharingInfo == nil)
        #expect(created.targetTimeWindow == input.targetTimeWindow)
        #expect(created.attributes[1].stringValue == "", "an attribute without a value is the empty string")
        #expect(try f.task("t1") == created)
    }

    @Test(arguments: [
        ("type", "task.type"), ("state", "task.state"), ("closed", "task.state"), ("trackingId", "task.trackingId"),
        ("plannedLocation", "task.plannedLocation"), ("taskDuration", "task.taskDuration"),
        ("deliveryVehicleId", "task.deliveryVehicleId"), ("taskOutcome", "task.taskOutcome"),
        ("taskOutcomeTime", "task.taskOutcomeTime"), ("taskOutcomeLocation", "task.taskOutcomeLocation"),
        ("taskOutcomeLocationSource", "task.taskOutcomeLocationSource"), ("journeySharingInfo", "task.journeySharingInfo"),
        ("window", "task.targetTimeWindow.endTime"), ("never", "task.taskTrackingViewConfig.vehicleLocationVisibility.never"),
        ("attributes", "task.attributes[1].key"), ("badTracking", "task.trackingId"),
    ])
    func createRefusesWhatGoogleRefusesNamingTheField(mistake: String, field: String) {
        let f = Fixture()
        var t = Fixture.newTask()
        switch mistake {
        case "type": t.type = nil
        case "state": t.state = nil
        case "closed": t.state = .closed
        case "trackingId": t.trackingId = nil
        case "plannedLocation": t.plannedLocation = nil
        case "taskDuration": t.taskDuration = nil
        case "deliveryVehicleId": t.deliveryVehicleId = "dv1"
        case "taskOutcome": t.taskOutcome = .succeeded
        case "taskOutcomeTime": t.taskOutcomeTime = Timestamp(seconds: 5)
        case "taskOutcomeLocation": t.taskOutcomeLocation = LocationInfo(point: Fixture.point(1, 1))
        case "taskOutcomeLocationSource": t.taskOutcomeLocationSource = .provider
        case "journeySharingInfo": t.journeySharingInfo = DeliveryTask.JourneySharingInfo()
        case "window": t.targetTimeWindow = TimeWindow(startTime: Timestamp(seconds: 10), endTime: Timestamp(seconds: 5))
        case "never": t.taskTrackingViewConfig = TaskTrackingViewConfig(vehicleLocationVisibility: .init(visibilityOption: .never(false)))
        case "attributes": t.attributes = [TaskAttribute(key: "a"), TaskAttribute(key: "a")]
        default: t.trackingId = "has/slash"
        }
        expectFleetError(.invalidArgument, field: field) { try f.createTask("t1", t) }
    }

    @Test func unavailableAndScheduledStopTasksHaveNoTrackingIDAndBreaksNeedNoPlace() throws {
        let f = Fixture()
        expectFleetError(.invalidArgument, field: "task.trackingId", containing: "UNAVAILABLE") {
            try f.createTask("break", Fixture.newTask(.unavailable, tracking: "X"))
        }
        expectFleetError(.invalidArgument, field: "task.trackingId", containing: "SCHEDULED_STOP") {
            try f.createTask("hub", Fixture.newTask(.scheduledStop, tracking: "X"))
        }
        expectFleetError(.invalidArgument, field: "task.plannedLocation") {
            try f.createTask("hub", Fixture.newTask(.scheduledStop, tracking: nil, at: nil))
        }
        #expect(try f.createTask("break", Fixture.newTask(.unavailable, tracking: nil, at: nil)).plannedLocation == nil)
        #expect(try f.createTask("hub", Fixture.newTask(.scheduledStop, tracking: nil)).trackingId == nil)
    }

    @Test func idsAreCheckedAndDuplicatesAreAlreadyExists() throws {
        let f = Fixture()
        try f.createTask("t1")
        expectFleetError(.alreadyExists, field: "taskId") { try f.createTask("t1") }
        expectFleetError(.invalidArgument, field: "taskId") { try f.createTask("a:b") }
        expectFleetError(.invalidArgument, field: "taskId") { try f.createTask("") }
        expectFleetError(.notFound, containing: "tasks/ghost") { _ = try f.task("ghost") }
    }

    @Test func severalTasksMayShareATrackingID() throws {
        let f = Fixture()
        try f.createTask("pickup", Fixture.newTask(.pickup, tracking: "PARCEL-1"))
        try f.createTask("dropoff", Fixture.newTask(.delivery, tracking: "PARCEL-1"))
        #expect(try f.tracking("PARCEL-1").trackingId == "PARCEL-1")
    }

    // MARK: BatchCreateTasks

    @Test func aBatchCreatesEveryTaskOrNone() throws {
        let f = Fixture()
        let requests = (1...3).map { CreateTaskRequest(taskId: "t\($0)", task: Fixture.newTask(tracking: "P\($0)")) }
        let response = try f.engine.batchCreateTasks(BatchCreateTasksRequest(parent: f.parent, requests: requests))
        #expect(response.tasks.map(\.name) == (1...3).map { f.taskName("t\($0)") })
        // One task of the next batch exists: nothing of it is written.
        let next = [CreateTaskRequest(taskId: "t4", task: Fixture.newTask()), CreateTaskRequest(parent: f.parent, taskId: "t2", task: Fixture.newTask())]
        expectFleetError(.alreadyExists, field: "requests[1].taskId") {
            _ = try f.engine.batchCreateTasks(BatchCreateTasksRequest(parent: f.parent, requests: next))
        }
        expectFleetError(.notFound) { _ = try f.task("t4") }
    }

    @Test func aBatchIsCheckedRequestByRequest() {
        let f = Fixture()
        func batch(_ requests: [CreateTaskRequest]) throws {
            _ = try f.engine.batchCreateTasks(BatchCreateTasksRequest(parent: f.parent, requests: requests))
        }
        expectFleetError(.invalidArgument, field: "requests") { try batch([]) }
        let many = (0...500).map { CreateTaskRequest(taskId: "t\($0)", task: Fixture.newTask()) }
        expectFleetError(.invalidArgument, field: "requests", containing: "500") { try batch(many) }
        expectFleetError(.invalidArgument, field: "requests[1].parent") {
            try batch([CreateTaskRequest(taskId: "a", task: Fixture.newTask()),
                       CreateTaskRequest(parent: "providers/other", taskId: "b", task: Fixture.newTask())])
        }
        expectFleetError(.invalidArgument, field: "requests[1].taskId", containing: "requests[0]") {
            try batch([CreateTaskRequest(taskId: "a", task: Fixture.newTask()), CreateTaskRequest(taskId: "a", task: Fixture.newTask())])
        }
        var noType = Fixture.newTask()
        noType.type = nil
        expectFleetError(.invalidArgument, field: "requests[1].task.type") {
            try batch([CreateTaskRequest(taskId: "a", task: Fixture.newTask()), CreateTaskRequest(taskId: "b", task: noType)])
        }
    }

    // MARK: UpdateTask

    @Test func anUnassignedTaskIsClosedByUpdateTaskAndNeverReopened() throws {
        let f = Fixture()
        try f.createTask("t1")
        f.clock.advance(seconds: 60)
        let closed = try f.updateTask("t1", DeliveryTask(state: .closed, taskOutcome: .failed), ["state", "taskOutcome"])
        #expect(closed.state == .closed)
        #expect(closed.taskOutcome == .failed)
        #expect(closed.taskOutcomeTime == f.clock.now(), "the outcome time defaults to now")
        #expect(closed.taskOutcomeLocation == nil, "no vehicle: no location to default to")
        expectFleetError(.failedPrecondition, field: "task.state", containing: "reopened") {
            try f.updateTask("t1", DeliveryTask(state: .open), ["state"])
        }
    }

    @Test func anAssignedTaskIsClosedByItsStopNotByUpdateTask() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1", at: (48.105, 11.51))
        try f.createTask("t1")
        try f.setStops("dv1", [Fixture.stop((48.11, 11.52), ["t1"])])
        expectFleetError(.failedPrecondition, field: "task.state", containing: "dv1") {
            try f.updateTask("t1", DeliveryTask(state: .closed), ["state"])
        }
        expectFleetError(.failedPrecondition, field: "task.taskOutcome") {
            try f.updateTask("t1", DeliveryTask(taskOutcome: .succeeded), ["taskOutcome"])
        }
        try f.setStops("dv1", [])
        #expect(try f.task("t1").state == .closed)
        f.clock.advance(seconds: 5)
        let done = try f.updateTask("t1", DeliveryTask(taskOutcome: .succeeded), ["taskOutcome"])
        #expect(done.taskOutcome == .succeeded)
        #expect(done.taskOutcomeTime == f.clock.now())
        #expect(done.taskOutcomeLocation?.point == Fixture.point(48.105, 11.51), "the vehicle's last location")
        #expect(done.taskOutcomeLocationSource == .lastVehicleLocation)
        #expect(done.deliveryVehicleId == "dv1")
    }

    @Test func theOutcomeCannotChangeOnceSet() throws {
        let f = Fixture()
        try f.createTask("t1")
        let place = LocationInfo(point: Fixture.point(48.12, 11.53))
        let at = Timestamp(seconds: 1_767_225_000)
        let done = try f.updateTask("t1", DeliveryTask(state: .closed, taskOutcome: .succeeded, taskOutcomeTime: at, taskOutcomeLocation: place),
                                    ["state", "taskOutcome", "taskOutcomeTime", "taskOutcomeLocation"])
        #expect(done.taskOutcomeTime == at)
        #expect(done.taskOutcomeLocation == place)
        #expect(done.taskOutcomeLocationSource == .provider)
        #expect(try f.updateTask("t1", DeliveryTask(taskOutcome: .succeeded), ["taskOutcome"]).taskOutcome == .succeeded, "the same again is no change")
        expectFleetError(.failedPrecondition, field: "task.taskOutcome", containing: "SUCCEEDED") {
            try f.updateTask("t1", DeliveryTask(taskOutcome: .failed), ["taskOutcome"])
        }
        // The provider may still correct where and when.
        let later = try f.updateTask("t1", DeliveryTask(taskOutcomeTime: at.adding(seconds: 60)), ["taskOutcomeTime"])
        #expect(later.taskOutcomeTime == at.adding(seconds: 60))
    }

    @Test func anOutcomesTimeOrPlaceNeedsTheOutcome() throws {
        let f = Fixture()
        try f.createTask("t1")
        try f.updateTask("t1", DeliveryTask(state: .closed), ["state"])
        expectFleetError(.failedPrecondition, field: "task.taskOutcomeTime") {
            try f.updateTask("t1", DeliveryTask(taskOutcomeTime: Timestamp(seconds: 5)), ["taskOutcomeTime"])
        }
    }

    @Test(arguments: [("type", "immutable"), ("trackingId", "immutable"), ("plannedLocation", "immutable"),
                      ("task_duration", "immutable"), ("deliveryVehicleId", "server"), ("journeySharingInfo", "server"),
                      ("taskOutcomeLocationSource", "server"), ("name", "server")])
    func fieldsFleetEngineKeepsAreRefusedInTheMask(path: String, why: String) throws {
        let f = Fixture()
        try f.createTask("t1")
        expectFleetError(.invalidArgument, field: "updateMask", containing: why == "immutable" ? "immutable" : "maintained by the server") {
            try f.updateTask("t1", Fixture.newTask(), [path])
        }
    }

    @Test func updateSetsTheWindowViewAndAttributes() throws {
        let f = Fixture()
        try f.createTask("t1")
        let window = TimeWindow(startTime: Timestamp(seconds: 1_767_230_000), endTime: Timestamp(seconds: 1_767_233_600))
        let view = TaskTrackingViewConfig(vehicleLocationVisibility: .init(visibilityOption: .remainingStopCountThreshold(3)))
        let updated = try f.updateTask("t1", DeliveryTask(targetTimeWindow: window, taskTrackingViewConfig: view,
                                                          attributes: [TaskAttribute(key: "floor", taskAttributeValue: .numberValue(3))]),
                                       ["targetTimeWindow", "taskTrackingViewConfig", "attributes"])
        #expect(updated.targetTimeWindow == window)
        #expect(updated.taskTrackingViewConfig == view)
        #expect(updated.attributes.first?.numberValue == 3)
        #expect(updated.state == .open)
        expectFleetError(.invalidArgument, field: "task.targetTimeWindow.startTime") {
            try f.updateTask("t1", DeliveryTask(targetTimeWindow: TimeWindow(endTime: Timestamp(seconds: 1))), ["targetTimeWindow"])
        }
        expectFleetError(.notFound) { try f.updateTask("ghost", DeliveryTask(state: .closed), ["state"]) }
    }

    // MARK: DeleteTask

    @Test func deleteIsRefusedWhileTheTaskIsOpenOnAVehicle() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        try f.createTask("t1", Fixture.newTask(tracking: "PARCEL-9"))
        try f.setStops("dv1", [Fixture.stop((48.11, 11.52), ["t1"])])
        expectFleetError(.failedPrecondition, field: "name", containing: "dv1") {
            try f.engine.deleteTask(DeleteTaskRequest(name: f.taskName("t1")))
        }
        try f.setStops("dv1", [])
        try f.engine.deleteTask(DeleteTaskRequest(name: f.taskName("t1")))
        expectFleetError(.notFound) { _ = try f.task("t1") }
        expectFleetError(.notFound, containing: "PARCEL-9") { _ = try f.tracking("PARCEL-9") }
        expectFleetError(.notFound) { try f.engine.deleteTask(DeleteTaskRequest(name: f.taskName("t1"))) }
    }

    @Test func anUnassignedOpenTaskCanBeDeleted() throws {
        let f = Fixture()
        try f.createTask("t1")
        try f.createTask("t2")
        try f.engine.deleteTask(DeleteTaskRequest(name: f.taskName("t1")))
        #expect(try f.tracking("PARCEL-1").trackingId == "PARCEL-1", "the other task keeps the tracking ID")
    }

    // MARK: ListTasks

    @Test func listPagesByIDWithTheFilter() throws {
        let f = Fixture()
        for i in 1...5 {
            try f.createTask("t\(i)", Fixture.newTask(attributes: [TaskAttribute(key: "zone", taskAttributeValue: .stringValue(i % 2 == 0 ? "even" : "odd"))]))
        }
        try f.updateTask("t3", DeliveryTask(state: .closed), ["state"])
        var request = ListTasksRequest(parent: f.parent, pageSize: 2)
        var seen: [String] = []
        while true {
            let page = try f.engine.listTasks(request)
            #expect(page.totalSize == 5)
            seen += page.tasks.compactMap(\.name)
            guard let token = page.nextPageToken else { break }
            request.pageToken = token
        }
        #expect(seen == (1...5).map { f.taskName("t\($0)") })
        func ids(_ filter: String) throws -> [String] {
            try f.engine.listTasks(ListTasksRequest(parent: f.parent, filter: filter)).tasks.compactMap { $0.name?.split(separator: "/").last.map(String.init) }
        }
        #expect(try ids("attributes.zone = \"odd\"") == ["t1", "t3", "t5"])
        #expect(try ids("attributes.zone = \"odd\" AND state = OPEN") == ["t1", "t5"])
        #expect(try ids("state = CLOSED") == ["t3"])
        expectFleetError(.invalidArgument, field: "filter") { _ = try ids("this is not a filter") }
    }

    @Test func listedTasksCarryTheirJourneySharingInfo() throws {
        let f = Fixture()
        try f.createDeliveryVehicle("dv1")
        try f.createTask("t1")
        try f.createTask("t2")
        try f.setStops("dv1", [Fixture.stop((48.11, 11.52), ["t1"])])
        let tasks = try f.engine.listTasks(ListTasksRequest(parent: f.parent)).tasks
        #expect(tasks[0].journeySharingInfo?.remainingVehicleJourneySegments.count == 1)
        #expect(tasks[1].journeySharingInfo == nil)
    }
}
