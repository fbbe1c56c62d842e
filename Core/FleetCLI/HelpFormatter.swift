/// The help text of a command, made from its declaration: overview, usage line, arguments,
/// options (with defaults, allowed values and environment variables), options inherited from
/// parent commands, subcommands and examples.
public enum HelpFormatter {
    /// The column where help texts start.
    static let column = 28

    /// Help for the last command of `path` (the root first).
    public static func help(for path: [Command]) -> String {
        let command = path[path.count - 1]
        let commandLine = path.map(\.name).joined(separator: " ")
        var lines: [String] = []
        lines += TextLayout.wrap("OVERVIEW: " + command.abstract, width: TextLayout.width)
        if let discussion = command.discussion {
            lines.append("")
            lines += TextLayout.wrap(discussion, width: TextLayout.width)
        }
        lines.append("")
        lines += TextLayout.wrap("USAGE: " + usage(for: path), width: TextLayout.width)

        if !command.arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            for argument in command.arguments {
                lines += TextLayout.row("  " + argument.synopsis, argument.help, column: column)
            }
        }

        var ownOptions = command.options.filter { !$0.isHidden }.map(optionRow)
        ownOptions.append(("-h, --help", "Show help information."))
        if path.count == 1, command.version != nil { ownOptions.append(("--version", "Show the version."))}
        lines += ["", "OPTIONS:"]
        for (left, right) in ownOptions { lines += TextLayout.row("  " + left, right, column: column) }

        let inherited = path.dropLast().flatMap(\.options).filter { !$0.isHidden }
        if !inherited.isEmpty {
            lines += ["", "GLOBAL OPTIONS:"]
            for option in inherited {
                let (left, right) = optionRow(option)
                lines += TextLayout.row("  " + left, right, column: column)
            }
        }

        if !command.subcommands.isEmpty {
            lines += ["", "SUBCOMMANDS:"]
            for subcommand in command.subcommands {
                lines += TextLayout.row("  " + subcommand.name, subcommand.abstract, column: column)
            }
            lines += ["", "  See '\(commandLine) <subcommand> --help' for the options of each."]
        }

        if !command.examples.isEmpty {
            lines += ["", "EXAMPLES:"]
            for example in command.examples {
                lines.append("  $ " + example.command)
                lines += TextLayout.wrap(example.explanation, width: TextLayout.width - 6).map { "      " + $0 }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The usage line of the last command of `path`: `tool sub [<options>] <arg> ...`.
    public static func usage(for path: [Command]) -> String {
        let command = path[path.count - 1]
        var parts = [path.map(\.name).joined(separator: " ")]
        let options = path.flatMap(\.options).filter { !$0.isHidden }
        let required = options.filter { $0.isRequired && $0.defaultValue == nil }
        for option in required { parts.append("--\(option.name) <\(option.valueName)>") }
        if options.count > required.count { parts.append("[<options>]") }
        parts += command.arguments.map(\.synopsis)
        if !command.subcommands.isEmpty { parts.append(command.handler == nil ? "<subcommand>" : "[<subcommand>]") }
        return parts.joined(separator: " ")
    }

    private static func optionRow(_ option: OptionDefinition) -> (String, String) {
        var left = option.short.map { "-\($0), " } ?? ""
        left += "--" + option.name
        if option.kind == .value { left += " <\(option.valueName)>" }
        var facts: [String] = []
        if !option.allowedValues.isEmpty { facts.append("values: " + option.allowedValues.joined(separator: ", ")) }
        if let defaultValue = option.defaultValue { facts.append("default: " + defaultValue) }
        if let variable = option.environment { facts.append("env: " + variable) }
        if option.isRepeatable { facts.append("repeatable") }
        if option.isRequired { facts.append("required") }
        let right = facts.isEmpty ? option.help : option.help + " (" + facts.joined(separator: "; ") + ")"
        return (left, right)
    }
}
