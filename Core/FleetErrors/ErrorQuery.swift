/// What one `error-explain` argument asks about, read from its text.
///
/// Numbers 0–16 are gRPC numbers and 100–599 HTTP statuses; `io.grpc:N`, `io.grpc/N` and
/// `grpc:N` force a gRPC number, `http:N` (or `HTTP N`) an HTTP status; anything else is a code
/// name in any spelling; `-` asks to read an error body or line from standard input.
public enum ErrorQuery: Sendable, Hashable {
    /// A gRPC code, named or numbered.
    case code(GRPCCode)
    /// An HTTP status and the codes it stands for.
    case httpStatus(HTTPStatusMapping)
    /// `-`: read an error body or line from standard input.
    case standardInput
    /// Not understood; `reason` says what was wrong, for a person.
    case unrecognised(input: String, reason: String)

    /// Reads one argument.
    public init(argument: String) {
        let text = argument.trimmingWhitespace
        if text == "-" {
            self = .standardInput
            return
        }
        if text.isEmpty {
            self = .unrecognised(input: argument, reason: "the argument is empty")
            return
        }
        if let number = Int(text) {
            self = ErrorQuery.number(number, input: argument)
            return
        }
        let lowered = text.lowercased()
        for prefix in ["io.grpc:", "io.grpc/", "io.grpc ", "grpc:", "grpc/", "grpc "] where lowered.hasPrefix(prefix) {
            let rest = String(text.dropFirst(prefix.count)).trimmingWhitespace
            if let number = Int(rest) {
                self = ErrorQuery.grpcNumber(number, input: argument)
            } else if let code = GRPCCode(spelling: rest) {
                self = .code(code)
            } else {
                self = .unrecognised(input: argument, reason: "'\(rest)' is not a gRPC code number (0–16) or name")
            }
            return
        }
        for prefix in ["http:", "http/", "http "] where lowered.hasPrefix(prefix) {
            let rest = String(text.dropFirst(prefix.count)).trimmingWhitespace
            if let number = Int(rest) {
                self = ErrorQuery.httpStatus(number, input: argument)
            } else {
                self = .unrecognised(input: argument, reason: "'\(rest)' is not an HTTP status number")
            }
            return
        }
        if let code = GRPCCode(spelling: text) {
            self = .code(code)
        } else {
            self = .unrecognised(input: argument, reason: "not a gRPC code name, a gRPC number (0–16) or an HTTP status (100–599)")
        }
    }

    /// The catalogue entries the query names, most likely first; empty for stdin or unrecognised.
    public var entries: [CatalogueEntry] {
        switch self {
        case .code(let code): [ErrorCatalogue.entry(for: code)]
        case .httpStatus(let mapping): mapping.codes.map(ErrorCatalogue.entry(for:))
        case .standardInput, .unrecognised: []
        }
    }

    private static func number(_ number: Int, input: String) -> ErrorQuery {
        if (0...16).contains(number) { return grpcNumber(number, input: input) }
        if (100...599).contains(number) { return httpStatus(number, input: input) }
        return .unrecognised(input: input, reason: "\(number) is neither a gRPC code number (0–16) nor an HTTP status (100–599)")
    }

    private static func grpcNumber(_ number: Int, input: String) -> ErrorQuery {
        guard let entry = ErrorCatalogue.entry(number: number) else {
            return .unrecognised(input: input, reason: "gRPC code numbers run from 0 to 16, not \(number)")
        }
        return .code(entry.code)
    }

    private static func httpStatus(_ status: Int, input: String) -> ErrorQuery {
        guard let mapping = HTTPStatusMapping.mapping(for: status) else {
            let reason = (100...599).contains(status)
                ? "HTTP \(status) is not an error status (only 200 and 4xx/5xx map to gRPC codes)"
                : "\(status) is not an HTTP status (100–599)"
            return .unrecognised(input: input, reason: reason)
        }
        return .httpStatus(mapping)
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space (spaces, tabs, new lines).
    var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
