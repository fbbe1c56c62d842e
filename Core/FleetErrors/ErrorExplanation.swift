/// One code explained for one input: the catalogue entry and, for an error body or line, what it
/// said and the causes its message points to.
public struct ErrorExplanation: Sendable, Hashable {
    /// The argument the explanation answers (`403`, `permission-denied`, `-` for standard input).
    public var input: String
    /// The code's catalogue entry.
    public var entry: CatalogueEntry
    /// The report read from an error body or line; nil for a code, number or status argument.
    public var report: ErrorReport?
    /// For a report, or a `FleetError`: the causes its reason and message point to, best first.
    public var matchedCauses: [ErrorCause]
    /// How to read the input's mapping, when it needs a word (an HTTP status shared by several codes).
    public var note: String?

    /// An explanation.
    public init(input: String, entry: CatalogueEntry, report: ErrorReport? = nil,
                matchedCauses: [ErrorCause] = [], note: String? = nil) {
        self.input = input
        self.entry = entry
        self.report = report
        self.matchedCauses = matchedCauses
        self.note = note
    }

    /// The entry's causes that were not matched, in catalogue order.
    public var otherCauses: [ErrorCause] {
        entry.causes.filter { cause in !matchedCauses.contains { $0.id == cause.id } }
    }
}

/// The result of explaining one input.
public enum ExplainOutcome: Sendable, Hashable {
    /// One explanation per code the input stands for, most likely first.
    case explained([ErrorExplanation])
    /// The input was not understood; `reason` says what was wrong, for a person.
    case unrecognised(input: String, reason: String)
}

extension ErrorCatalogue {
    /// Explains a code, number or HTTP status argument; for `-`, explains the text
    /// `readStandardInput` returns (an error body or lines).
    public static func explain(argument: String, readStandardInput: () throws -> String) rethrows -> ExplainOutcome {
        switch ErrorQuery(argument: argument) {
        case .standardInput:
            return explain(text: try readStandardInput(), input: argument)
        case .unrecognised(let input, let reason):
            return .unrecognised(input: input, reason: reason)
        case .code(let code):
            return .explained([ErrorExplanation(input: argument, entry: entry(for: code))])
        case .httpStatus(let mapping):
            return .explained(mapping.codes.map {
                ErrorExplanation(input: argument, entry: entry(for: $0), note: mapping.note)
            })
        }
    }

    /// Explains an error body or lines of text (see `ErrorReportReader`): one explanation per report.
    public static func explain(text: String, input: String = "-") -> ExplainOutcome {
        switch ErrorReportReader.read(text) {
        case .unrecognised(let reason):
            return .unrecognised(input: input, reason: reason)
        case .reports(let reports):
            var explanations: [ErrorExplanation] = []
            for report in reports {
                guard let code = report.code else {
                    let named = report.statusName.map { "status \"\($0)\"" } ?? report.httpStatus.map { "HTTP \($0)" } ?? "its code"
                    return .unrecognised(input: input, reason: "the error's \(named) is not a gRPC code or error status")
                }
                explanations.append(ErrorExplanation(
                    input: input, entry: entry(for: code), report: report, matchedCauses: report.likelyCauses))
            }
            return .explained(explanations)
        }
    }
}

extension FleetError {
    /// The catalogue's explanation of this error: its code's entry, and its cause (or the causes its
    /// message points to).
    public var explanation: ErrorExplanation {
        let matched = catalogueCause.map { [$0] } ?? ErrorCatalogue.likelyCauses(of: code, message: message)
        return ErrorExplanation(input: description, entry: ErrorCatalogue.entry(for: code), matchedCauses: matched)
    }

    /// The catalogue cause named by `cause`, when it is in the catalogue.
    public var catalogueCause: ErrorCause? {
        cause.flatMap(ErrorCatalogue.cause(id:))
    }
}
