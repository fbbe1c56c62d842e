import FleetJSON
/// Reads error reports out of text someone pasted or piped: a Google error JSON body (or an
/// array of them), or lines such as an iOS `NSError` description or a gRPC status line.
public enum ErrorReportReader {
    /// What reading found.
    public enum Outcome: Sendable, Hashable {
        /// One report or more, in the order they appear.
        case reports([ErrorReport])
        /// Nothing recognisable; `reason` says why, for a person.
        case unrecognised(reason: String)
    }

    /// Reads `text`. JSON (text starting with `{` or `[`) is read as Google error bodies; other
    /// text line by line, each line with an error code becoming a report; text with no code at
    /// all is read as one message and recognised by the words of the catalogue's causes.
    public static func read(_ text: String) -> Outcome {
        let trimmed = text.trimmingWhitespace
        if trimmed.isEmpty { return .unrecognised(reason: "the input is empty") }
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return readJSON(trimmed) }

        var reports: [ErrorReport] = []
        var refusals: [String] = []
        for line in trimmed.split(whereSeparator: \.isNewline) {
            switch readLine(String(line)) {
            case .report(let report): reports.append(report)
            case .refused(let reason): refusals.append(reason)
            case .nothing: continue
            }
        }
        if !reports.isEmpty { return .reports(reports) }
        if let refusal = refusals.first { return .unrecognised(reason: refusal) }

        let message = ErrorReport(format: .message, message: trimmed)
        if message.code != nil { return .reports([message]) }
        return .unrecognised(reason: "found no gRPC code, HTTP status or known error message in the input")
    }

    // MARK: JSON bodies

    private static func readJSON(_ text: String) -> Outcome {
        guard let value = try? JSON(parsing: text) else {
            return .unrecognised(reason: "the input starts like JSON but is not valid JSON")
        }
        let candidates: [JSON]
        if case .array(let elements) = value { candidates = elements } else { candidates = [value] }
        let reports = candidates.compactMap(report(fromJSON:))
        if reports.isEmpty {
            return .unrecognised(reason: "the JSON has no \"error\" object with a \"code\" or \"status\", nor a \"code\" of its own")
        }
        return .reports(reports)
    }

    private static func report(fromJSON value: JSON) -> ErrorReport? {
        if let error = value["error"], case .object = error {
            // Google's REST error body: error.code is the HTTP status.
            var report = ErrorReport(format: .googleErrorBody)
            report.httpStatus = error["code"]?.intValue
            report.statusName = error["status"]?.stringValue
            report.message = error["message"]?.stringValue
            readDetails(error["details"], into: &report)
            return report.httpStatus == nil && report.statusName == nil ? nil : report
        }
        // A google.rpc.Status: code is the gRPC number (an HTTP status if it is one).
        let code = value["code"]?.intValue
        let status = value["status"]?.stringValue ?? value["code"]?.stringValue
        guard code != nil || status != nil else { return nil }
        var report = ErrorReport(format: .rpcStatus, statusName: status, message: value["message"]?.stringValue)
        if let code {
            if (100...599).contains(code) { report.httpStatus = code } else { report.grpcNumber = code }
        }
        readDetails(value["details"], into: &report)
        return report
    }

    private static func readDetails(_ details: JSON?, into report: inout ErrorReport) {
        guard case .array(let items)? = details else { return }
        for item in items {
            if report.reason == nil, let reason = item["reason"]?.stringValue {
                report.reason = reason
                report.domain = item["domain"]?.stringValue
            }
            if case .array(let violations)? = item["fieldViolations"] {
                for violation in violations {
                    report.fieldViolations.append(ErrorReport.FieldViolation(
                        field: violation["field"]?.stringValue ?? "",
                        description: violation["description"]?.stringValue ?? ""))
                }
            }
        }
    }

    // MARK: Lines

    private enum LineOutcome {
        case report(ErrorReport)
        case refused(String)
        case nothing
    }

    private static func readLine(_ line: String) -> LineOutcome {
        if line.contains("Domain=") { return readNSError(line) }
        if let report = readKeyedStatus(line) { return .report(report) }
        if let report = readColonStatus(line) { return .report(report) }
        return .nothing
    }

    /// `Error Domain=io.grpc Code=7 "JWT signed for another trip" UserInfo={…}`.
    private static func readNSError(_ line: String) -> LineOutcome {
        let scanner = LineScanner(line)
        let domain = scanner.word(after: "Domain=") ?? ""
        guard let codeText = scanner.word(after: "Code=") else {
            return .refused("the NSError line has no Code=")
        }
        guard domain.lowercased() == "io.grpc" else {
            return .refused("the NSError domain is \(domain.isEmpty ? "empty" : domain), not io.grpc, so its Code=\(codeText) is not a gRPC code")
        }
        guard let number = Int(codeText), ErrorCatalogue.entry(number: number) != nil else {
            return .refused("io.grpc Code=\(codeText) is not a gRPC code number (0–16)")
        }
        let message = scanner.quotedText(after: "Code=") ?? scanner.text(after: "NSLocalizedDescription=")
        return .report(ErrorReport(format: .nsError, grpcNumber: number, message: message, domain: domain))
    }

    /// Go's `rpc error: code = Unavailable desc = …` and Java's `Status{code=NOT_FOUND, description=…, cause=…}`.
    private static func readKeyedStatus(_ line: String) -> ErrorReport? {
        let scanner = LineScanner(line)
        guard let codeText = scanner.value(ofKey: "code") else { return nil }
        var report = ErrorReport(format: .statusLine)
        if let number = Int(codeText) {
            guard ErrorCatalogue.entry(number: number) != nil else { return nil }
            report.grpcNumber = number
        } else {
            guard GRPCCode(spelling: codeText) != nil else { return nil }
            report.statusName = codeText
        }
        if var description = scanner.rest(afterKey: "description") ?? scanner.rest(afterKey: "desc") {
            if let end = description.firstRange(of: ", cause=") { description = String(description[..<end.lowerBound]) }
            if description.hasSuffix("}") { description.removeLast() }
            report.message = description.trimmingWhitespace
        }
        return report
    }

    /// `PERMISSION_DENIED: JWT signed for another trip`, also after an exception's class name
    /// (`io.grpc.StatusRuntimeException: UNAVAILABLE: io exception`). Only the canonical upper
    /// snake case name counts here, so ordinary words are not mistaken for codes.
    private static func readColonStatus(_ line: String) -> ErrorReport? {
        let parts = line.split(separator: ":", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            guard let code = GRPCCode(name: part.trimmingWhitespace), code != .ok else { continue }
            let message = parts[(index + 1)...].joined(separator: ":").trimmingWhitespace
            return ErrorReport(format: .statusLine, statusName: code.name, message: message.isEmpty ? nil : message)
        }
        return nil
    }
}
