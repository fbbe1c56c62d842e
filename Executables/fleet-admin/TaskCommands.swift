import FleetCLI
import Foundation
import FleetErrors
import FleetModel
import FleetOperator

/// `fleet-admin tasks …` (Deliveries): create, get, list, update, close, delete, batch-create and
/// tracking-info.
enum TaskCommands {
    /// The `tasks` group.
    static let command = Command(
        "tasks", abstract: "Create, show, list, update, close and delete delivery tasks; batch-create them; show what a customer tracks.",
        discussion: "A task is one thing done at one place (a pickup, a delivery, a scheduled stop, a break). It is assigned by putting it on a delivery vehicle's stop (fleet-admin delivery-vehicles update --stop), closed when its stop is removed, and its outcome recorded with tasks close.",
        subcommands: [create, get, list, update, close, delete, batchCreate, trackingInfo])

    /// The `<task>` argument.
    static let taskArgument = Argument("task", help: "The task ID (with --provider) or its full name providers/P/tasks/T.")


    // MARK: create

    /// `tasks create`.
    static let create = AdminCommand.make(
        "create", abstract: "Create a task (OPEN).",
        discussion: "Fields come from flags, or from a Task JSON body (--json-body FILE, or -) that flags then override field by field. --type and --duration are required; --tracking-id is required for pickups and deliveries and refused for scheduled stops and breaks; --location is required unless the task is a break (unavailable). The task is created OPEN and unassigned: put it on a delivery vehicle's stop to assign it.",
        options: TaskFlags.createOptions + JSONBodyFlag<DeliveryTask>.options,
        arguments: [taskArgument],
        examples: [
            Example("fleet-admin --provider demo tasks create t-1 --type delivery --tracking-id parcel-17 --location 52.52,13.40 --duration 5m",
                    "A five-minute delivery of parcel-17."),
            Example("fleet-admin --provider demo tasks create t-2 --type pickup --tracking-id parcel-18 --location 52.50,13.45 --duration 2m --window 2026-03-01T09:00:00Z,2026-03-01T12:00:00Z --attribute 'note=ring twice, then wait'",
                    "A pickup in a morning window, with a note."),
            Example("fleet-admin --provider demo tasks create lunch --type unavailable --duration 30m", "A break: no tracking ID, no location."),
        ]) { session in
        let name = try session.taskName(try session.arguments.require(taskArgument))
        let flags = try TaskFlags(session.arguments)
        let body = try JSONBody<DeliveryTask>.read(session, path: "task")
        let task = flags.taskToCreate(body: body?.message)
        // Checked here so the message names the flag, not the API field it fills (task.type).
        guard task.type != nil else {
            throw session.arguments.usageError("--type is required: pickup, delivery, scheduled-stop or unavailable (or type in --json-body)")
        }
        guard task.taskDuration != nil else {
            throw session.arguments.usageError("--duration is required: how long the task takes, like 5m (or taskDuration in --json-body)")
        }
        let request = CreateTaskRequest(parent: "providers/\(name.provider)", taskId: name.taskID, task: task)
        let created = try session.withAPI { try $0.createTask(request) }
        session.printer.single(created, details: TaskFormatting.details)
        return 0
    }

    // MARK: get

    /// `tasks get`.
    static let get = AdminCommand.make(
        "get", abstract: "Show a task.",
        arguments: [taskArgument],
        examples: [
            Example("fleet-admin --provider demo tasks get t-1", "Its state, outcome, vehicle and location."),
            Example("fleet-admin tasks get providers/demo/tasks/t-1 --json", "Fleet Engine's JSON of the task."),
        ]) { session in
        let name = try session.taskName(try session.arguments.require(taskArgument))
        let task = try session.withAPI { try $0.getTask(GetTaskRequest(name: name.description)) }
        session.printer.single(task, details: TaskFormatting.details)
        return 0
    }

    // MARK: list

    /// The options of `tasks list`.
    struct ListFlags: OptionGroup {
        @Option("filter", valueName: "expr",
                help: "Fleet Engine's task filter (AIP-160), passed through: like state = OPEN, delivery_vehicle_id = \"van-1\", task_outcome = FAILED, tracking_id = \"parcel-17\" or attributes.zone = \"A\", joined with AND or OR.")
        var filter: String?
        @Option("page-size", valueName: "n", help: "Tasks per request.", default: "100", check: .within(1...Int32.max))
        var pageSize: Int32
        @Option("limit", valueName: "n", help: "Stop after N tasks.")
        var limit: Int?

        init() {}
    }

    /// `tasks list`.
    static let list = AdminCommand.make(
        "list", abstract: "List tasks (every page; a progress bar on a terminal).",
        discussion: "Follows nextPageToken to the end (or to --limit), printing JSON lines and JSON array elements as pages arrive.",
        options: ListFlags.options,
        examples: [
            Example("fleet-admin --provider demo tasks list --filter 'delivery_vehicle_id = \"van-1\" AND state = OPEN'", "What van-1 still has to do."),
            Example("fleet-admin --provider demo tasks list --filter 'task_outcome = FAILED' --jsonl | jq -r .trackingId",
                    "The tracking IDs of failed tasks, for a pipe."),
        ]) { session in
        let flags = try ListFlags(session.arguments)
        let request = ListTasksRequest(parent: try session.parent(), pageSize: flags.pageSize, filter: flags.filter)
        let limit = flags.limit
        let writer = session.printer.list(of: DeliveryTask.self, table: TaskFormatting.table)
        try session.withAPI { api in
            try FleetPager(api: api, progress: session.progress("Listing tasks")).tasks(request, limit: limit) { writer.add($0) }
        }
        writer.finish()
        return 0
    }

    // MARK: update

    /// `tasks update`.
    static let update = AdminCommand.make(
        "update", abstract: "Change a task's window or attributes.",
        discussion: "The update mask is made from the flags given. A task's type, tracking ID, location and duration cannot change; its state and outcome are set by tasks close. With --json-body, the body's top-level fields join the mask, or --mask names the fields to take from it (taskTrackingViewConfig, for one); flags override the body.",
        options: TaskFlags.updateOptions + JSONBodyFlag<DeliveryTask>.options + MaskFlag.options,
        arguments: [taskArgument],
        examples: [
            Example("fleet-admin --provider demo tasks update t-1 --window 2026-03-01T13:00:00Z,2026-03-01T15:00:00Z", "Move the delivery to the afternoon."),
            Example("fleet-admin --provider demo tasks update t-1 --attribute zone=B", "Replace the attributes."),
        ]) { session in
        let name = try session.taskName(try session.arguments.require(taskArgument))
        let flags = try TaskFlags(session.arguments)
        let body = try JSONBody<DeliveryTask>.read(session, path: "task")
        let paths = MaskFlag.unique((try MaskFlag(session.arguments).paths ?? body?.fields ?? []) + flags.paths)
        guard !paths.isEmpty else {
            throw session.arguments.usageError("nothing to update: give a field flag (--window, --attribute) or --json-body")
        }
        var task = flags.applied(to: body?.message ?? DeliveryTask())
        task.name = name.description
        let updated = try session.withAPI { try $0.updateTask(UpdateTaskRequest(task: task, updateMask: FieldMask(paths))) }
        session.printer.single(updated, details: TaskFormatting.details)
        return 0
    }

    // MARK: close

    /// The options of `tasks close`.
    struct CloseFlags: OptionGroup {
        @Option("outcome", valueName: "outcome", help: "How it went (required): succeeded, or failed (not done, or cancelled).",
                accepted: Vocabulary.taskOutcomes)
        var outcome: DeliveryTask.TaskOutcome?
        @Option("at", valueName: "time", help: "When the outcome happened (taskOutcomeTime), RFC 3339; default: now.", transform: FlagValue.timestamp)
        var time: Timestamp?
        @Option("location", valueName: "lat,lng",
                help: "Where the outcome happened (taskOutcomeLocation); without it Fleet Engine takes the vehicle's last location.",
                transform: FlagValue.latLng)
        var location: LatLng?

        init() {}
    }

    /// `tasks close`.
    static let close = AdminCommand.make(
        "close", abstract: "Close a task and record its outcome (UpdateTask).",
        discussion: "Sets the outcome, its time and place, and the state CLOSED when the task is still OPEN. Fleet Engine allows this only once the task is no longer among a vehicle's remaining stops: a task assigned to a delivery vehicle is closed by removing its stop (delivery-vehicles update --stop … without it, or --no-stops), and this command then records the outcome. An unassigned task is closed directly. An outcome cannot change once set.",
        options: CloseFlags.options,
        arguments: [taskArgument],
        examples: [
            Example("fleet-admin --provider demo tasks close t-1 --outcome succeeded", "Delivered, now, where the vehicle is."),
            Example("fleet-admin --provider demo tasks close t-2 --outcome failed --at 2026-03-01T10:42:00Z --location 52.50,13.45",
                    "Nobody home at 10:42, at that door."),
        ]) { session in
        let arguments = session.arguments
        let name = try session.taskName(try arguments.require(taskArgument))
        let flags = try CloseFlags(arguments)
        guard let outcome = flags.outcome else {
            throw arguments.usageError("--outcome is required: succeeded or failed")
        }
        let time = flags.time ?? Timestamp(date: Date())
        let location = flags.location
        let closed = try session.withAPI { api in
            let current = try api.getTask(GetTaskRequest(name: name.description))
            let request = TaskOutcomeUpdate(name: name, outcome: outcome, time: time, location: location, current: current).request
            return try api.updateTask(request)
        }
        session.printer.single(closed, details: TaskFormatting.details)
        return 0
    }

    // MARK: delete

    /// `tasks delete`.
    static let delete = AdminCommand.make(
        "delete", abstract: "Delete a task that is not open on a vehicle.",
        arguments: [taskArgument],
        examples: [Example("fleet-admin --provider demo tasks delete t-1", "Fails with FAILED_PRECONDITION (exit 19) while OPEN and on a vehicle's stop.")]) { session in
        let name = try session.taskName(try session.arguments.require(taskArgument))
        try session.withAPI { try $0.deleteTask(DeleteTaskRequest(name: name.description)) }
        DeletionReport.print(name.description, session: session)
        return 0
    }

    // MARK: batch-create

    /// `tasks batch-create <file>`.
    static let fileArgument = Argument("file", help: "The CSV or JSON file of tasks, or - for standard input.", completion: .files)

    /// `tasks batch-create`.
    static let batchCreate = AdminCommand.make(
        "batch-create", abstract: "Create tasks from a CSV or JSON file (BatchCreateTasks, 500 a call).",
        discussion: "CSV: a header naming the columns task_id, type, duration (300 for seconds, 5m) and, as needed, tracking_id, latitude, longitude, window_start, window_end (RFC 3339) and attribute.KEY; one task per row; an empty cell leaves its field unset. JSON: an array of CreateTaskRequests ({\"taskId\":…,\"task\":{…}}) or of Tasks named providers/P/tasks/ID, or a BatchCreateTasksRequest ({\"requests\":[…]}). The whole file is read and checked first, so a bad row creates nothing. Then one BatchCreateTasks call per 500 tasks, each all or none: if a call fails, the tasks of the calls before it exist (standard error says how many) and none after. Prints the tasks created.",
        arguments: [fileArgument],
        examples: [
            Example("fleet-admin --provider demo tasks batch-create round.csv",
                    "With round.csv like: task_id,type,tracking_id,latitude,longitude,duration / t-1,delivery,parcel-17,52.52,13.40,5m"),
            Example("fleet-admin --provider demo tasks batch-create tasks.json --json", "Tasks from JSON; the created tasks as a JSON array."),
        ]) { session in
        let parent = try session.parent()
        let path = try session.arguments.require(fileArgument)
        let text = try InputFiles.text(path, standardInput: session.context.standardInput)
        let requests = try TaskBatchFile.requests(from: text, source: path == "-" ? "standard input" : path)
        let batches = TaskBatchFile.batches(of: requests, parent: parent)
        let writer = session.printer.list(of: DeliveryTask.self, table: TaskFormatting.table)
        let progress = session.progress("Creating tasks")
        try session.withAPI { api in
            for (index, batch) in batches.enumerated() {
                do {
                    writer.add(try api.batchCreateTasks(batch).tasks)
                } catch {
                    progress.finish()
                    if writer.itemCount > 0 { writer.finish() }
                    session.context.printError("BatchCreateTasks call \(index + 1) of \(batches.count) (\(batch.requests.count) of the tasks) failed and created none; \(writer.itemCount) of \(requests.count) tasks were created before it.")
                    throw error
                }
                progress.update(done: writer.itemCount, total: requests.count)
            }
        }
        progress.finish()
        writer.finish()
        if session.format == .table {
            let tasks = writer.itemCount == 1 ? "1 task" : "\(writer.itemCount) tasks"
            session.printer.write(["Created \(tasks) in \(batches.count) BatchCreateTasks call\(batches.count == 1 ? "" : "s")."])
        }
        return 0
    }

    // MARK: tracking-info

    /// `tasks tracking-info <tracking-id>`.
    static let trackingArgument = Argument(
        "tracking-id", help: "The tracking ID (with --provider) or its full name providers/P/taskTrackingInfo/T.")

    /// `tasks tracking-info`.
    static let trackingInfo = AdminCommand.make(
        "tracking-info", abstract: "Show what a customer tracking a shipment sees (GetTaskTrackingInfo).",
        discussion: "The tasks of a tracking ID as a customer's app gets them: state, outcome, planned location and window, and, as the task's tracking view configuration allows, the vehicle's location, stops before it, distance and ETA.",
        arguments: [trackingArgument],
        examples: [
            Example("fleet-admin --provider demo tasks tracking-info parcel-17", "Where parcel-17 is and when it arrives."),
            Example("fleet-admin --provider demo tasks tracking-info parcel-17 --json", "The TaskTrackingInfo JSON."),
        ]) { session in
        let name = try session.trackingInfoName(try session.arguments.require(trackingArgument))
        let info = try session.withAPI { try $0.getTaskTrackingInfo(GetTaskTrackingInfoRequest(name: name.description)) }
        session.printer.single(info, details: TaskFormatting.trackingDetails)
        return 0
    }
}
