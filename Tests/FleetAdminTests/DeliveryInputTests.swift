@testable import fleet_admin
import FleetCLI
import FleetErrors
import FleetModel
import FleetOperator
import Testing

/// What the Deliveries commands read: their flag values, task files, the close request, and how they
/// print a task and a delivery vehicle. Pure functions, no engine.
@Suite struct DeliveryInputTests {
    // MARK: Flag values

    @Test func aStopNamesItsPlaceItsTasksAndItsState() throws {
        let stop = try FlagValue.vehicleStop("52.52,13.40:t-1,t-2:enroute").stop
        #expect(stop?.plannedLocation?.point == LatLng(latitude: 52.52, longitude: 13.40))
        #expect(stop?.tasks.map(\.taskId) == ["t-1", "t-2"])
        #expect(stop?.state == .enroute)
        #expect(try FlagValue.vehicleStop("-33.87,151.21:lunch").stop?.state == .new, "new when no state is given")
        #expect(try FlagValue.vehicleStop("1,2:a:ARRIVED").stop?.state == .arrived)
    }

    @Test(arguments: [
        ("52.52,13.40", "is not LAT,LNG:TASK[,TASK…][:STATE] (like 52.52,13.40:task-1,task-2)"),
        ("52.52,13.40:a:new:x", "is not LAT,LNG:TASK[,TASK…][:STATE] (like 52.52,13.40:task-1,task-2)"),
        ("north:a", "starts with 'north', which is not LAT,LNG (write LAT,LNG:TASK[,TASK…][:STATE])"),
        ("1,2: , ", "names no task after the ':' (write LAT,LNG:TASK[,TASK…][:STATE])"),
        ("1,2:a:flying", "ends with the state 'flying', which is not one of new, enroute, arrived"),
    ])
    func aMalformedStopSaysWhatIsWrong(text: String, message: String) {
        #expect(throws: ArgumentProblem(message)) { try FlagValue.vehicleStop(text) }
    }

    @Test func anAttributeTakesItsValueWholeAndAnEmptyOneIsNone() throws {
        let attribute: TaskAttribute? = try FlagValue.attribute("note=ring twice, then wait=5m")
        #expect(attribute == TaskAttribute(key: "note", taskAttributeValue: .stringValue("ring twice, then wait=5m")))
        let none: DeliveryVehicleAttribute? = try FlagValue.attribute(" ")
        #expect(none == nil)
        #expect(throws: ArgumentProblem.self) { let _: TaskAttribute? = try FlagValue.attribute("zone") }
        #expect(throws: ArgumentProblem.self) { let _: TaskAttribute? = try FlagValue.attribute("=A") }
    }

    @Test func viewportsWindowsAndTimes() throws {
        let viewport = try FlagValue.viewport("52.50, 13.35,52.55,13.45")
        #expect(viewport == Viewport(low: LatLng(latitude: 52.50, longitude: 13.35), high: LatLng(latitude: 52.55, longitude: 13.45)))
        #expect(throws: ArgumentProblem.self) { try FlagValue.viewport("52.50,13.35,52.55") }
        let window = try FlagValue.timeWindow("2026-03-01T09:00:00Z,2026-03-01T12:00:00+01:00")
        #expect(window.startTime == Timestamp(seconds: 1_772_355_600))
        #expect(window.endTime == Timestamp(seconds: 1_772_362_800))
        #expect(throws: ArgumentProblem.self) { try FlagValue.timeWindow("2026-03-01T09:00:00Z") }
        #expect(throws: ArgumentProblem.self) { try FlagValue.timestamp("tomorrow") }
    }

    @Test func theRepeatedAttributeFlagReplacesOrClears() throws {
        func flags(_ values: [String]) throws -> TaskFlags {
            try TaskFlags(ParsedArguments(commandPath: ["fleet-admin", "tasks", "update"],
                                          values: ["attribute": values, "window": []]))
        }
        #expect(try flags([]).attributes == nil, "not given: left alone")
        #expect(try flags([""]).attributes == [], "--attribute '' clears them")
        #expect(try flags(["a=1", "b=x,y"]).attributes?.map(\.stringValue) == ["1", "x,y"])
        #expect(try flags(["a=1"]).paths == ["attributes"])
    }

    // MARK: Task files

    @Test func aCSVFileGivesOneOpenTaskPerRow() throws {
        let text = """
        \u{FEFF}Task_ID, type ,tracking_id,latitude,longitude,duration,window_start,window_end,attribute.Zone
        # a comment, then a blank line

        t-1,delivery,p-1,52.52,13.40,5m,2026-03-01T09:00:00Z,2026-03-01T12:00:00Z,A
        t-2,Scheduled-Stop,,52.5,13.45,300,,,\r
        lunch,UNAVAILABLE,,,,30m,,,"B, west"
        """
        let requests = try TaskBatchFile.requests(from: text, source: "round.csv")
        #expect(requests.map(\.taskId) == ["t-1", "t-2", "lunch"])
        #expect(requests.allSatisfy { $0.task?.state == .open })
        let first = try #require(requests[0].task)
        #expect(first.type == .delivery)
        #expect(first.trackingId == "p-1")
        #expect(first.plannedLocation?.point == LatLng(latitude: 52.52, longitude: 13.40))
        #expect(first.taskDuration == ProtoDuration(seconds: 300))
        #expect(first.targetTimeWindow?.endTime == Timestamp(seconds: 1_772_366_400))
        #expect(first.attributes == [TaskAttribute(key: "Zone", taskAttributeValue: .stringValue("A"))], "the key as written")
        let second = try #require(requests[1].task)
        #expect(second.type == .scheduledStop)
        #expect(second.trackingId == nil, "an empty cell leaves the field unset")
        #expect(second.targetTimeWindow == nil)
        #expect(second.attributes.isEmpty)
        let third = try #require(requests[2].task)
        #expect(third.plannedLocation == nil)
        #expect(third.attributes.first?.stringValue == "B, west", "quoted fields keep their commas")
    }

    @Test(arguments: [
        ("", "f.csv: the file is empty: expected a header naming task_id,type,duration"),
        ("task_id,type,duration\n", "f.csv: holds no tasks"),
        ("task_id,type\nt,delivery", "f.csv line 1: the header names no duration column (it must name task_id,type,duration)"),
        ("task_id,type,duration,colour\n", "f.csv line 1: unknown column 'colour'; the columns are task_id, type, duration, tracking_id, latitude, longitude, window_start, window_end and attribute.KEY"),
        ("task_id,type,duration,type\n", "f.csv line 1: the column 'type' is named twice"),
        ("task_id,type,duration,latitude\n", "f.csv line 1: the header names latitude without longitude"),
        ("task_id,type,duration\nt,delivery", "f.csv line 2: 2 fields, but the header names 3 columns"),
        ("task_id,type,duration\nt,parcel,5m", "f.csv line 2, column type: 'parcel' is not one of pickup, delivery, scheduled-stop, unavailable"),
        ("task_id,type,duration\nt,delivery,soon", "f.csv line 2, column duration: 'soon' is not a duration (300 for seconds, 5m, 1m30s)"),
        ("task_id,type,duration\n,delivery,5m", "f.csv line 2, column task_id: empty"),
        ("task_id,type,duration,latitude,longitude\nt,delivery,5m,52.5,", "f.csv line 2: give both latitude and longitude, or neither"),
        ("task_id,type,duration,latitude,longitude\nt,delivery,5m,north,13", "f.csv line 2, column latitude: 'north' is not a number"),
        ("task_id,type,duration,window_start,window_end\nt,delivery,5m,9am,10am", "f.csv line 2, column window_start: '9am' is not an RFC 3339 time (like 2026-03-01T09:00:00Z)"),
        ("task_id,type,duration\nt,delivery,5m\n\nt,pickup,1m", "f.csv line 4: task_id 't' is also on line 2"),
        ("task_id,type,duration\n\"t,delivery,5m", "f.csv line 2: a quoted field is not closed"),
    ])
    func aBadCSVFileNamesTheLineAndColumn(text: String, detail: String) {
        #expect(throws: FleetError(.badTaskFile, detail: detail)) { try TaskBatchFile.requests(from: text, source: "f.csv") }
    }

    @Test func aJSONFileHoldsRequestsOrTasks() throws {
        let array = """
        [{"taskId":"a","task":{"type":"DELIVERY","trackingId":"p","plannedLocation":{"point":{"latitude":1,"longitude":2}},"taskDuration":"60s"}},
         {"name":"providers/demo/tasks/b","type":"UNAVAILABLE","state":"OPEN","taskDuration":"1800s"}]
        """
        let requests = try TaskBatchFile.requests(from: array, source: "f.json")
        #expect(requests.map(\.taskId) == ["a", "b"])
        #expect(requests.map { $0.task?.state } == [.open, .open], "OPEN when the file gives no state")
        #expect(requests[1].task?.type == .unavailable)
        let batch = #"{"requests":[{"taskId":"c","task":{"type":"PICKUP","taskDuration":"5s"}}]}"#
        #expect(try TaskBatchFile.requests(from: batch, source: "f.json").map(\.taskId) == ["c"])
    }

    @Test func aBadJSONFileNamesTheElement() {
        #expect(throws: FleetError(.badTaskFile, detail: "f.json: requests[1] has the task ID 'a' of requests[0] too")) {
            try TaskBatchFile.requests(from: #"[{"taskId":"a","task":{}},{"taskId":"a","task":{}}]"#, source: "f.json")
        }
        #expect(throws: FleetError(.badTaskFile, detail: "f.json: requests[0] is a Task without a name (providers/P/tasks/ID) to take its ID from; or give {\"taskId\":…,\"task\":{…}}")) {
            try TaskBatchFile.requests(from: #"[{"type":"DELIVERY"}]"#, source: "f.json")
        }
        #expect(throws: FleetError(.badTaskFile, detail: "f.json: expected a JSON array of CreateTaskRequests or Tasks, or a BatchCreateTasksRequest {\"requests\":[…]}")) {
            try TaskBatchFile.requests(from: #"{"taskId":"a"}"#, source: "f.json")
        }
        do {
            _ = try TaskBatchFile.requests(from: #"[{"taskId":"a","task":{"colour":"red"}}]"#, source: "f.json")
            Issue.record("an unknown field was accepted")
        } catch let error as FleetError {
            #expect(error.code == .invalidArgument)
            #expect(error.message.hasPrefix("f.json: "), "\(error.message)")
            #expect(error.field == "requests[0].task", "\(String(describing: error.field))")
        } catch {
            Issue.record("not a FleetError: \(error)")
        }
    }

    @Test func batchesHoldAtMostFiveHundredTasksInFileOrder() {
        let requests = (0..<1001).map { CreateTaskRequest(taskId: "t-\($0)") }
        let batches = TaskBatchFile.batches(of: requests, parent: "providers/demo")
        #expect(batches.map(\.requests.count) == [500, 500, 1])
        #expect(batches.allSatisfy { $0.parent == "providers/demo" })
        #expect(batches[1].requests.first?.taskId == "t-500")
        #expect(TaskBatchFile.batches(of: [], parent: "providers/demo").isEmpty)
    }

    // MARK: Closing

    @Test func closingAnOpenTaskSetsItsStateAndAClosedOneOnlyItsOutcome() throws {
        let name = try TaskName(provider: "demo", taskID: "t-1")
        let time = Timestamp(seconds: 1_772_355_600)
        let open = TaskOutcomeUpdate(name: name, outcome: .failed, time: time, location: LatLng(latitude: 1, longitude: 2),
                                     current: DeliveryTask(state: .open)).request
        #expect(open.updateMask?.paths == ["state", "taskOutcome", "taskOutcomeTime", "taskOutcomeLocation"])
        #expect(open.task?.name == "providers/demo/tasks/t-1")
        #expect(open.task?.state == .closed)
        #expect(open.task?.taskOutcome == .failed)
        #expect(open.task?.taskOutcomeLocation?.point == LatLng(latitude: 1, longitude: 2))
        let closed = TaskOutcomeUpdate(name: name, outcome: .succeeded, time: time, location: nil,
                                       current: DeliveryTask(state: .closed)).request
        #expect(closed.updateMask?.paths == ["taskOutcome", "taskOutcomeTime"])
        #expect(closed.task?.state == nil)
        #expect(closed.task?.taskOutcomeTime == time)
    }

    // MARK: Output

    @Test func aTaskAndADeliveryVehicleForPeople() {
        let task = DeliveryTask(
            name: "providers/demo/tasks/t-1", type: .delivery, state: .closed, taskOutcome: .succeeded,
            taskOutcomeTime: Timestamp(seconds: 1_772_355_600), taskOutcomeLocation: LocationInfo(point: LatLng(latitude: 52.52, longitude: 13.4)),
            taskOutcomeLocationSource: .provider, trackingId: "p-1", deliveryVehicleId: "van-1",
            plannedLocation: LocationInfo(point: LatLng(latitude: 52.52, longitude: 13.4)), taskDuration: ProtoDuration(seconds: 300),
            attributes: [TaskAttribute(key: "zone", taskAttributeValue: .stringValue("A"))])
        #expect(TaskFormatting.row(task) == ["t-1", "DELIVERY", "CLOSED", "SUCCEEDED", "p-1", "van-1", "52.52000,13.40000", "5m00s"])
        #expect(TaskFormatting.details(task).lines() == [
            "Name:              providers/demo/tasks/t-1",
            "Type:              DELIVERY",
            "State:             CLOSED",
            "Tracking ID:       p-1",
            "Vehicle:           van-1",
            "Location:          52.52000,13.40000",
            "Duration:          5m00s",
            "Outcome:           SUCCEEDED",
            "Outcome time:      2026-03-01T09:00:00Z",
            "Outcome location:  52.52000,13.40000 (PROVIDER)",
            "Attributes:        zone=A",
        ])
        let vehicle = DeliveryVehicle(
            name: "providers/demo/deliveryVehicles/van-1",
            remainingVehicleJourneySegments: [
                VehicleJourneySegment(stop: VehicleStop(plannedLocation: LocationInfo(point: LatLng(latitude: 52.51, longitude: 13.42)),
                                                        tasks: [.init(taskId: "t-2"), .init(taskId: "t-3")], state: .enroute),
                                      drivingDistanceMeters: 1240, drivingDuration: ProtoDuration(seconds: 245)),
                VehicleJourneySegment(stop: VehicleStop(plannedLocation: LocationInfo(point: LatLng(latitude: 52.5, longitude: 13.45)),
                                                        tasks: [.init(taskId: "t-4")], state: .new)),
            ],
            type: .bicycle)
        let lines = DeliveryVehicleFormatting.details(vehicle).lines()
        #expect(lines.contains("Stops:     1. ENROUTE 52.51000,13.42000 t-2,t-3 (1.2 km, 4m05s)"), "\(lines)")
        #expect(lines.contains("           2. NEW 52.50000,13.45000 t-4"), "\(lines)")
        var estimated = vehicle
        estimated.estimatedLegs = [EstimatedRouteLeg(leg: 1, cause: "POINT_OFF_MAP", reason: "to 52.5,13.45 is more than 1 km from any road")]
        #expect(DeliveryVehicleFormatting.details(estimated).lines()
            .contains("Estimated legs:  to stop 2: POINT_OFF_MAP to 52.5,13.45 is more than 1 km from any road"),
                "\(DeliveryVehicleFormatting.details(estimated).lines())")
        #expect(DeliveryVehicleFormatting.row(vehicle) == ["van-1", "BICYCLE", "-", "-", "-", "-"])
    }
}
