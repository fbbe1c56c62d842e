/// The values of a parsed command line. Commands read their options through the declarations of an
/// `OptionGroup` (`try ServeFlags(arguments)`) and their positional arguments through `Argument`s;
/// the getters by name serve that reading and programs that read a few options by name (the test
/// helpers, fleet-bench).
///
/// Options and positional arguments share one namespace: `string("transport")` reads
/// `--transport`, `string("code")` the argument `<code>`. A value comes from the command line,
/// else the option's environment variable, else its default. A value that does not convert
/// (`int("count")` of `ten`) throws a `UsageError` naming the option and where the value came from.
/// Asking for a name the command does not declare is a programming error and stops the program.
public struct ParsedArguments: Sendable {
    /// Where a value came from.
    public enum Source: Sendable, Hashable {
        /// Typed on the command line.
        case commandLine
        /// Read from this environment variable.
        case environment(String)
        /// The declared default.
        case defaultValue
    }

    /// What a name was declared as.
    enum Declaration: Sendable, Hashable {
        case option, flag, argument
    }

    /// The command names from the tool to the command being run (`["fleet-admin", "vehicles", "get"]`).
    public let commandPath: [String]
    private let values: [String: [String]]
    private let sources: [String: Source]
    private let flags: [String: Bool]
    private let declared: [String: Declaration]

    /// Values given directly, all as if typed on the command line: for tests of handlers.
    /// Every name in `values` counts as an option, every name in `flags` as a flag.
    public init(commandPath: [String], values: [String: [String]] = [:], flags: [String: Bool] = [:]) {
        var declared: [String: Declaration] = [:]
        for name in values.keys { declared[name] = .option }
        for name in flags.keys { declared[name] = .flag }
        self.init(commandPath: commandPath, values: values, flags: flags,
                  sources: values.mapValues { _ in .commandLine }, declared: declared)
    }

    /// Parsed values, as `CommandLineParser` builds them.
    init(commandPath: [String], values: [String: [String]], flags: [String: Bool],
         sources: [String: Source], declared: [String: Declaration]) {
        self.commandPath = commandPath
        self.values = values
        self.flags = flags
        self.sources = sources
        self.declared = declared
    }

    /// The value of an option or argument (the last one, for an option given several times), or nil.
    public func string(_ name: String) -> String? {
        checkDeclared(name)
        return values[name]?.last
    }

    /// Every value of a repeatable option or variadic argument, in order; empty when none.
    public func strings(_ name: String) -> [String] {
        checkDeclared(name)
        return values[name] ?? []
    }

    /// Whether a flag is set.
    public func flag(_ name: String) -> Bool {
        checkDeclared(name)
        return flags[name] ?? false
    }

    /// Whether an option, argument or flag was given on the command line or by its environment
    /// variable (not only by its default).
    public func isGiven(_ name: String) -> Bool {
        checkDeclared(name)
        if let source = sources[name] { return source != .defaultValue }
        return false
    }

    /// Where the value of `name` came from, or nil when it has none.
    public func source(_ name: String) -> Source? {
        checkDeclared(name)
        return sources[name]
    }

    /// The value of `name`; a usage error when it has none.
    public func require(_ name: String) throws(UsageError) -> String {
        guard let value = string(name) else {
            throw UsageError("missing \(displayName(name))", commandPath: commandPath)
        }
        return value
    }

    /// The value as an integer, or nil when absent; a usage error when it is not an integer.
    public func int(_ name: String) throws(UsageError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text.trimmingSpaces) else { throw invalid(name, text, "is not an integer") }
        return value
    }

    /// The value as a finite number, or nil when absent; a usage error when it is not a number.
    public func double(_ name: String) throws(UsageError) -> Double? {
        guard let text = string(name) else { return nil }
        guard let value = Double(text.trimmingSpaces), value.isFinite else { throw invalid(name, text, "is not a number") }
        return value
    }

    /// The value as a duration (`500ms`, `30s`, `5m`, `1h`, `1m30s`, `2.5s`; a bare number is
    /// seconds), or nil when absent; a usage error when it is not a duration.
    public func duration(_ name: String) throws(UsageError) -> Duration? {
        guard let text = string(name) else { return nil }
        guard let value = DurationText.parse(text) else {
            throw invalid(name, text, "is not a duration (write it like 500ms, 30s, 5m, 1h or 1m30s)")
        }
        return value
    }

    /// A usage error about this command (for checks a handler makes itself).
    public func usageError(_ message: String) -> UsageError {
        UsageError(message, commandPath: commandPath)
    }

    private func invalid(_ name: String, _ text: String, _ problem: String) -> UsageError {
        var where_ = ""
        if case .environment(let variable)? = sources[name] { where_ = " (from \(variable))" }
        return UsageError("\(displayName(name)): '\(text)'\(where_) \(problem)", commandPath: commandPath)
    }

    /// Whether the command declares an option or flag called `name` (without dashes).
    public func declares(option name: String) -> Bool {
        declared[name] == .option || declared[name] == .flag
    }

    private func displayName(_ name: String) -> String {
        declared[name] == .argument ? "<\(name)>" : "--\(name)"
    }

    private func checkDeclared(_ name: String) {
        precondition(declared[name] != nil, "'\(name)' is not declared by \(commandPath.joined(separator: " "))")
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
