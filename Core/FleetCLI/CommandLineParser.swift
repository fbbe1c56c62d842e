/// What a command line asks for, once parsed.
public enum ParseOutcome: Sendable {
    /// Run the last command of `path` (the root first) with these values.
    case run(path: [Command], arguments: ParsedArguments)
    /// Print the help of the last command of `path` (`-h`/`--help` anywhere).
    case help(path: [Command])
    /// Print the root's version (`--version`).
    case version(String)
    /// Print a completion script (`--generate-completion-script bash|zsh`).
    case completionScript(String)
}

/// Parses command lines against a declared `Command` tree.
///
/// Rules: subcommand names come before the command's own positional arguments; options of a
/// command are accepted after it and after any of its subcommands; `--name VALUE`,
/// `--name=VALUE`, `-n VALUE`, `-nVALUE` and clustered short flags (`-jv`) are read; `--` ends
/// options; `-` and negative numbers are positional; `-h`/`--help` anywhere asks for the help of
/// the deepest command named, even when the rest of the line has mistakes.
public struct CommandLineParser: Sendable {
    /// The root command (the tool).
    public let root: Command

    /// A parser for the tool `root`.
    public init(_ root: Command) {
        self.root = root
    }

    /// The hidden root option that prints a completion script.
    public static let completionOption = "generate-completion-script"

    /// Parses `arguments` (without the program name); `environment` feeds options' environment variables.
    public func parse(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> ParseOutcome {
        var state = State(root: root)
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if state.optionsEnded {
                state.positionals.append(token)
            } else if token == "--" {
                state.optionsEnded = true
            } else if token == "-h" || token == "--help" {
                state.helpRequested = true
            } else if token == "--version", state.path.count == 1, root.version != nil {
                state.versionRequested = true
            } else if token.hasPrefix("--") {
                readLongOption(token, arguments: arguments, index: &index, state: &state)
            } else if token.hasPrefix("-"), token.count > 1, Double(token) == nil {
                readShortOptions(token, arguments: arguments, index: &index, state: &state)
            } else {
                readWord(token, state: &state)
            }
        }

        if state.helpRequested { return .help(path: state.path) }
        if let error = state.firstError { throw error }
        if let shell = state.completionShell {
            guard let script = CompletionScript.script(for: root, shell: shell) else {
                throw UsageError("--\(Self.completionOption): unknown shell '\(shell)' (use \(CompletionScript.shells.joined(separator: " or ")))",
                                 commandPath: [root.name])
            }
            return .completionScript(script)
        }
        if state.versionRequested, let version = root.version { return .version(version) }
        return .run(path: state.path, arguments: try bind(state, environment: environment))
    }

    // MARK: Reading tokens

    private struct State {
        var path: [Command]
        var given: [String: [String]] = [:]
        var flagsGiven: Set<String> = []
        var positionals: [String] = []
        var optionsEnded = false
        var helpRequested = false
        var versionRequested = false
        var completionShell: String?
        var firstError: UsageError?

        init(root: Command) { path = [root] }

        var names: [String] { path.map(\.name) }
        var visibleOptions: [OptionDefinition] { path.flatMap(\.options) }

        mutating func fail(_ message: String) {
            if firstError == nil { firstError = UsageError(message, commandPath: names) }
        }
    }

    private func readLongOption(_ token: String, arguments: [String], index: inout Int, state: inout State) {
        let body = token.dropFirst(2)
        let name: String
        var inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
            name = String(body[..<equals])
            inlineValue = String(body[body.index(after: equals)...])
        } else {
            name = String(body)
        }
        if name == Self.completionOption, state.path.count == 1 {
            state.completionShell = inlineValue ?? takeValue(arguments: arguments, index: &index) ?? ""
            return
        }
        guard let option = state.visibleOptions.first(where: { $0.name == name }) else {
            var known = state.visibleOptions.filter { !$0.isHidden }.map(\.name) + ["help"]
            if state.path.count == 1 && root.version != nil { known.append("version") }
            let hint = Suggestion.nearest(to: name, among: known).map { "; did you mean '--\($0)'?" } ?? ""
            state.fail("unknown option '--\(name)'\(hint)")
            return
        }
        switch option.kind {
        case .flag:
            if inlineValue != nil {
                state.fail("--\(name) is a flag and takes no value")
            } else {
                state.flagsGiven.insert(name)
            }
        case .value:
            guard let value = inlineValue ?? takeValue(arguments: arguments, index: &index) else {
                state.fail("--\(name) needs a value <\(option.valueName)>")
                return
            }
            state.given[name, default: []].append(value)
        }
    }

    private func readShortOptions(_ token: String, arguments: [String], index: inout Int, state: inout State) {
        var rest = Substring(token.dropFirst())
        while let letter = rest.first {
            rest = rest.dropFirst()
            guard let option = state.visibleOptions.first(where: { $0.short == letter }) else {
                if letter == "h" { state.helpRequested = true; continue }
                state.fail("unknown option '-\(letter)'")
                return
            }
            switch option.kind {
            case .flag:
                state.flagsGiven.insert(option.name)
            case .value:
                let value = rest.isEmpty ? takeValue(arguments: arguments, index: &index) : String(rest)
                guard let value else {
                    state.fail("-\(letter) needs a value <\(option.valueName)>")
                    return
                }
                state.given[option.name, default: []].append(value)
                return
            }
        }
    }

    private func readWord(_ token: String, state: inout State) {
        let current = state.path[state.path.count - 1]
        if state.positionals.isEmpty, let subcommand = current.subcommand(named: token) {
            state.path.append(subcommand)
            return
        }
        if !current.subcommands.isEmpty && current.arguments.isEmpty && state.firstError == nil {
            let hint = Suggestion.nearest(to: token, among: current.subcommands.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
            state.fail("unknown subcommand '\(token)'\(hint)")
            return
        }
        state.positionals.append(token)
    }

    /// The next token as an option's value, unless it is itself an option (`--x`, or a `-x`
    /// that is not a negative number) or there is none.
    private func takeValue(arguments: [String], index: inout Int) -> String? {
        guard index < arguments.count else { return nil }
        let next = arguments[index]
        if next.hasPrefix("--") || (next.hasPrefix("-") && next.count > 1 && Double(next) == nil) { return nil }
        index += 1
        return next
    }

    // MARK: Binding values

    private func bind(_ state: State, environment: [String: String]) throws(UsageError) -> ParsedArguments {
        let command = state.path[state.path.count - 1]
        let commandPath = state.names
        func failure(_ message: String) -> UsageError { UsageError(message, commandPath: commandPath) }

        // A group needs one of its subcommands; a leaf without a handler is run by its caller (`parseOrExit`).
        if command.handler == nil && !command.subcommands.isEmpty {
            let names = command.subcommands.map(\.name).joined(separator: ", ")
            throw failure("'\(commandPath.joined(separator: " "))' needs a subcommand: \(names)")
        }

        var values: [String: [String]] = [:]
        var flags: [String: Bool] = [:]
        var sources: [String: ParsedArguments.Source] = [:]
        var declared: [String: ParsedArguments.Declaration] = [:]

        for option in state.visibleOptions {
            switch option.kind {
            case .flag:
                declared[option.name] = .flag
                if state.flagsGiven.contains(option.name) {
                    flags[option.name] = true
                    sources[option.name] = .commandLine
                } else if let variable = option.environment, let text = environment[variable], !text.isEmpty {
                    guard let value = Self.booleanValue(text) else {
                        throw failure("\(variable)='\(text)' is not a boolean (use 1/0, true/false, yes/no, on/off) for --\(option.name)")
                    }
                    flags[option.name] = value
                    sources[option.name] = .environment(variable)
                } else {
                    flags[option.name] = false
                }
            case .value:
                declared[option.name] = .option
                var optionValues: [String] = []
                if let given = state.given[option.name] {
                    optionValues = option.isRepeatable ? given : [given[given.count - 1]]
                    sources[option.name] = .commandLine
                } else if let variable = option.environment, let text = environment[variable], !text.isEmpty {
                    optionValues = [text]
                    sources[option.name] = .environment(variable)
                } else if let defaultValue = option.defaultValue {
                    optionValues = [defaultValue]
                    sources[option.name] = .defaultValue
                } else if option.isRequired {
                    let variable = option.environment.map { " (or set \($0))" } ?? ""
                    throw failure("missing --\(option.name) <\(option.valueName)>\(variable)")
                }
                if !option.allowedValues.isEmpty {
                    for value in optionValues where !option.allowedValues.contains(value) {
                        var from = ""
                        if case .environment(let variable)? = sources[option.name] { from = " (from \(variable))" }
                        let hint = Suggestion.nearest(to: value, among: option.allowedValues).map { "; did you mean '\($0)'?" } ?? ""
                        throw failure("--\(option.name): '\(value)'\(from) is not one of \(option.allowedValues.joined(separator: ", "))\(hint)")
                    }
                }
                if !optionValues.isEmpty { values[option.name] = optionValues }
            }
        }

        var remaining = state.positionals[...]
        for (position, argument) in command.arguments.enumerated() {
            declared[argument.name] = .argument
            let requiredAfter = command.arguments[(position + 1)...].reduce(0) { count, later in
                switch later.arity {
                case .required: count + 1
                case .optional: count
                case .variadic(let minimum): count + minimum
                }
            }
            switch argument.arity {
            case .required:
                guard let value = remaining.popFirst() else { throw failure("missing argument <\(argument.name)>") }
                values[argument.name] = [value]
            case .optional:
                if remaining.count > requiredAfter, let value = remaining.popFirst() { values[argument.name] = [value] }
            case .variadic(let minimum):
                let taken = Array(remaining)
                remaining = []
                guard taken.count >= minimum else {
                    throw failure(minimum == 1 ? "missing argument <\(argument.name)>"
                                               : "<\(argument.name)> needs at least \(minimum) values")
                }
                if !taken.isEmpty { values[argument.name] = taken }
            }
            if values[argument.name] != nil { sources[argument.name] = .commandLine }
        }
        if let extra = remaining.first {
            throw failure("unexpected argument '\(extra)'")
        }
        return ParsedArguments(commandPath: commandPath, values: values, flags: flags, sources: sources, declared: declared)
    }

    /// The value of a boolean environment variable, or nil when it is not one.
    static func booleanValue(_ text: String) -> Bool? {
        switch text.trimmingSpaces.lowercased() {
        case "1", "true", "yes", "on": true
        case "0", "false", "no", "off": false
        default: nil
        }
    }
}
