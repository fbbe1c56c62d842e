import FleetJSON

/// The JSON forms of the catalogue and of explanations, with a stable key order:
/// `input`, `code`, `number`, `httpStatus`, `retryClass`, `retryable`, `description`, `note`,
/// `causes`, then for an error body or line `report` and `matchedCauses`.
public enum ExplanationJSON {
    /// One explanation as a JSON object.
    public static func object(_ explanation: ErrorExplanation) -> String {
        explanationValue(explanation).prettyPrinted() + "\n"
    }

    /// Explanations as a JSON array (one element per explanation, in order).
    public static func array(_ explanations: [ErrorExplanation]) -> String {
        JSON.array(explanations.map(explanationValue)).prettyPrinted() + "\n"
    }

    /// The whole catalogue: a JSON array of the 17 codes in number order, each with its causes.
    public static func catalogue() -> String {
        JSON.array(ErrorCatalogue.entries.map { object(entryMembers($0)) }).prettyPrinted() + "\n"
    }

    private static func explanationValue(_ explanation: ErrorExplanation) -> JSON {
        var members: [(String, JSON)] = [("input", .string(explanation.input))]
        members += entryMembers(explanation.entry, note: explanation.note)
        if let report = explanation.report {
            members.append(("report", reportValue(report)))
            members.append(("matchedCauses", .array(explanation.matchedCauses.map(causeValue))))
        }
        return object(members)
    }

    private static func entryMembers(_ entry: CatalogueEntry, note: String? = nil) -> [(String, JSON)] {
        var members: [(String, JSON)] = [
            ("code", .string(entry.name)),
            ("number", .number(Double(Int(entry.number)))),
            ("httpStatus", .number(Double(entry.httpStatus))),
            ("retryClass", .string(entry.retryClass.rawValue)),
            ("retryable", .bool(entry.retryClass.isRetryable)),
            ("description", .string(entry.description)),
        ]
        if let note { members.append(("note", .string(note))) }
        members.append(("causes", .array(entry.causes.map(causeValue))))
        return members
    }

    private static func causeValue(_ cause: ErrorCause) -> JSON {
        object([("id", .string(cause.id)), ("summary", .string(cause.summary)), ("remedy", .string(cause.remedy))])
    }

    private static func reportValue(_ report: ErrorReport) -> JSON {
        var members: [(String, JSON)] = [("format", .string(report.format.rawValue))]
        if let httpStatus = report.httpStatus { members.append(("httpStatus", .number(Double(httpStatus)))) }
        if let grpcNumber = report.grpcNumber { members.append(("grpcNumber", .number(Double(grpcNumber)))) }
        if let statusName = report.statusName { members.append(("status", .string(statusName))) }
        if let message = report.message { members.append(("message", .string(message))) }
        if let reason = report.reason { members.append(("reason", .string(reason))) }
        if let domain = report.domain { members.append(("domain", .string(domain))) }
        if !report.fieldViolations.isEmpty {
            members.append(("fieldViolations", .array(report.fieldViolations.map {
                object([("field", .string($0.field)), ("description", .string($0.description))])
            })))
        }
        return object(members)
    }

    /// An object with these members in this order.
    private static func object(_ members: [(String, JSON)]) -> JSON {
        var object = JSONObject()
        for (key, value) in members { object[key] = value }
        return .object(object)
    }
}
