/// A command (or subcommand) declared once: its name, help texts, options, positional arguments,
/// subcommands, examples and the handler that runs it. Help, completion scripts and parsing all
/// come from this declaration.
///
/// ```swift
/// struct Connection: OptionGroup {
///     @Option("transport", valueName: "url", help: "Where the engine is.", default: "memory", environment: "FLEET_TRANSPORT")
///     var transport: String
///     @Flag("json", short: "j", help: "Print JSON.") var json: Bool
/// }
///
/// let tool = Command("fleet-admin", abstract: "Manage a fleet.", options: Connection.options, subcommands: [
///     Command("vehicles", abstract: "Manage vehicles.", subcommands: [
///         Command("get", abstract: "Show a vehicle.", arguments: [Argument("vehicle-id", help: "The vehicle.")]) { args, context in
///             let connection = try Connection(args)
///             context.print("\(try args.require("vehicle-id")) over \(connection.transport)"); return 0
///         },
///     ]),
/// ])
/// await CommandLineTool.main(tool)
/// ```
public struct Command: Sendable {
    /// Runs a parsed command and returns its exit status. Throw `UsageError` for a bad command
    /// line (exit 2) and `FleetError` for a failed call (exit 10 + gRPC number).
    public typealias Handler = @Sendable (ParsedArguments, Context) async throws -> Int32

    /// The name typed on the command line (the tool's name for the root).
    public let name: String
    /// One line saying what the command does.
    public let abstract: String
    /// Paragraphs shown in help after the abstract.
    public let discussion: String?
    /// The version printed by `--version` (root command only), if any.
    public let version: String?
    /// Options and flags, in the order help shows them.
    public let options: [OptionDefinition]
    /// Positional arguments, in order.
    public let arguments: [Argument]
    /// Subcommands, in the order help shows them.
    public let subcommands: [Command]
    /// Examples shown in help.
    public let examples: [Example]
    /// What runs the command; nil for a command that only groups subcommands.
    public let handler: Handler?

    /// A command.
    public init(_ name: String, abstract: String, discussion: String? = nil, version: String? = nil,
                options: [OptionDefinition] = [], arguments: [Argument] = [], subcommands: [Command] = [],
                examples: [Example] = [], handler: Handler? = nil) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.version = version
        self.options = options
        self.arguments = arguments
        self.subcommands = subcommands
        self.examples = examples
        self.handler = handler
    }

    /// The subcommand with this name, if any.
    public func subcommand(named name: String) -> Command? {
        subcommands.first { $0.name == name }
    }

    /// Mistakes in the declaration of this command and its subcommands (duplicate names, a
    /// variadic argument not last, a group without handler or subcommands…); empty when sound.
    /// Tests call it for every executable's command.
    public func declarationProblems(inherited: [OptionDefinition] = [], path: [String] = []) -> [String] {
        let here = (path + [name]).joined(separator: " ")
        var problems: [String] = []
        let visible = inherited + options
        var longNames: Set<String> = ["help"]
        var shortNames: Set<Character> = ["h"]
        for option in visible {
            if !longNames.insert(option.name).inserted { problems.append("\(here): option --\(option.name) is declared twice") }
            if let short = option.short, !shortNames.insert(short).inserted {
                problems.append("\(here): short option -\(short) is declared twice")
            }
            if option.name.isEmpty || option.name.hasPrefix("-") || option.name.contains("=") || option.name.contains(" ") {
                problems.append("\(here): option name '\(option.name)' must be a bare word")
            }
            if let value = option.defaultValue, !option.allowedValues.isEmpty, !option.allowedValues.contains(value) {
                problems.append("\(here): default of --\(option.name) is not one of its allowed values")
            }
        }
        var argumentNames: Set<String> = []
        for (index, argument) in arguments.enumerated() {
            if !argumentNames.insert(argument.name).inserted || longNames.contains(argument.name) {
                problems.append("\(here): name '\(argument.name)' is used twice")
            }
            if case .variadic = argument.arity, index != arguments.count - 1 {
                problems.append("\(here): variadic argument <\(argument.name)> must be the last")
            }
        }
        if handler == nil && subcommands.isEmpty { problems.append("\(here): no handler and no subcommands") }
        if !subcommands.isEmpty && !arguments.isEmpty { problems.append("\(here): a command with subcommands takes no positional arguments") }
        var subcommandNames: Set<String> = []
        for subcommand in subcommands {
            if !subcommandNames.insert(subcommand.name).inserted { problems.append("\(here): subcommand '\(subcommand.name)' is declared twice") }
            problems += subcommand.declarationProblems(inherited: visible, path: path + [name])
        }
        return problems
    }
}
