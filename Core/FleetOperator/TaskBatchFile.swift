import FleetCLI
import FleetErrors
import FleetLocation
import FleetModel

/// A file of tasks for `fleet-admin tasks batch-create`, read whole before anything is created, so a
/// mistake anywhere in it creates nothing. Two forms, told apart by the first character that is not space:
///
/// - **CSV** with a header naming the columns (any order, any case; blank lines and lines starting with
///   `#` are skipped; fields may be quoted, `""` for a quote; one row per line):
///
///   | column | required | meaning |
///   |---|---|---|
///   | `task_id` | yes | the task ID |
///   | `type` | yes | `pickup`, `delivery`, `scheduled-stop` or `unavailable` (any case, `-` or `_`) |
///   | `duration` | yes | `taskDuration`: `300` (seconds), `5m`, `1m30s` |
///   | `tracking_id` | | `trackingId` (required by pickups and deliveries, refused for the other types) |
///   | `latitude`, `longitude` | | `plannedLocation` (both or neither; required unless `unavailable`) |
///   | `window_start`, `window_end` | | `targetTimeWindow`, RFC 3339 (both or neither) |
///   | `attribute.KEY` | | an attribute `KEY` with the cell as its string value (empty: no attribute) |
///
///   An empty cell of an optional column leaves the field unset.
/// - **JSON** (`[` or `{` first): an array whose elements are `CreateTaskRequest`s (`{"taskId":…,"task":{…}}`)
///   or `Task`s whose `name` (`providers/P/tasks/ID`) gives the ID; or a `BatchCreateTasksRequest`
///   (`{"requests":[…]}`).
///
/// Every task is created OPEN (Fleet Engine's rule); JSON tasks that give no state get it.
public enum TaskBatchFile {
    /// The columns a CSV file must name.
    public static let requiredColumns = ["task_id", "type", "duration"]
    /// The other columns it may name (besides `attribute.KEY`).
    public static let optionalColumns = ["tracking_id", "latitude", "longitude", "window_start", "window_end"]
    /// The prefix of attribute columns.
    public static let attributePrefix = "attribute."
    /// The most tasks one BatchCreateTasks call takes (Fleet Engine's limit).
    public static let maximumBatchSize = 500

    /// The task types a CSV `type` cell may name.
    static let taskTypes: [DeliveryTask.TaskType] = DeliveryTask.TaskType.allKnown.filter { $0 != .typeUnspecified }

    /// The requests `text` holds, in file order, each with its `taskId` and an OPEN task. `source` names
    /// the file in errors.
    ///
    /// - Throws: INVALID_ARGUMENT (`BAD_TASK_FILE`) naming the line (CSV) or element (JSON) and what is
    ///   wrong: a header without the required columns, an unknown or repeated column, a malformed cell, a
    ///   task ID given twice, no tasks at all; or the INVALID_ARGUMENT of a JSON element, naming its field.
    public static func requests(from text: String, source: String) throws(FleetError) -> [CreateTaskRequest] {
        let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let isJSON = body.first(where: { !$0.isWhitespace }).map { $0 == "[" || $0 == "{" } ?? false
        let requests = isJSON ? try jsonRequests(body, source: source) : try csvRequests(body, source: source)
        guard !requests.isEmpty else { throw problem("\(source): holds no tasks") }
        return requests
    }

    /// The BatchCreateTasks requests that create `requests` under `parent`, `maximumBatchSize` a call, in order.
    public static func batches(of requests: [CreateTaskRequest], parent: String,
                               size: Int = maximumBatchSize) -> [BatchCreateTasksRequest] {
        stride(from: 0, to: requests.count, by: max(1, size)).map { start in
            BatchCreateTasksRequest(parent: parent, requests: Array(requests[start..<min(start + max(1, size), requests.count)]))
        }
    }

    // MARK: CSV

    /// Where each known column sits, and the attribute columns.
    private struct Columns {
        var index: [String: Int] = [:]
        var attributes: [(key: String, index: Int)] = []
        var count = 0

        func cell(_ name: String, in fields: [String]) -> String? {
            guard let position = index[name] else { return nil }
            let text = fields[position].trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? nil : text
        }
    }

    private static func csvRequests(_ text: String, source: String) throws(FleetError) -> [CreateTaskRequest] {
        var columns: Columns?
        var requests: [CreateTaskRequest] = []
        var lineOfTask: [String: Int] = [:]
        for (offset, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = offset + 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let fields = CSVLocationDecoder.split(String(line), separator: ",") else {
                throw problem("\(source) line \(number): a quoted field is not closed")
            }
            guard let known = columns else {
                columns = try header(fields, place: "\(source) line \(number)")
                continue
            }
            guard fields.count == known.count else {
                throw problem("\(source) line \(number): \(fields.count) fields, but the header names \(known.count) columns")
            }
            let request = try row(fields, columns: known, place: "\(source) line \(number)")
            let id = request.taskId ?? ""
            if let first = lineOfTask[id] {
                throw problem("\(source) line \(number): task_id '\(id)' is also on line \(first)")
            }
            lineOfTask[id] = number
            requests.append(request)
        }
        guard columns != nil else {
            throw problem("\(source): the file is empty: expected a header naming \(requiredColumns.joined(separator: ","))")
        }
        return requests
    }

    private static func header(_ fields: [String], place: String) throws(FleetError) -> Columns {
        var columns = Columns(count: fields.count)
        for (position, field) in fields.enumerated() {
            let written = field.trimmingCharacters(in: .whitespaces)
            let name = written.lowercased()
            if name.hasPrefix(attributePrefix) {
                let key = String(written.dropFirst(attributePrefix.count))
                guard !key.isEmpty else { throw problem("\(place): the column '\(written)' names no attribute key") }
                guard !columns.attributes.contains(where: { $0.key == key }) else {
                    throw problem("\(place): the column '\(written)' is named twice")
                }
                columns.attributes.append((key, position))
                continue
            }
            guard requiredColumns.contains(name) || optionalColumns.contains(name) else {
                throw problem("\(place): unknown column '\(written)'; the columns are \((requiredColumns + optionalColumns).joined(separator: ", ")) and attribute.KEY")
            }
            guard columns.index[name] == nil else { throw problem("\(place): the column '\(written)' is named twice") }
            columns.index[name] = position
        }
        for name in requiredColumns where columns.index[name] == nil {
            throw problem("\(place): the header names no \(name) column (it must name \(requiredColumns.joined(separator: ",")))")
        }
        for (one, other) in [("latitude", "longitude"), ("window_start", "window_end")]
        where (columns.index[one] == nil) != (columns.index[other] == nil) {
            throw problem("\(place): the header names \(columns.index[one] == nil ? other : one) without \(columns.index[one] == nil ? one : other)")
        }
        return columns
    }

    private static func row(_ fields: [String], columns: Columns, place: String) throws(FleetError) -> CreateTaskRequest {
        guard let id = columns.cell("task_id", in: fields) else { throw problem("\(place), column task_id: empty") }
        guard let typeText = columns.cell("type", in: fields) else { throw problem("\(place), column type: empty") }
        let typeName = String(typeText.uppercased().map { $0 == "-" || $0 == " " ? "_" : $0 })
        guard let type = taskTypes.first(where: { $0.name == typeName }) else {
            throw problem("\(place), column type: '\(typeText)' is not one of pickup, delivery, scheduled-stop, unavailable")
        }
        guard let durationText = columns.cell("duration", in: fields) else { throw problem("\(place), column duration: empty") }
        guard let duration = DurationText.parse(durationText) else {
            throw problem("\(place), column duration: '\(durationText)' is not a duration (300 for seconds, 5m, 1m30s)")
        }
        var task = DeliveryTask(type: type, state: .open, trackingId: columns.cell("tracking_id", in: fields),
                                taskDuration: ProtoDuration(duration))
        switch (columns.cell("latitude", in: fields), columns.cell("longitude", in: fields)) {
        case (nil, nil):
            break
        case let (latitude?, longitude?):
            guard let lat = Double(latitude), lat.isFinite else { throw problem("\(place), column latitude: '\(latitude)' is not a number") }
            guard let lng = Double(longitude), lng.isFinite else { throw problem("\(place), column longitude: '\(longitude)' is not a number") }
            task.plannedLocation = LocationInfo(point: LatLng(latitude: lat, longitude: lng))
        case (nil, _?), (_?, nil):
            throw problem("\(place): give both latitude and longitude, or neither")
        }
        switch (columns.cell("window_start", in: fields), columns.cell("window_end", in: fields)) {
        case (nil, nil):
            break
        case let (start?, end?):
            task.targetTimeWindow = TimeWindow(startTime: try time(start, column: "window_start", place: place),
                                               endTime: try time(end, column: "window_end", place: place))
        case (nil, _?), (_?, nil):
            throw problem("\(place): give both window_start and window_end, or neither")
        }
        for (key, position) in columns.attributes {
            let value = fields[position].trimmingCharacters(in: .whitespaces)
            if !value.isEmpty { task.attributes.append(TaskAttribute(key: key, taskAttributeValue: .stringValue(value))) }
        }
        return CreateTaskRequest(taskId: id, task: task)
    }

    private static func time(_ text: String, column: String, place: String) throws(FleetError) -> Timestamp {
        guard let time = try? Timestamp(rfc3339: text) else {
            throw problem("\(place), column \(column): '\(text)' is not an RFC 3339 time (like 2026-03-01T09:00:00Z)")
        }
        return time
    }

    // MARK: JSON

    private static func jsonRequests(_ text: String, source: String) throws(FleetError) -> [CreateTaskRequest] {
        do {
            let json = try JSON.parse(text)
            let elements: [JSON]
            if let array = json.arrayValue {
                elements = array
            } else if let object = json.objectValue, object["requests"] != nil {
                elements = try BatchCreateTasksRequest(json: json, path: "", options: DecodingOptions()).requests.map { $0.toJSON() }
            } else {
                throw problem("\(source): expected a JSON array of CreateTaskRequests or Tasks, or a BatchCreateTasksRequest {\"requests\":[…]}")
            }
            var requests: [CreateTaskRequest] = []
            var elementOfTask: [String: Int] = [:]
            for (index, element) in elements.enumerated() {
                var request = try request(element, index: index, source: source)
                if request.task?.state == nil { request.task?.state = .open }
                let id = request.taskId ?? ""
                if let first = elementOfTask[id] {
                    throw problem("\(source): requests[\(index)] has the task ID '\(id)' of requests[\(first)] too")
                }
                elementOfTask[id] = index
                requests.append(request)
            }
            return requests
        } catch var error as FleetError {
            if error.cause != ErrorCause.badTaskFile.id { error.message = "\(source): \(error.message)" }
            throw error
        } catch {
            throw problem("\(source): \(error)")
        }
    }

    /// One element: a CreateTaskRequest when it has `taskId` or `task`, else a Task named by `name`.
    private static func request(_ element: JSON, index: Int, source: String) throws -> CreateTaskRequest {
        guard let object = element.objectValue else {
            throw problem("\(source): requests[\(index)] is not a JSON object")
        }
        let path = "requests[\(index)]"
        if object["taskId"] != nil || object["task_id"] != nil || object["task"] != nil {
            let request = try CreateTaskRequest(json: element, path: path, options: DecodingOptions())
            guard let id = request.taskId, !id.isEmpty else { throw problem("\(source): \(path) has no taskId") }
            guard request.task != nil else { throw problem("\(source): \(path) has no task") }
            return request
        }
        let task = try DeliveryTask(json: element, path: path + ".task", options: DecodingOptions())
        guard let name = task.name else {
            throw problem("\(source): \(path) is a Task without a name (providers/P/tasks/ID) to take its ID from; or give {\"taskId\":…,\"task\":{…}}")
        }
        return CreateTaskRequest(taskId: try TaskName(parsing: name, field: path + ".task.name").taskID, task: task)
    }

    private static func problem(_ detail: String) -> FleetError {
        FleetError(.badTaskFile, detail: detail)
    }
}
