import FleetErrors
import FleetModel

/// A parsed ListTasks filter: Fleet Engine's AIP-160 filter over task properties.
///
/// Restrictions are `field <comparator> value`, joined by `AND` (or a space), `OR`, `NOT` or `-`, and
/// parentheses; as AIP-160 has it, OR binds tighter than AND (`a AND b OR c` is `a AND (b OR c)`).
/// The fields are those Google documents for ListTasks, in their proto (snake_case) names:
///
/// | field | value | comparators |
/// |---|---|---|
/// | `state`, `type`, `task_outcome`, `task_outcome_location_source` | the enum value's name (`OPEN`, `DELIVERY`) | `=` `!=` |
/// | `delivery_vehicle_id`, `tracking_id` | a string (`""` is unset) | `=` `!=` |
/// | `task_outcome_time` | an RFC 3339 time (`2024-05-01T12:30:00Z`) | all six |
/// | `task_duration` | seconds with an `s` (`600s`) | all six |
/// | `planned_location.point.latitude`, `….longitude`, `task_outcome_location.point.…` | a number | all six |
/// | `attributes.<key>` | `"text"`, `true`/`false` or a number, matching the attribute's type | `=` `!=`; the others with numbers |
///
/// An unset enum or string reads as its default (`STATE_UNSPECIFIED`, `""`), as in proto3; a task
/// without the time, duration, location or attribute fails every comparison with it but `!=`, which
/// is always the negation of `=`. The syntax and its bounds (16,384 characters, 32 levels of
/// parentheses and NOTs, 50 restrictions) are `FilterSyntax`'s.
public struct TaskFilter: Sendable {
    private let root: Node?

    /// Parses `text`; empty or blank text asks for every task.
    ///
    /// - Throws: INVALID_ARGUMENT (field "filter") naming the position (characters counted from 1)
    ///   and what was expected there.
    public init(parsing text: String) throws {
        root = text.allSatisfy(\.isWhitespace) ? nil : try FilterSyntax.parse(text, as: Node.self)
    }

    /// Whether the filter asks for nothing (empty or blank text).
    public var isEmpty: Bool { root == nil }

    /// Whether `task` passes.
    public func matches(_ task: DeliveryTask) -> Bool {
        root?.evaluate(task) ?? true
    }
}

extension TaskFilter {
    /// A parsed filter's tree.
    indirect enum Node: Sendable, Equatable, FilterNode {
        case restriction(Restriction)
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)

        func evaluate(_ task: DeliveryTask) -> Bool {
            switch self {
            case .restriction(let r): r.holds(for: task)
            case .and(let a, let b): a.evaluate(task) && b.evaluate(task)
            case .or(let a, let b): a.evaluate(task) || b.evaluate(task)
            case .not(let a): !a.evaluate(task)
            }
        }
    }

    /// One `field <comparator> value`.
    struct Restriction: Sendable, Equatable {
        var field: Field
        var comparator: FilterComparator
        var operand: Operand

        func holds(for task: DeliveryTask) -> Bool {
            if comparator == .notEquals {
                return !Restriction(field: field, comparator: .equals, operand: operand).holds(for: task)
            }
            switch (field.value(in: task), operand) {
            case (.text(let a)?, .text(let b)): return comparator.holds(a, b)
            case (.number(let a)?, .number(let b)): return comparator.holds(a, b)
            case (.time(let a)?, .time(let b)): return comparator.holds(a, b)
            case (.duration(let a)?, .duration(let b)): return comparator.holds(a, b)
            case (.bool(let a)?, .bool(let b)): return comparator == .equals && a == b
            default: return false
            }
        }
    }

    /// A value a task has, or a restriction compares with.
    enum Operand: Sendable, Equatable {
        case text(String), bool(Bool), number(Double), time(Timestamp), duration(ProtoDuration)
    }

    /// A task property a filter can restrict.
    enum Field: Sendable, Equatable {
        case state, type, taskOutcome, taskOutcomeLocationSource, deliveryVehicleID, trackingID
        case taskOutcomeTime, taskDuration
        case plannedLatitude, plannedLongitude, outcomeLatitude, outcomeLongitude
        case attribute(String)

        /// The fields by name, in the order error messages list them (attributes aside).
        static let named: [(name: String, field: Field)] = [
            ("state", .state), ("type", .type), ("task_outcome", .taskOutcome),
            ("task_outcome_location_source", .taskOutcomeLocationSource),
            ("delivery_vehicle_id", .deliveryVehicleID), ("tracking_id", .trackingID),
            ("task_outcome_time", .taskOutcomeTime), ("task_duration", .taskDuration),
            ("planned_location.point.latitude", .plannedLatitude), ("planned_location.point.longitude", .plannedLongitude),
            ("task_outcome_location.point.latitude", .outcomeLatitude), ("task_outcome_location.point.longitude", .outcomeLongitude),
        ]

        static let attributePrefix = "attributes."

        /// The field called `name`, or nil.
        init?(name: String) {
            if name.hasPrefix(Self.attributePrefix) {
                guard name.count > Self.attributePrefix.count else { return nil }
                self = .attribute(String(name.dropFirst(Self.attributePrefix.count)))
            } else if let entry = Self.named.first(where: { $0.name == name }) {
                self = entry.field
            } else {
                return nil
            }
        }

        /// What values the field takes.
        enum Kind {
            /// An enum's value names, the default first.
            case enumeration([String])
            case text, time, duration, number
            /// A task attribute: string, bool or number, as each task has it.
            case attribute
        }

        var kind: Kind {
            switch self {
            case .state: .enumeration(DeliveryTask.State.allKnown.map(\.name))
            case .type: .enumeration(DeliveryTask.TaskType.allKnown.map(\.name))
            case .taskOutcome: .enumeration(DeliveryTask.TaskOutcome.allKnown.map(\.name))
            case .taskOutcomeLocationSource: .enumeration(DeliveryTask.TaskOutcomeLocationSource.allKnown.map(\.name))
            case .deliveryVehicleID, .trackingID: .text
            case .taskOutcomeTime: .time
            case .taskDuration: .duration
            case .plannedLatitude, .plannedLongitude, .outcomeLatitude, .outcomeLongitude: .number
            case .attribute: .attribute
            }
        }

        /// The task's value of this field: unset enums and strings as their proto3 defaults, nil
        /// for an unset time, duration, location or attribute.
        func value(in task: DeliveryTask) -> Operand? {
            switch self {
            case .state: .text(task.state?.name ?? DeliveryTask.State.stateUnspecified.name)
            case .type: .text(task.type?.name ?? DeliveryTask.TaskType.typeUnspecified.name)
            case .taskOutcome: .text(task.taskOutcome?.name ?? DeliveryTask.TaskOutcome.taskOutcomeUnspecified.name)
            case .taskOutcomeLocationSource:
                .text(task.taskOutcomeLocationSource?.name ?? DeliveryTask.TaskOutcomeLocationSource.taskOutcomeLocationSourceUnspecified.name)
            case .deliveryVehicleID: .text(task.deliveryVehicleId ?? "")
            case .trackingID: .text(task.trackingId ?? "")
            case .taskOutcomeTime: task.taskOutcomeTime.map(Operand.time)
            case .taskDuration: task.taskDuration.map(Operand.duration)
            case .plannedLatitude: task.plannedLocation?.point.map { .number($0.latitude) }
            case .plannedLongitude: task.plannedLocation?.point.map { .number($0.longitude) }
            case .outcomeLatitude: task.taskOutcomeLocation?.point.map { .number($0.latitude) }
            case .outcomeLongitude: task.taskOutcomeLocation?.point.map { .number($0.longitude) }
            case .attribute(let key):
                switch task.attributes.first(where: { $0.key == key })?.taskAttributeValue {
                case .stringValue(let s)?: .text(s)
                case .boolValue(let b)?: .bool(b)
                case .numberValue(let n)?: .number(n)
                case nil: nil
                }
            }
        }
    }
}

extension TaskFilter.Node: FilterGrammar {
    typealias Field = TaskFilter.Field
    typealias Operand = TaskFilter.Operand

    static let dialect = FilterDialect.aip160
    static let expectation = "expected restrictions like state = OPEN or task_duration > 600s joined by AND/OR"

    static func restriction(field name: String, at start: Int, parser: inout FilterParser<Self>) throws -> Self {
        guard name != "AND", name != "OR" else { throw parser.error("has an unexpected '\(name)'", at: start) }
        guard let field = Field(name: name) else { throw parser.error(unknownField(name), at: start) }
        let comparatorOffset = parser.offset
        guard let comparator = parser.takeComparator() else {
            throw parser.error("needs =, !=, <, <=, > or >= after \(name)", at: comparatorOffset)
        }
        let valueOffset = parser.offset
        guard let value = parser.takeValue() else {
            throw parser.error("needs a value after \(name) \(comparator)", at: valueOffset)
        }
        let operand = try operand(of: field, named: name, from: value, parser: parser)
        switch (comparator.isEquality, operand) {
        case (true, _), (false, .number), (false, .time), (false, .duration): break
        case (false, .text), (false, .bool):
            let takes = if case .attribute = field { "orders only numbers" } else { "takes only = and !=" }
            throw parser.error("has '\(comparator)' after \(name), which \(takes)", at: comparatorOffset)
        }
        return .restriction(TaskFilter.Restriction(field: field, comparator: comparator, operand: operand))
    }

    /// Reads `value` as `field` takes it, or throws naming what it takes.
    private static func operand(of field: Field, named name: String, from value: FilterValue, parser: FilterParser<Self>) throws -> Operand {
        switch field.kind {
        case .enumeration(let names):
            guard names.contains(value.text) else {
                throw parser.error("compares \(name) with '\(value.text)', which is none of \(names.joined(separator: ", "))", at: value.offset)
            }
            return .text(value.text)
        case .text:
            return .text(value.text)
        case .time:
            guard let time = try? Timestamp(rfc3339: value.text) else {
                throw parser.error("compares \(name) with '\(value.text)', not an RFC 3339 time such as 2024-05-01T12:30:00Z or 2024-05-01T14:30:00+02:00", at: value.offset)
            }
            return .time(time)
        case .duration:
            guard let duration = try? ProtoDuration(parsing: value.text) else {
                throw parser.error("compares \(name) with '\(value.text)', not seconds with an s such as 600s or 1.5s", at: value.offset)
            }
            return .duration(duration)
        case .number:
            guard !value.quoted, let number = number(value.text) else {
                throw parser.error("compares \(name) with '\(value.text)', not a number such as 36.1 or -122.0", at: value.offset)
            }
            return .number(number)
        case .attribute:
            // As AIP-160 reads literals: quoted text is a string, bare true and false are booleans,
            // bare numbers are numbers; only an attribute of the same type can match.
            if value.quoted { return .text(value.text) }
            if value.text == "true" || value.text == "false" { return .bool(value.text == "true") }
            return number(value.text).map(Operand.number) ?? .text(value.text)
        }
    }

    /// A finite decimal number (`36.1`, `-122`, `1e3`): no `nan`, `inf` or hexadecimal.
    private static func number(_ text: String) -> Double? {
        guard text.allSatisfy({ "0123456789+-.eE".contains($0) }), let number = Double(text), number.isFinite else { return nil }
        return number
    }

    /// Why `name` is no field, with the name meant when it is a known field in camelCase or a
    /// location without its coordinate.
    private static func unknownField(_ name: String) -> String {
        let fields = "attributes.<key>, " + Field.named.map(\.name).joined(separator: ", ")
        if name == Field.attributePrefix.dropLast() || name == Field.attributePrefix {
            return "has attributes without a key (attributes.<key>)"
        }
        for location in ["planned_location", "task_outcome_location"] where name == location || name == location + ".point" {
            return "compares \(name), which is compared by \(location).point.latitude and \(location).point.longitude"
        }
        let snake = name.reduce(into: "") { result, c in
            if c.isUppercase { result += "_" + c.lowercased() } else { result.append(c) }
        }
        if snake != name, Field(name: snake) != nil {
            return "has an unknown field '\(name)' (did you mean \(snake)?)"
        }
        return "has an unknown field '\(name)' (fields are \(fields))"
    }
}
