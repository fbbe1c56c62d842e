import FleetCLI
import FleetErrors

/// Declares fleet-admin's leaf commands: the handler gets an `AdminSession`, and a `FleetError`
/// it throws is printed with the catalogue's explanation (plain with `--no-color`) and ends the
/// command with 10 + its gRPC number.
enum AdminCommand {
    /// What a command does with its session; returns the exit status (0 on success).
    typealias Body = @Sendable (AdminSession) async throws -> Int32

    /// A leaf command.
    static func make(_ name: String, abstract: String, discussion: String? = nil, options: [OptionDefinition] = [],
                     arguments: [Argument] = [], examples: [Example] = [], body: @escaping Body) -> Command {
        Command(name, abstract: abstract, discussion: discussion, options: options, arguments: arguments,
                examples: examples) { parsed, context in
            let session = try AdminSession(arguments: parsed, context: context)
            do {
                return try await body(session)
            } catch let error as FleetError {
                context.standardError.write(ExplanationPrinter.errorReport(error, toolName: context.toolName, style: session.errorStyle))
                return ExitCode(error).rawValue
            }
        }
    }
}
