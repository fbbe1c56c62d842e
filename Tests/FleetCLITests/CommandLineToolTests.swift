import FleetErrors
import Testing
@testable import FleetCLI

/// The result of running a command in process.
struct RunResult {
    let status: Int32
    let output: String
    let error: String
}

struct SomethingElse: Error, CustomStringConvertible {
    var description: String { "something else broke" }
}

let toolWithHandlers = Command(
    "probe", abstract: "Probe the runner.",
    options: [.flag("json", short: "j", help: "JSON."), .value("count", help: "N.", environment: "PROBE_COUNT")],
    subcommands: [
        Command("echo", abstract: "Echo.", arguments: [Argument("words", help: "W.", arity: .variadic(minimum: 0))]) { arguments, context in
            context.print(arguments.strings("words").joined(separator: " "))
            if let count = try arguments.int("count") { context.print("count \(count)") }
            context.print("path \(context.commandPath.joined(separator: "/")) tool \(context.toolName)")
            return 0
        },
        Command("fail", abstract: "Fail.", arguments: [Argument("how", help: "H.")]) { arguments, context in
            switch arguments.string("how") {
            case "fleet": throw FleetError(.tripNotFound, detail: "providers/p/trips/t")
            case "plain": throw FleetError(code: .unavailable, message: "connection refused")
            case "usage": throw context.usageError("that will not do")
            case "other": throw SomethingElse()
            case "status": return 7
            default: return 0
            }
        },
        Command("read", abstract: "Read stdin.") { _, context in
            context.print("[" + (try context.standardInput.readText()) + "]")
            context.warn("done")
            return 0
        },
    ])

func run(_ arguments: [String], tool: Command = toolWithHandlers, environment: [String: String] = [:],
         input: any TextInput = BytesInput([])) async -> RunResult {
    let output = CapturedOutput()
    let error = CapturedOutput()
    let status = await CommandLineTool.run(tool, arguments: arguments, environment: environment,
                                           standardOutput: output, standardError: error, standardInput: input)
    return RunResult(status: status, output: output.text, error: error.text)
}

struct CommandLineToolTests {
    @Test func handlerRunsWithItsContext() async {
        let result = await run(["echo", "a", "b", "--count", "3"])
        #expect(result.status == 0)
        #expect(result.output == "a b\ncount 3\npath probe/echo tool probe\n")
        #expect(result.error == "")
    }

    @Test func handlerStatusIsTheExitStatus() async {
        #expect(await run(["fail", "status"]).status == 7)
    }

    @Test func usageErrorsFromParsingExitTwo() async {
        let result = await run(["echo", "--cuont", "3"])
        #expect(result.status == 2)
        #expect(result.output == "")
        #expect(result.error == "probe: unknown option '--cuont'; did you mean '--count'?\nSee 'probe echo --help'.\n")
    }

    @Test func usageErrorsFromHandlersExitTwo() async {
        let result = await run(["fail", "usage"])
        #expect(result.status == 2)
        #expect(result.error == "probe: that will not do\nSee 'probe fail --help'.\n")
        let conversion = await run(["echo"], environment: ["PROBE_COUNT": "lots"])
        #expect(conversion.status == 2)
        #expect(conversion.error.hasPrefix("probe: --count: 'lots' (from PROBE_COUNT) is not an integer\n"))
    }

    @Test func fleetErrorsExitTenPlusTheirNumberWithTheCatalogueExplanation() async {
        let result = await run(["fail", "fleet"])
        #expect(result.status == 15)
        #expect(result.output == "")
        #expect(result.error.hasPrefix("probe: NOT_FOUND: The trip was never created, or was deleted:\nproviders/p/trips/t\n"))
        #expect(result.error.contains("gRPC 5, HTTP 404; needs action"))
        #expect(result.error.contains("Cause: TRIP_NOT_FOUND"))
        #expect(result.error.contains("Remedy: Create the trip"))
        #expect(!result.error.contains("\u{1B}["))

        let plain = await run(["fail", "plain"])
        #expect(plain.status == 24)
        #expect(plain.error.contains("Cause: SERVER_UNAVAILABLE"))
    }

    @Test func otherErrorsExitOne() async {
        let result = await run(["fail", "other"])
        #expect(result.status == 1)
        #expect(result.error == "probe: something else broke\n")
    }

    @Test func helpVersionAndCompletionGoToStandardOutput() async {
        let help = await run(["echo", "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("OVERVIEW: Echo.\n"))
        #expect(help.error == "")
        let version = await run(["--version"], tool: sampleTool)
        #expect(version.output == "1.2.3\n")
        let completion = await run(["--generate-completion-script", "bash"])
        #expect(completion.status == 0)
        #expect(completion.output.contains("complete -F _probe probe"))
    }

    @Test func standardInputReachesTheHandler() async {
        let result = await run(["read"], input: BytesInput("piped"))
        #expect(result.output == "[piped]\n")
        #expect(result.error == "probe: done\n")
        let broken = await run(["read"], input: BytesInput([0xFF]))
        #expect(broken.status == 13)
        #expect(broken.error.contains("Cause: UNREADABLE_INPUT"))
    }

    @Test func missingSubcommandIsAUsageError() async {
        let result = await run([])
        #expect(result.status == 2)
        #expect(result.error == "probe: 'probe' needs a subcommand: echo, fail, read\nSee 'probe --help'.\n")
    }
}
