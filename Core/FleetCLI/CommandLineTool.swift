#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FleetErrors

/// Runs a declared command: parses the command line, prints help, version or completion
/// scripts, dispatches to the handler, and turns what it throws into a message and an exit code:
/// `UsageError` → 2 with a "See … --help" line, `FleetError` → the catalogue's explanation and
/// 10 + gRPC number, anything else → 1.
public enum CommandLineTool {
    /// Runs `command` with the process's arguments, environment and standard streams, then exits.
    /// Ignores SIGPIPE so that a closed pipe ends output quietly instead of killing the process.
    public static func main(_ command: Command, arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Never {
        signal(SIGPIPE, SIG_IGN)
        let status = await run(command, arguments: arguments, environment: ProcessEnvironment.current(),
                               standardOutput: FileDescriptorOutput.standardOutput,
                               standardError: FileDescriptorOutput.standardError,
                               standardInput: FileDescriptorInput.standardInput)
        exit(status)
    }

    /// Parses the process's arguments against `command` for a program that runs its own top-level
    /// code rather than a handler (the test helpers): prints help, the version or a completion script
    /// and exits 0, or prints a usage error and exits 2; otherwise returns the parsed arguments.
    public static func parseOrExit(_ command: Command, arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> ParsedArguments {
        let output = FileDescriptorOutput.standardOutput
        do {
            switch try CommandLineParser(command).parse(arguments, environment: ProcessEnvironment.current()) {
            case .run(_, let parsed): return parsed
            case .help(let path): output.write(HelpFormatter.help(for: path))
            case .version(let version): output.write(version + "\n")
            case .completionScript(let script): output.write(script)
            }
            exit(ExitCode.success.rawValue)
        } catch {
            FileDescriptorOutput.standardError.write(error.report)
            exit(ExitCode.usage.rawValue)
        }
    }

    /// Runs `command` and returns the exit status, writing only to the given streams (for tests).
    public static func run(_ command: Command, arguments: [String], environment: [String: String] = [:],
                           standardOutput: any TextOutput, standardError: any TextOutput,
                           standardInput: any TextInput = BytesInput([])) async -> Int32 {
        let outcome: ParseOutcome
        do {
            outcome = try CommandLineParser(command).parse(arguments, environment: environment)
        } catch {
            standardError.write(error.report)
            return ExitCode.usage.rawValue
        }
        switch outcome {
        case .help(let path):
            standardOutput.write(HelpFormatter.help(for: path))
            return ExitCode.success.rawValue
        case .version(let version):
            standardOutput.write(version + "\n")
            return ExitCode.success.rawValue
        case .completionScript(let script):
            standardOutput.write(script)
            return ExitCode.success.rawValue
        case .run(let path, let arguments):
            let context = Context(toolName: command.name, commandPath: arguments.commandPath, environment: environment,
                                  standardOutput: standardOutput, standardError: standardError,
                                  standardInput: standardInput)
            guard let handler = path[path.count - 1].handler else { return ExitCode.usage.rawValue }
            do {
                return try await handler(arguments, context)
            } catch let error as UsageError {
                standardError.write(error.report)
                return ExitCode.usage.rawValue
            } catch let error as FleetError {
                standardError.write(ExplanationPrinter.errorReport(error, toolName: command.name, style: context.errorStyle))
                return ExitCode(error).rawValue
            } catch {
                standardError.write("\(command.name): \(error)\n")
                return ExitCode.failure.rawValue
            }
        }
    }
}
