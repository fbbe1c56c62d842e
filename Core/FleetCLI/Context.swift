/// What a command's handler runs with: its streams, environment and names. Handlers write with
/// `print`/`printError` (unbuffered, in order) rather than Swift's `print`.
public struct Context: Sendable {
    /// The tool's name (the root command).
    public let toolName: String
    /// The command names from the tool to the running command.
    public let commandPath: [String]
    /// The environment variables.
    public let environment: [String: String]
    /// Where results go.
    public let standardOutput: any TextOutput
    /// Where messages and errors go.
    public let standardError: any TextOutput
    /// Where input (`-`) comes from.
    public let standardInput: any TextInput

    /// A context.
    public init(toolName: String, commandPath: [String], environment: [String: String],
                standardOutput: any TextOutput, standardError: any TextOutput, standardInput: any TextInput) {
        self.toolName = toolName
        self.commandPath = commandPath
        self.environment = environment
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardInput = standardInput
    }

    /// The style for standard output (colour only on a terminal, and never with `NO_COLOR`).
    public var outputStyle: Style { Terminal.style(for: standardOutput, environment: environment) }
    /// The style for standard error.
    public var errorStyle: Style { Terminal.style(for: standardError, environment: environment) }

    /// Writes a line (or `terminator`) to standard output.
    public func print(_ text: String = "", terminator: String = "\n") {
        standardOutput.write(text + terminator)
    }

    /// Writes a line to standard error as it is.
    public func printError(_ text: String) {
        standardError.write(text + "\n")
    }

    /// Writes `<tool>: <message>` to standard error.
    public func warn(_ message: String) {
        standardError.write("\(toolName): \(message)\n")
    }

    /// A usage error about the running command, to throw from a handler (exit 2 with the "See … --help" line).
    public func usageError(_ message: String) -> UsageError {
        UsageError(message, commandPath: commandPath)
    }
}
