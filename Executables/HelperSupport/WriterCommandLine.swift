#if canImport(Glibc)
import Glibc
#endif
import FleetCLI

/// The command line the multi-process writers share (store-writer, journal-writer):
/// `TARGET --writer N --count K`, plus options of their own.
public struct WriterCommandLine {
    /// The target argument (a store URL, a journal file).
    public let target: String
    /// This writer's number.
    public let writer: Int
    /// How many rounds to do.
    public let count: Int
    /// Everything parsed, for the writer's own options.
    public let arguments: ParsedArguments

    /// Parses the process's arguments; help exits 0, a usage error exits 2 with the message.
    public static func parseOrExit(_ name: String, abstract: String, target: Argument, options: [OptionDefinition] = []) -> WriterCommandLine {
        let command = Command(name, abstract: abstract, options: [
            .value("writer", valueName: "n", help: "This writer's number.", required: true),
            .value("count", valueName: "k", help: "How many rounds to do.", required: true),
        ] + options, arguments: [target])
        let arguments = CommandLineTool.parseOrExit(command)
        do throws(UsageError) {
            let writer = try arguments.int("writer") ?? 0
            let count = try arguments.int("count") ?? 0
            guard writer >= 0, count >= 0 else { throw arguments.usageError("--writer and --count need whole numbers") }
            return WriterCommandLine(target: try arguments.require(target.name), writer: writer, count: count, arguments: arguments)
        } catch {
            FileDescriptorOutput.standardError.write(error.report)
            exit(2)
        }
    }

    /// Writes one acknowledged line to standard output at once (one write(2), unbuffered).
    public func acknowledge(_ line: String) {
        FileDescriptorOutput.standardOutput.write(line + "\n")
    }

    /// Reports a failure on standard error and exits 1.
    public func fail(_ error: any Error) -> Never {
        FileDescriptorOutput.standardError.write("\(arguments.commandPath.first ?? "writer"): \(error)\n")
        exit(1)
    }
}
