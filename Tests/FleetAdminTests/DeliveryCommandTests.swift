import FleetModel
import Foundation
import Testing

/// `fleet-admin delivery-vehicles …` and `fleet-admin tasks …` run as a binary: the usage errors
/// name their flag, and a delivery round runs over every transport.
@Suite struct DeliveryCommandTests {
    /// The first lines of a usage error: the message, then where help is.
    private func expectUsageError(_ fleet: AdminFleet, _ arguments: [String], _ message: String, command: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try fleet.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result)", sourceLocation: sourceLocation)
        #expect(result.error == "fleet-admin: \(message)\nSee 'fleet-admin \(command) --help'.\n", sourceLocation: sourceLocation)
    }

    @Test func malformedFlagsAreUsageErrorsNamingTheFlag() throws {
        let fleet = try AdminFleet(.memory)
        try expectUsageError(fleet, ["tasks", "create", "t-1", "--duration", "5m"],
                             "--type is required: pickup, delivery, scheduled-stop or unavailable (or type in --json-body)", command: "tasks create")
        try expectUsageError(fleet, ["tasks", "create", "t-1", "--type", "delivery"],
                             "--duration is required: how long the task takes, like 5m (or taskDuration in --json-body)", command: "tasks create")
        try expectUsageError(fleet, ["tasks", "create", "t-1", "--type", "parcel", "--duration", "5m"],
                             "--type: 'parcel' is not one of pickup, delivery, scheduled-stop, unavailable", command: "tasks create")
        try expectUsageError(fleet, ["tasks", "create", "t-1", "--type", "delivery", "--duration", "soon"],
                             "--duration: 'soon' is not a duration (write it like 500ms, 30s, 5m, 1h or 1m30s)", command: "tasks create")
        try expectUsageError(fleet, ["tasks", "create", "t-1", "--type", "delivery", "--duration", "5m", "--window", "9:00,12:00"],
                             "--window: '9:00,12:00' is not FROM,TO in RFC 3339 (like 2026-03-01T09:00:00Z,2026-03-01T12:00:00Z)",
                             command: "tasks create")
        try expectUsageError(fleet, ["tasks", "create", "t-1", "--type", "delivery", "--duration", "5m", "--attribute", "fragile"],
                             "--attribute: 'fragile' is not KEY=VALUE (write --attribute k=v, once per attribute)", command: "tasks create")
        try expectUsageError(fleet, ["tasks", "close", "t-1"], "--outcome is required: succeeded or failed", command: "tasks close")
        try expectUsageError(fleet, ["tasks", "close", "t-1", "--outcome", "delivered"],
                             "--outcome: 'delivered' is not one of succeeded, failed", command: "tasks close")
        try expectUsageError(fleet, ["tasks", "close", "t-1", "--outcome", "failed", "--at", "noon"],
                             "--at: 'noon' is not an RFC 3339 time (like 2026-03-01T09:00:00Z)", command: "tasks close")
        try expectUsageError(fleet, ["tasks", "update", "t-1"],
                             "nothing to update: give a field flag (--window, --attribute) or --json-body", command: "tasks update")
        try expectUsageError(fleet, ["tasks", "list", "--page-size", "0"], "--page-size: 0 is out of range (1…2147483647)", command: "tasks list")
        try expectUsageError(fleet, ["tasks", "batch-create"], "missing argument <file>", command: "tasks batch-create")
        try expectUsageError(fleet, ["delivery-vehicles", "create", "van-1", "--type", "truck"],
                             "--type: 'truck' is not one of auto, two-wheeler, bicycle, pedestrian", command: "delivery-vehicles create")
        try expectUsageError(fleet, ["delivery-vehicles", "update", "van-1", "--stop", "52.52,13.40"],
                             "--stop: '52.52,13.40' is not LAT,LNG:TASK[,TASK…][:STATE] (like 52.52,13.40:task-1,task-2)",
                             command: "delivery-vehicles update")
        try expectUsageError(fleet, ["delivery-vehicles", "update", "van-1", "--stop", "52.52,13.40:t-1:parked"],
                             "--stop: '52.52,13.40:t-1:parked' ends with the state 'parked', which is not one of new, enroute, arrived",
                             command: "delivery-vehicles update")
        try expectUsageError(fleet, ["delivery-vehicles", "update", "van-1", "--stop", "52.52,13.40:t-1", "--no-stops"],
                             "--stop and --no-stops cannot be used together", command: "delivery-vehicles update")
        try expectUsageError(fleet, ["delivery-vehicles", "update", "van-1"],
                             "nothing to update: give a field flag (--location, --stop, --no-stops, --attribute, --type) or --json-body",
                             command: "delivery-vehicles update")
        try expectUsageError(fleet, ["delivery-vehicles", "list", "--viewport", "52.5,13.3"],
                             "--viewport: '52.5,13.3' is not LOW_LAT,LOW_LNG,HIGH_LAT,HIGH_LNG (like 52.50,13.35,52.55,13.45)",
                             command: "delivery-vehicles list")
        try expectUsageError(fleet, ["delivery-vehicles", "create", "van-1", "--stop", "52.52,13.40:t-1"],
                             "unknown option '--stop'", command: "delivery-vehicles create")
        try expectUsageError(fleet, ["--provider", "demo", "tasks", "get", "providers/other/tasks/t-1"],
                             "providers/other/tasks/t-1 belongs to provider 'other', but --provider is 'demo'", command: "tasks get")
    }

    @Test func aBadTaskFileCreatesNothingAndNamesTheLine() throws {
        let fleet = try AdminFleet(.memory)
        let file = try fleet.write("round.csv", "task_id,type,tracking_id,latitude,longitude,duration\nt-1,delivery,p-1,52.52,13.40,5m\nt-2,delivery,p-2,north,13.40,5m\n")
        let result = try fleet.run(["tasks", "batch-create", file])
        #expect(result.status == 13, "\(result)")
        #expect(result.output == "")
        #expect(result.error.unwrapped.contains("INVALID_ARGUMENT: The task file cannot be read as tasks: \(file) line 3, column latitude: 'north' is not a number"),
                "\(result.error)")
        #expect(result.error.unwrapped.contains("Cause: BAD_TASK_FILE"))
        let missing = try fleet.run(["tasks", "batch-create", fleet.path("nowhere.csv")])
        #expect(missing.status == 13, "\(missing)")
        #expect(missing.error.unwrapped.contains("cannot open \(fleet.path("nowhere.csv"))"))
    }

    /// A delivery round: a van, three tasks from a CSV file, assigned as stops, one delivered, one
    /// failed, the lists and what the customers see.
    @Test(arguments: AdminTransport.allCases)
    func aDeliveryRound(transport: AdminTransport) throws {
        let fleet = try AdminFleet(transport)
        let van = try fleet.json(DeliveryVehicle.self, ["delivery-vehicles", "create", "van-1", "--type", "auto", "--location", "52.52,13.40",
                                                        "--attribute", "depot=north"])
        #expect(van.name == "providers/demo/deliveryVehicles/van-1")
        #expect(van.type == .auto)
        #expect(van.attributes.map(\.key) == ["depot"])

        let csv = try fleet.write("round.csv", """
            task_id,type,tracking_id,latitude,longitude,duration,window_start,window_end,attribute.zone
            t-1,delivery,parcel-1,52.521,13.401,5m,,,A
            t-2,delivery,parcel-2,52.51,13.42,300,2026-03-01T09:00:00Z,2026-03-01T12:00:00Z,B
            t-3,pickup,parcel-3,52.50,13.45,2m,,,
            """)
        let created = try fleet.succeed(["tasks", "batch-create", csv]).split(separator: "\n").map(String.init)
        #expect(created.first?.hasPrefix("ID   TYPE      STATE  OUTCOME  TRACKING ID") == true, "\(created)")
        #expect(created.dropFirst().map { $0.split(separator: " ").first.map(String.init) } == ["t-1", "t-2", "t-3", "Created"], "\(created)")
        #expect(created.last == "Created 3 tasks in 1 BatchCreateTasks call.")
        let second = try fleet.json(DeliveryTask.self, ["tasks", "get", "t-2"])
        #expect(second.state == .open)
        #expect(second.taskDuration == ProtoDuration(seconds: 300))
        #expect(second.targetTimeWindow?.startTime == Timestamp(seconds: 1_772_355_600))
        #expect(second.attributes == [TaskAttribute(key: "zone", taskAttributeValue: .stringValue("B"))])

        let assigned = try fleet.json(DeliveryVehicle.self, ["delivery-vehicles", "update", "van-1", "--stop", "52.521,13.401:t-1:enroute",
                                                             "--stop", "52.51,13.42:t-2", "--stop", "52.50,13.45:t-3"])
        #expect(assigned.remainingVehicleJourneySegments.map { $0.stop?.tasks.compactMap(\.taskId) } == [["t-1"], ["t-2"], ["t-3"]])
        #expect(assigned.remainingVehicleJourneySegments.map { $0.stop?.state } == [.enroute, .new, .new])
        #expect(try fleet.json(DeliveryTask.self, ["tasks", "get", "t-1"]).deliveryVehicleId == "van-1")

        // A task still on a stop is not closed with UpdateTask (Fleet Engine's rule).
        let onItsStop = try fleet.run(["tasks", "close", "t-1", "--outcome", "succeeded"])
        #expect(onItsStop.status == 19, "\(onItsStop)")
        #expect(onItsStop.error.unwrapped.contains("ASSIGNED_TASK_CLOSED_BY_ITS_STOP"), "\(onItsStop.error)")

        // t-1 delivered: its stop goes, which closes it; then its outcome.
        try fleet.succeed(["delivery-vehicles", "update", "van-1", "--location", "52.521,13.401",
                           "--stop", "52.51,13.42:t-2:enroute", "--stop", "52.50,13.45:t-3"])
        #expect(try fleet.json(DeliveryTask.self, ["tasks", "get", "t-1"]).state == .closed, "removing its stop closes a task")
        let delivered = try fleet.succeed(["tasks", "close", "t-1", "--outcome", "succeeded"])
        #expect(delivered.value(of: "State") == "CLOSED", "\(delivered)")
        #expect(delivered.value(of: "Outcome") == "SUCCEEDED", "\(delivered)")

        // t-2 failed at a given time and place.
        try fleet.succeed(["delivery-vehicles", "update", "van-1", "--stop", "52.50,13.45:t-3:enroute"])
        let failed = try fleet.json(DeliveryTask.self, ["tasks", "close", "t-2", "--outcome", "failed", "--at", "2026-03-01T10:42:00Z",
                                                        "--location", "52.5101,13.4202"])
        #expect(failed.state == .closed)
        #expect(failed.taskOutcome == .failed)
        #expect(failed.taskOutcomeTime == Timestamp(seconds: 1_772_361_720))
        #expect(failed.taskOutcomeLocation?.point == LatLng(latitude: 52.5101, longitude: 13.4202))
        #expect(failed.taskOutcomeLocationSource == .provider)

        let again = try fleet.run(["tasks", "close", "t-2", "--outcome", "succeeded"])
        #expect(again.status != 0, "an outcome cannot change once set: \(again)")

        let open = try fleet.succeed(["tasks", "list", "--filter", "state = OPEN", "--jsonl"])
            .split(separator: "\n").map { try DeliveryTask(jsonString: String($0)).name }
        #expect(open == ["providers/demo/tasks/t-3"])
        let all = try #require(try JSON.parse(try fleet.succeed(["tasks", "list", "--json", "--page-size", "1"])).arrayValue)
        #expect(all.count == 3, "every page")
        let zoneB = try fleet.succeed(["tasks", "list", "--filter", "attributes.zone = \"B\" AND state = CLOSED"])
        #expect(zoneB.split(separator: "\n").dropFirst().map { $0.split(separator: " ").first } == ["t-2"], "\(zoneB)")

        let pending = try fleet.json(TaskTrackingInfo.self, ["tasks", "tracking-info", "parcel-3"])
        #expect(pending.trackingId == "parcel-3")
        #expect(pending.state == .open)
        #expect(pending.plannedLocation?.point == LatLng(latitude: 52.50, longitude: 13.45))
        // Its stop is the van's next: remainingStopCount 1 counts that stop, so none comes before it.
        #expect(pending.remainingStopCount == 1)
        #expect(try fleet.succeed(["tasks", "tracking-info", "parcel-3"]).value(of: "Stops before it") == "0")
        #expect(try fleet.succeed(["tasks", "get", "t-3"]).value(of: "Stops before it") == "0")
        let done = try fleet.succeed(["tasks", "tracking-info", "parcel-1"])
        #expect(done.value(of: "State") == "CLOSED", "\(done)")
        #expect(done.value(of: "Outcome") == "SUCCEEDED", "\(done)")
        let unknown = try fleet.run(["tasks", "tracking-info", "parcel-9"])
        #expect(unknown.status == 15, "\(unknown)")

        let listed = try fleet.succeed(["delivery-vehicles", "list", "--filter", "attributes.depot = \"north\""])
        #expect(listed.split(separator: "\n").dropFirst().map { $0.split(separator: " ").first } == ["van-1"], "\(listed)")
        let shown = try fleet.succeed(["delivery-vehicles", "get", "van-1"])
        #expect(shown.value(of: "Stops")?.hasPrefix("1. ENROUTE 52.50000,13.45000 t-3") == true, "\(shown)")

        let busy = try fleet.run(["tasks", "delete", "t-3"])
        #expect(busy.status == 19, "an OPEN task on a stop cannot be deleted: \(busy)")
        try fleet.succeed(["delivery-vehicles", "update", "van-1", "--no-stops"])
        #expect(try fleet.json(DeliveryTask.self, ["tasks", "get", "t-3"]).state == .closed, "--no-stops closes the rest")
        #expect(try fleet.succeed(["tasks", "delete", "t-3"]) == "Deleted providers/demo/tasks/t-3\n")
        #expect(try fleet.succeed(["delivery-vehicles", "delete", "van-1"]) == "Deleted providers/demo/deliveryVehicles/van-1\n")
    }
}
