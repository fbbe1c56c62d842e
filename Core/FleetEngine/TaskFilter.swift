import FleetErrors
import Foundation
import FleetModel

// TO BE REPLACED at merge by the full ListTasks filter (AIP-160 over task properties), written in
// parallel with the same API. This stand-in understands only `attributes.<key> = "value"` and
// `state = OPEN` / `state = CLOSED`, joined by AND, so that ListTasks can be built and tested now.

/// ListTasks' filter (stand-in: see the note above).
struct TaskFilter {
    private var restrictions: [(field: String, value: String)] = []

    /// Parses `text`; the empty text matches every task.
    /// - Throws: INVALID_ARGUMENT naming `filter` and the position (from 1) of what it cannot read.
    init(parsing text: String) throws {
        var offset = 0
        for part in text.components(separatedBy: " AND ") {
            defer { offset += part.count + 5 }
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else {
                if text.trimmingCharacters(in: .whitespaces).isEmpty { return }
                throw FleetError.invalidArgument("filter has an empty restriction at character \(offset + 1)", field: "filter")
            }
            let sides = trimmed.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard sides.count == 2, sides[0] == "state" || (sides[0].hasPrefix("attributes.") && sides[0].count > 11) else {
                throw FleetError.invalidArgument("filter cannot read '\(trimmed)' at character \(offset + 1): expected attributes.<key> = \"value\" or state = OPEN",
                                                 field: "filter")
            }
            var value = sides[1]
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            restrictions.append((sides[0], value))
        }
    }

    /// Whether the filter asks for nothing.
    var isEmpty: Bool { restrictions.isEmpty }

    func matches(_ task: DeliveryTask) -> Bool {
        restrictions.allSatisfy { restriction in
            if restriction.field == "state" { return task.state?.name == restriction.value }
            let key = String(restriction.field.dropFirst("attributes.".count))
            return task.attributes.contains { $0.key == key && AttributeValue($0).text == restriction.value }
        }
    }
}
