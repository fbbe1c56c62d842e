import FleetErrors

/// The catalogue's explanations as text for people: `error-explain`'s output, the `--list`
/// table, and the report every executable prints for a `FleetError`.
public enum ExplanationPrinter {
    /// Explanations one after another, separated by blank lines. Consecutive explanations of one
    /// input that stands for several codes (HTTP 400) get a heading naming them, most likely first.
    public static func text(_ explanations: [ErrorExplanation], style: Style) -> String {
        var blocks: [[String]] = []
        var index = 0
        while index < explanations.count {
            let first = explanations[index]
            var group = [first]
            while first.report == nil, index + group.count < explanations.count,
                  explanations[index + group.count].input == first.input,
                  explanations[index + group.count].report == nil {
                group.append(explanations[index + group.count])
            }
            if group.count > 1 {
                let names = group.map(\.entry.name).joined(separator: ", ")
                var heading = "\(describeInput(first.input)) stands for \(group.count) codes, most likely first: \(names)."
                if let note = first.note { heading += " " + note }
                blocks.append(TextLayout.wrap(heading, width: TextLayout.width).map(style.bold))
                blocks += group.map { block($0, style: style, showNote: false) }
            } else {
                blocks.append(block(first, style: style, showNote: true))
            }
            index += group.count
        }
        return blocks.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    }

    /// One explanation: heading, retry class, meaning, what a report said, and causes with remedies.
    public static func block(_ explanation: ErrorExplanation, style: Style, showNote: Bool = true) -> [String] {
        let entry = explanation.entry
        var lines: [String] = []
        if let report = explanation.report {
            lines += TextLayout.wrap("Read: " + describe(report), width: TextLayout.width).map(style.dim)
        }
        lines.append(style.bold(retryColour(entry.retryClass, style)(entry.name))
                     + "  " + style.dim("gRPC \(entry.number), HTTP \(entry.httpStatus)"))
        lines += indented("Retry: ", entry.retryClass.advice, style: style)
        lines += TextLayout.wrap(entry.description, width: TextLayout.width - 2).map { "  " + $0 }
        if showNote, let note = explanation.note {
            lines += indented("Note: ", note, style: style)
        }
        if explanation.report != nil {
            if explanation.matchedCauses.isEmpty {
                lines += ["", "  " + style.bold(entry.causes.isEmpty
                    ? "No cause recognised in the message."
                    : "No cause recognised in the message; the causes of \(entry.name):")]
                lines += causeLines(entry.causes, style: style)
            } else {
                lines += ["", "  " + style.bold(explanation.matchedCauses.count == 1 ? "Likely cause:" : "Likely causes, best first:")]
                lines += causeLines(explanation.matchedCauses, style: style)
                let others = explanation.otherCauses
                if !others.isEmpty {
                    lines += ["", "  " + style.bold("Other causes of \(entry.name):")]
                    lines += causeLines(others, style: style)
                }
            }
        } else if entry.causes.isEmpty {
            lines += ["", "  " + (entry.code == .ok ? "Nothing to fix." : "No Fleet Engine cause of its own.")]
        } else {
            lines += ["", "  " + style.bold("Causes:")]
            lines += causeLines(entry.causes, style: style)
        }
        return lines
    }

    /// The `--list` table: number, name, HTTP status and retry class of all 17 codes.
    public static func table(style: Style) -> String {
        var lines = [style.bold("gRPC  NAME                 HTTP  RETRY")]
        for entry in ErrorCatalogue.entries {
            let number = String(repeating: " ", count: 4 - String(entry.number).count) + String(entry.number)
            let name = entry.name + String(repeating: " ", count: max(1, 21 - entry.name.count))
            lines.append("\(number)  \(retryColour(entry.retryClass, style)(name))\(entry.httpStatus)   \(entry.retryClass.label)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What every executable prints on standard error for a `FleetError`: the code and message,
    /// its retry class, and the cause with its remedy.
    public static func errorReport(_ error: FleetError, toolName: String, style: Style) -> String {
        let explanation = error.explanation
        let entry = explanation.entry
        var lines = TextLayout.wrap("\(toolName): \(style.red(entry.name)): \(error.message)", width: TextLayout.width)
        lines += indented("", "gRPC \(entry.number), HTTP \(entry.httpStatus); \(entry.retryClass.advice)", style: style)
        if let field = error.field { lines += indented("Field: ", field, style: style) }
        if let cause = explanation.matchedCauses.first {
            lines += indented("Cause: ", "\(cause.id): \(cause.summary)", style: style)
            lines += indented("Remedy: ", cause.remedy, style: style)
        } else {
            lines += indented("", "Run 'error-explain \(entry.name)' for its causes.", style: style)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func causeLines(_ causes: [ErrorCause], style: Style) -> [String] {
        var lines: [String] = []
        for cause in causes {
            let head = TextLayout.wrap(cause.summary, width: TextLayout.width - 4,
                                       firstLineWidth: TextLayout.width - 6 - cause.id.count)
            lines.append("  - " + style.cyan(cause.id) + ": " + (head.first ?? ""))
            lines += head.dropFirst().map { "    " + $0 }
            let remedy = TextLayout.wrap(cause.remedy, width: TextLayout.width - 4, firstLineWidth: TextLayout.width - 12)
            lines.append("    " + style.dim("Remedy: ") + (remedy.first ?? ""))
            lines += remedy.dropFirst().map { "    " + $0 }
        }
        return lines
    }

    /// `label` then `text` wrapped, both indented by two spaces.
    private static func indented(_ label: String, _ text: String, style: Style) -> [String] {
        let wrapped = TextLayout.wrap(text, width: TextLayout.width - 2, firstLineWidth: TextLayout.width - 2 - label.count)
        guard let first = wrapped.first else { return [] }
        return ["  " + style.dim(label) + first] + wrapped.dropFirst().map { "  " + $0 }
    }

    private static func retryColour(_ retryClass: RetryClass, _ style: Style) -> (String) -> String {
        switch retryClass {
        case .none: style.green
        case .retryable: style.yellow
        case .client: style.red
        }
    }

    private static func describeInput(_ input: String) -> String {
        if let status = Int(input.trimmingSpaces) { return "HTTP \(status)" }
        return "'\(input)'"
    }

    /// A report in one line: its shape, HTTP status, status or code, message and reason.
    static func describe(_ report: ErrorReport) -> String {
        var parts: [String] = []
        switch report.format {
        case .googleErrorBody: parts.append("Google error body")
        case .rpcStatus: parts.append("google.rpc.Status")
        case .nsError: parts.append("NSError (domain \(report.domain ?? "?"))")
        case .statusLine: parts.append("gRPC status line")
        case .message: parts.append("message without a code")
        }
        if let httpStatus = report.httpStatus { parts.append("HTTP \(httpStatus)") }
        if let number = report.grpcNumber { parts.append("code \(number)") }
        if let status = report.statusName { parts.append("status \(status)") }
        var text = parts.joined(separator: ", ")
        if let message = report.message, report.format != .message { text += ": \"\(message)\"" }
        if let reason = report.reason { text += " (reason \(reason))" }
        for violation in report.fieldViolations { text += "; field \(violation.field): \(violation.description)" }
        return text
    }
}
