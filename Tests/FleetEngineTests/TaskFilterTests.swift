@testable import FleetEngine
import FleetErrors
import FleetModel
import Testing

/// ListTasks' filter: every field and comparator, AIP-160's precedence, errors naming where they
/// are, and the bounds that keep a hostile filter from exhausting the stack.
@Suite struct TaskFilterTests {
    static func task(_ id: String, _ type: DeliveryTask.TaskType, _ state: DeliveryTask.State, configure: (inout DeliveryTask) -> Void = { _ in }) -> DeliveryTask {
        var task = DeliveryTask(name: "providers/p/tasks/\(id)", type: type, state: state)
        configure(&task)
        return task
    }

    /// An open delivery on van-1, a closed and succeeded pickup, and an unavailable break with almost nothing set.
    static let tasks: [DeliveryTask] = [
        task("delivery", .delivery, .open) {
            $0.trackingId = "pkg-1"
            $0.deliveryVehicleId = "van-1"
            $0.plannedLocation = LocationInfo(point: LatLng(latitude: 52.52, longitude: 13.40))
            $0.taskDuration = ProtoDuration(seconds: 600)
            $0.attributes = [TaskAttribute(key: "size", taskAttributeValue: .stringValue("L")),
                             TaskAttribute(key: "fragile", taskAttributeValue: .boolValue(true)),
                             TaskAttribute(key: "weight", taskAttributeValue: .numberValue(12.5))]
        },
        task("pickup", .pickup, .closed) {
            $0.trackingId = "pkg-2"
            $0.plannedLocation = LocationInfo(point: LatLng(latitude: 36.5, longitude: -122.5))
            $0.taskDuration = ProtoDuration(seconds: 120)
            $0.taskOutcome = .succeeded
            $0.taskOutcomeTime = try! Timestamp(rfc3339: "2024-05-01T12:30:00Z")
            $0.taskOutcomeLocation = LocationInfo(point: LatLng(latitude: 36.6, longitude: -122.4))
            $0.taskOutcomeLocationSource = .provider
            $0.attributes = [TaskAttribute(key: "size", taskAttributeValue: .stringValue("S")),
                             TaskAttribute(key: "fragile", taskAttributeValue: .boolValue(false)),
                             TaskAttribute(key: "weight", taskAttributeValue: .numberValue(3)),
                             TaskAttribute(key: "code", taskAttributeValue: .stringValue("true"))]
        },
        task("break", .unavailable, .open) {
            $0.taskDuration = ProtoDuration(seconds: 1800, nanos: 500_000_000)
        },
    ]

    /// The IDs of the tasks `filter` lets through.
    func passing(_ filter: String) throws -> [String] {
        let parsed = try TaskFilter(parsing: filter)
        return Self.tasks.filter(parsed.matches).compactMap { $0.name?.split(separator: "/").last.map(String.init) }
    }

    func failure(_ text: String) -> FleetError? {
        do {
            _ = try TaskFilter(parsing: text)
            return nil
        } catch {
            return error as? FleetError
        }
    }

    @Test(arguments: ["", " ", "\t\n  \r\n"])
    func emptyOrBlankAsksForEveryTask(text: String) throws {
        let filter = try TaskFilter(parsing: text)
        #expect(filter.isEmpty)
        #expect(try passing(text) == ["delivery", "pickup", "break"])
        #expect(try !TaskFilter(parsing: "state = OPEN").isEmpty)
    }

    @Test func enumsCompareByName() throws {
        #expect(try passing("state = OPEN") == ["delivery", "break"])
        #expect(try passing("state != OPEN") == ["pickup"])
        #expect(try passing("state = \"CLOSED\"") == ["pickup"])
        #expect(try passing("type = DELIVERY") == ["delivery"])
        #expect(try passing("type != DELIVERY") == ["pickup", "break"])
        #expect(try passing("type = SCHEDULED_STOP") == [])
        #expect(try passing("task_outcome = SUCCEEDED") == ["pickup"])
        #expect(try passing("task_outcome = FAILED") == [])
        #expect(try passing("task_outcome = TASK_OUTCOME_UNSPECIFIED") == ["delivery", "break"])
        #expect(try passing("task_outcome_location_source = PROVIDER") == ["pickup"])
        #expect(try passing("task_outcome_location_source != LAST_VEHICLE_LOCATION") == ["delivery", "pickup", "break"])
    }

    @Test func stringsCompareExactlyAndUnsetIsEmpty() throws {
        #expect(try passing("delivery_vehicle_id = van-1") == ["delivery"])
        #expect(try passing("delivery_vehicle_id = \"van-1\"") == ["delivery"])
        #expect(try passing("delivery_vehicle_id = \"\"") == ["pickup", "break"])
        #expect(try passing("delivery_vehicle_id != \"\"") == ["delivery"])
        #expect(try passing("tracking_id = 'pkg-2'") == ["pickup"])
        #expect(try passing("tracking_id = pkg") == [])
        #expect(try passing("tracking_id != pkg-2") == ["delivery", "break"])
    }

    @Test func timesCompareAsInstantsWhateverTheirOffset() throws {
        #expect(try passing("task_outcome_time = 2024-05-01T12:30:00Z") == ["pickup"])
        #expect(try passing("task_outcome_time = 2024-05-01T14:30:00+02:00") == ["pickup"])
        #expect(try passing("task_outcome_time = \"2024-05-01T05:30:00-07:00\"") == ["pickup"])
        #expect(try passing("task_outcome_time != 2024-05-01T12:30:00Z") == ["delivery", "break"])
        #expect(try passing("task_outcome_time < 2024-05-01T12:30:00.001Z") == ["pickup"])
        #expect(try passing("task_outcome_time < 2024-05-01T12:30:00Z") == [])
        #expect(try passing("task_outcome_time <= 2024-05-01T12:30:00Z") == ["pickup"])
        #expect(try passing("task_outcome_time > 2024-05-01T12:29:59Z") == ["pickup"])
        #expect(try passing("task_outcome_time > 2024-05-01T12:30:00Z") == [])
        #expect(try passing("task_outcome_time >= 2024-05-01T12:30:00Z") == ["pickup"])
        // Tasks without an outcome time fail every comparison but !=, and NOT inverts that.
        #expect(try passing("NOT task_outcome_time < 2030-01-01T00:00:00Z") == ["delivery", "break"])
    }

    @Test func durationsCompareInSeconds() throws {
        #expect(try passing("task_duration = 600s") == ["delivery"])
        #expect(try passing("task_duration = 600.000s") == ["delivery"])
        #expect(try passing("task_duration != 600s") == ["pickup", "break"])
        #expect(try passing("task_duration < 600s") == ["pickup"])
        #expect(try passing("task_duration <= 600s") == ["delivery", "pickup"])
        #expect(try passing("task_duration > 1800s") == ["break"])
        #expect(try passing("task_duration >= 1800.5s") == ["break"])
        #expect(try passing("task_duration > 1800.5s") == [])
    }

    @Test func locationsCompareByCoordinate() throws {
        #expect(try passing("planned_location.point.latitude > 36.1 AND planned_location.point.longitude < -122.0") == ["pickup"])
        #expect(try passing("planned_location.point.latitude >= 52.52") == ["delivery"])
        #expect(try passing("planned_location.point.latitude = 52.52") == ["delivery"])
        #expect(try passing("planned_location.point.longitude <= 13.4") == ["delivery", "pickup"])
        #expect(try passing("planned_location.point.latitude != 52.52") == ["pickup", "break"])
        #expect(try passing("task_outcome_location.point.latitude < 40") == ["pickup"])
        #expect(try passing("task_outcome_location.point.longitude > -122.45") == ["pickup"])
        #expect(try passing("task_outcome_location.point.longitude > 0") == [])
    }

    @Test func attributesMatchTheirOwnType() throws {
        #expect(try passing("attributes.size = \"L\"") == ["delivery"])
        #expect(try passing("attributes.size = L") == ["delivery"])
        #expect(try passing("attributes.size != L") == ["pickup", "break"])
        #expect(try passing("attributes.fragile = true") == ["delivery"])
        #expect(try passing("attributes.fragile = false") == ["pickup"])
        #expect(try passing("attributes.fragile = \"true\"") == [], "a quoted value is a string; fragile is a bool")
        #expect(try passing("attributes.code = \"true\"") == ["pickup"])
        #expect(try passing("attributes.code = true") == [], "a bare true is a bool; code is a string")
        #expect(try passing("attributes.weight = 12.5") == ["delivery"])
        #expect(try passing("attributes.weight = 3") == ["pickup"])
        #expect(try passing("attributes.weight > 3") == ["delivery"])
        #expect(try passing("attributes.weight >= 3") == ["delivery", "pickup"])
        #expect(try passing("attributes.weight < 1e1") == ["pickup"])
        #expect(try passing("attributes.weight <= -1") == [])
        #expect(try passing("attributes.weight = \"3\"") == [])
        #expect(try passing("attributes.missing = x") == [])
        #expect(try passing("attributes.missing != x") == ["delivery", "pickup", "break"])
    }

    @Test func orBindsTighterThanAndAsAIP160Says() throws {
        // a AND b OR c is a AND (b OR c): with AND binding tighter, "break" would pass too.
        #expect(try passing("type = PICKUP AND state = CLOSED OR type = UNAVAILABLE") == ["pickup"])
        #expect(try passing("(type = PICKUP AND state = CLOSED) OR type = UNAVAILABLE") == ["pickup", "break"])
        #expect(try passing("type = UNAVAILABLE OR type = PICKUP AND state = CLOSED") == ["pickup"])
        // A space is AND too, and joins looser than OR.
        #expect(try passing("state = OPEN type = DELIVERY OR type = UNAVAILABLE") == ["delivery", "break"])
        #expect(try passing("state = OPEN task_duration > 1000s") == ["break"])
    }

    @Test func negationBindsToOneTerm() throws {
        #expect(try passing("NOT state = OPEN") == ["pickup"])
        #expect(try passing("- state = OPEN") == ["pickup"])
        #expect(try passing("-state = OPEN") == ["pickup"])
        #expect(try passing("--state = OPEN") == ["delivery", "break"])
        #expect(try passing("NOT type = DELIVERY OR type = PICKUP") == ["pickup", "break"])
        #expect(try passing("NOT type = PICKUP OR type = PICKUP") == ["delivery", "pickup", "break"])
        #expect(try passing("NOT (type = DELIVERY OR type = PICKUP)") == ["break"])
        #expect(try passing("-(type = DELIVERY OR type = PICKUP)") == ["break"])
        #expect(try passing("NOT NOT state = CLOSED") == ["pickup"])
        #expect(try passing("state = OPEN AND NOT type = UNAVAILABLE") == ["delivery"])
        // A minus inside a value is no negation.
        #expect(try passing("planned_location.point.longitude < -122.0") == ["pickup"])
    }

    @Test func spacingIsFree() throws {
        #expect(try passing("state=OPEN") == ["delivery", "break"])
        #expect(try passing("task_duration>=600s AND task_duration<=600s") == ["delivery"])
        #expect(try passing("(state!=OPEN)") == ["pickup"])
        #expect(try passing("\tstate = CLOSED\r\nOR\u{00A0}type = UNAVAILABLE ") == ["pickup", "break"])
    }

    // MARK: Errors

    func expectFailure(_ text: String, at character: Int, _ fragments: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error = failure(text) else {
            Issue.record("\(text) parsed", sourceLocation: sourceLocation)
            return
        }
        #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error.field == "filter", sourceLocation: sourceLocation)
        #expect(error.message.contains("at character \(character)"), "\(error.message)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(error.message.contains(fragment), "\(error.message)", sourceLocation: sourceLocation)
        }
    }

    @Test func unknownFieldsAreNamedWithWhereTheyAre() {
        expectFailure("state = OPEN AND color = red", at: 18, "unknown field 'color'", "delivery_vehicle_id", "attributes.<key>")
        expectFailure("deliveryVehicleId = v1", at: 1, "unknown field 'deliveryVehicleId'", "did you mean delivery_vehicle_id?")
        expectFailure("plannedLocation.point.latitude > 1", at: 1, "did you mean planned_location.point.latitude?")
        expectFailure("planned_location = x", at: 1, "planned_location.point.latitude and planned_location.point.longitude")
        expectFailure("type = PICKUP OR task_outcome_location.point < 3", at: 18, "task_outcome_location.point.latitude")
        expectFailure("attributes. = x", at: 1, "attributes without a key")
        expectFailure("name = providers/p/tasks/t", at: 1, "unknown field 'name'")
        expectFailure("OPEN", at: 1, "unknown field 'OPEN'")
    }

    @Test func valuesMustFitTheirField() {
        expectFailure("state = OPENED", at: 9, "'OPENED'", "STATE_UNSPECIFIED, OPEN, CLOSED")
        expectFailure("type = delivery", at: 8, "PICKUP, DELIVERY, SCHEDULED_STOP, UNAVAILABLE")
        expectFailure("task_outcome = 1", at: 16, "SUCCEEDED")
        expectFailure("task_outcome_time > yesterday", at: 21, "RFC 3339")
        expectFailure("task_outcome_time > 2024-13-01T00:00:00Z", at: 21, "RFC 3339")
        expectFailure("task_duration < 10m", at: 17, "600s")
        expectFailure("task_duration < 600", at: 17, "600s")
        expectFailure("planned_location.point.latitude > north", at: 35, "not a number")
        expectFailure("planned_location.point.latitude > \"36\"", at: 35, "not a number")
        expectFailure("planned_location.point.latitude > nan", at: 35, "not a number")
        expectFailure("planned_location.point.latitude > 1e999", at: 35, "not a number")
    }

    @Test func orderingIsOnlyForTimesDurationsAndNumbers() {
        expectFailure("state < OPEN", at: 7, "has '<' after state, which takes only = and !=")
        expectFailure("tracking_id >= a", at: 13, "has '>=' after tracking_id, which takes only = and !=")
        expectFailure("attributes.size > \"M\"", at: 17, "has '>' after attributes.size, which orders only numbers")
        expectFailure("attributes.fragile <= true", at: 20, "orders only numbers")
    }

    @Test func syntaxErrorsNameTheirPosition() {
        expectFailure("state", at: 6, "needs =, !=, <, <=, > or >= after state")
        expectFailure("state =", at: 8, "needs a value after state =")
        expectFailure("state = (OPEN)", at: 9, "needs a value after state =")
        expectFailure("state = OPEN )", at: 14, "unexpected ')'")
        expectFailure("(state = OPEN", at: 14, "missing ')'")
        expectFailure("state = OPEN AND", at: 17, "ends early")
        expectFailure("state = OPEN OR", at: 16, "ends early")
        expectFailure("state = OPEN AND AND type = PICKUP", at: 18, "unexpected 'AND'")
        expectFailure("OR state = OPEN", at: 1, "unexpected 'OR'")
        expectFailure("state = OPEN = CLOSED", at: 14, "unexpected '='")
        expectFailure("tracking_id = \"pkg", at: 15, "unterminated string")
        expectFailure("state ! OPEN", at: 7, "unexpected '!'")
        expectFailure("()", at: 2, "unexpected ')'")
    }

    /// The errors docs/http-api.md shows, word for word up to the expectation that follows.
    @Test(arguments: [
        ("deliveryVehicleId = v1", "filter has an unknown field 'deliveryVehicleId' (did you mean delivery_vehicle_id?) at character 1; "),
        ("state = OPENED", "filter compares state with 'OPENED', which is none of STATE_UNSPECIFIED, OPEN, CLOSED at character 9; "),
        ("state < OPEN", "filter has '<' after state, which takes only = and != at character 7; "),
        ("task_duration > 10m", "filter compares task_duration with '10m', not seconds with an s such as 600s or 1.5s at character 17; "),
        ("(state = OPEN", "filter is missing ')' at character 14; "),
    ])
    func documentedErrorsReadAsDocumented(filter: String, message: String) throws {
        let error = try #require(failure(filter))
        #expect(error.message.hasPrefix(message), "\(error.message)")
        #expect(error.message.hasSuffix(": " + filter), "\(error.message)")
    }

    // MARK: Bounds

    @Test func nestingUpToTheLimitParses() throws {
        let depth = FilterSyntax.maximumDepth
        let nested = String(repeating: "(", count: depth) + "state = OPEN" + String(repeating: ")", count: depth)
        #expect(try passing(nested) == ["delivery", "break"])
        #expect(try passing(String(repeating: "NOT ", count: depth) + "state = OPEN") == ["delivery", "break"])
        #expect(try passing(String(repeating: "-", count: depth) + "state = OPEN") == ["delivery", "break"])
    }

    /// 10,000 levels of each way to nest: refused, past the length or the depth, whichever comes first.
    @Test(arguments: ["(", "(…)", "NOT ", "- ", "-", "NOT (…)"])
    func deepNestingIsRefusedQuicklyWithoutACrash(shape: String) throws {
        let count = 10_000
        let text = switch shape {
        case "(…)": String(repeating: "(", count: count) + "state = OPEN" + String(repeating: ")", count: count)
        case "NOT (…)": String(repeating: "NOT (", count: count) + "state = OPEN" + String(repeating: ")", count: count)
        case "(": String(repeating: "(", count: count)
        default: String(repeating: shape, count: count) + "state = OPEN"
        }
        let clock = ContinuousClock()
        var error: FleetError?
        let elapsed = clock.measure { error = failure(text) }
        let refused = try #require(error)
        #expect(refused.code == .invalidArgument)
        #expect(refused.field == "filter")
        let reason = refused.message.contains("deeper than \(FilterSyntax.maximumDepth) levels")
            || refused.message.contains("at most \(FilterSyntax.maximumLength) are allowed")
        #expect(reason, "\(refused.message.prefix(200))")
        #expect(elapsed < .seconds(2), "took \(elapsed)")
    }

    @Test(arguments: ["NOT ", "- ", "-"])
    func deepNegationWithinTheLengthIsRefusedByDepth(prefix: String) throws {
        let text = String(repeating: prefix, count: FilterSyntax.maximumLength / 5) + "state = OPEN"
        let error = try #require(failure(text))
        #expect(error.message.contains("deeper than \(FilterSyntax.maximumDepth) levels at character \(FilterSyntax.maximumDepth * prefix.count + 1)"),
                "\(error.message.prefix(200))")
    }

    @Test func tooDeepNamesWhereItWentTooDeep() throws {
        let error = try #require(failure(String(repeating: "(", count: 10_000)))
        #expect(error.message.contains("at character \(FilterSyntax.maximumDepth + 1)"), "\(error.message)")
        let nots = try #require(failure(String(repeating: "NOT ", count: 100) + "state = OPEN"))
        #expect(nots.message.contains("at character \(FilterSyntax.maximumDepth * 4 + 1)"), "\(nots.message)")
        let minuses = try #require(failure(String(repeating: "-", count: 100) + "state = OPEN"))
        #expect(minuses.message.contains("at character \(FilterSyntax.maximumDepth + 1)"), "\(minuses.message)")
    }

    @Test func fiftyRestrictionsAreTheMost() throws {
        let fifty = Array(repeating: "task_duration > 1s", count: 50).joined(separator: " AND ")
        #expect(try passing(fifty) == ["delivery", "pickup", "break"])
        let fiftyOne = fifty + " OR state = OPEN"
        let error = try #require(failure(fiftyOne))
        #expect(error.message.contains("more than 50 restrictions"), "\(error.message)")
        #expect(error.message.contains("at character \(fifty.count + 5)"), "\(error.message)")
    }

    @Test func overLongFiltersAreRefused() throws {
        let long = "tracking_id = \"" + String(repeating: "x", count: FilterSyntax.maximumLength) + "\""
        let error = try #require(failure(long))
        #expect(error.message.contains("at most \(FilterSyntax.maximumLength)"), "\(error.message.prefix(200))")
    }
}
