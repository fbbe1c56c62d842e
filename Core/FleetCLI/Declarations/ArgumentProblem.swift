/// What is wrong with a value given for an option, worded without the option's name, which the
/// parser puts in front: a conversion (`ExpressibleByArgument`) or a check of a declaration throws
/// it, and the command line fails with a usage error (exit 2) naming the option.
public struct ArgumentProblem: Error, Sendable, Hashable {
    /// How the message is put after the option's name.
    enum Wording: Sendable, Hashable {
        /// `--count: 'ten' (from COUNT) is not an integer`: the value as typed, where it came from, the problem.
        case aboutText
        /// `--page-size: 0 is out of range (1…100)`.
        case detail
        /// `--max-body must be positive`, and with `showingText` `…, got '0'`.
        case sentence(showingText: Bool)
    }

    /// The problem, without the option's name (`is not an integer`).
    public let message: String
    let wording: Wording

    /// A value that does not read as what the option expects: reported as `--name: 'TEXT' MESSAGE`,
    /// with `(from VARIABLE)` after the text when an environment variable gave it.
    public init(_ message: String) {
        self.init(message: message, wording: .aboutText)
    }

    private init(message: String, wording: Wording) {
        self.message = message
        self.wording = wording
    }

    /// Reported as `--name: MESSAGE` (the message shows the value itself, as it wants).
    public static func detail(_ message: String) -> ArgumentProblem {
        ArgumentProblem(message: message, wording: .detail)
    }

    /// Reported as `--name MESSAGE`, followed by `, got 'TEXT'` when `showingText`.
    public static func sentence(_ message: String, showingText: Bool = false) -> ArgumentProblem {
        ArgumentProblem(message: message, wording: .sentence(showingText: showingText))
    }

    /// The whole message about `text`, given for the option or argument spelt `label` (`--count`, `<code>`).
    public func report(label: String, text: String, source: ParsedArguments.Source?) -> String {
        switch wording {
        case .aboutText:
            var from = ""
            if case .environment(let variable)? = source { from = " (from \(variable))" }
            return "\(label): '\(text)'\(from) \(message)"
        case .detail:
            return "\(label): \(message)"
        case .sentence(let showingText):
            return "\(label) \(message)" + (showingText ? ", got '\(text)'" : "")
        }
    }
}

/// Options of a group that do not go together, found by `OptionGroup.validate()`: a usage error
/// (exit 2) with this message, for the command being run.
public struct ValidationError: Error, Sendable, Hashable {
    /// The whole message (`--json and --jsonl cannot be used together`).
    public let message: String

    /// A validation error.
    public init(_ message: String) {
        self.message = message
    }
}
