/// A command line that cannot be run as written: an unknown option, a missing or malformed
/// value, a missing argument. `CommandLineTool` prints it as `<tool>: <message>` followed by
/// `See '<tool> <subcommand> --help'.` on standard error and exits with 2.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, for a person (`unknown option '--intervl'; did you mean '--interval'?`).
    public let message: String
    /// The command names up to the one that failed (`["fleet-admin", "vehicles", "create"]`),
    /// used for the "See … --help" line.
    public let commandPath: [String]

    /// A usage error for the command at `commandPath`.
    public init(_ message: String, commandPath: [String]) {
        self.message = message
        self.commandPath = commandPath
    }

    /// The text printed on standard error: the message and where to find help.
    public var report: String {
        let tool = commandPath.first ?? "command"
        return "\(tool): \(message)\nSee '\(commandPath.joined(separator: " ")) --help'.\n"
    }

    /// The message.
    public var description: String { message }
}
