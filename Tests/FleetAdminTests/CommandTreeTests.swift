@testable import fleet_admin
import FleetTestSupport
import FleetCLI
import Foundation
import Testing

/// The declaration of fleet-admin's commands: sound, with help and examples everywhere, and
/// completion scripts for bash and zsh.
@Suite struct CommandTreeTests {
    /// Every command path of the tree, root first.
    static let paths: [[String]] = {
        func walk(_ command: Command, _ path: [String]) -> [[String]] {
            let here = path + [command.name]
            return [here] + command.subcommands.flatMap { walk($0, here) }
        }
        return walk(FleetAdminTool.command(), [])
    }()

    @Test func theDeclarationHasNoProblems() {
        #expect(FleetAdminTool.command().declarationProblems() == [])
    }

    @Test func theTreeHasEveryCommandTheIssueAsksFor() {
        let names = Set(Self.paths.map { $0.dropFirst().joined(separator: " ") })
        for wanted in ["vehicles create", "vehicles get", "vehicles list", "vehicles update", "vehicles search", "vehicles delete",
                       "vehicles online", "vehicles offline", "trips create", "trips get", "trips list", "trips update",
                       "trips search", "trips delete", "trips assign", "trips status", "trips complete", "trips cancel",
                       "token mint", "token inspect", "export", "import", "replay", "stats", "serve",
                       "delivery-vehicles create", "delivery-vehicles get", "delivery-vehicles list", "delivery-vehicles update",
                       "delivery-vehicles delete", "tasks create", "tasks get", "tasks list", "tasks update", "tasks close",
                       "tasks delete", "tasks batch-create", "tasks tracking-info"] {
            #expect(names.contains(wanted), "missing \(wanted)")
        }
    }

    @Test(arguments: paths)
    func everyCommandHasHelpWithExamples(path: [String]) async throws {
        let output = CapturedOutput()
        let error = CapturedOutput()
        let status = await CommandLineTool.run(FleetAdminTool.command(), arguments: Array(path.dropFirst()) + ["--help"],
                                               standardOutput: output, standardError: error)
        #expect(status == 0)
        #expect(error.text == "")
        #expect(output.text.hasPrefix("OVERVIEW: "))
        #expect(output.text.contains("\nUSAGE: \(path.joined(separator: " "))"))
        let isGroup = output.text.contains("\nSUBCOMMANDS:\n")
        #expect(isGroup || output.text.contains("\nEXAMPLES:\n  $ fleet-admin"), "\(path) has no examples")
    }

    @Test(arguments: ["vehicles", "trips create", "token inspect", "export"])
    func helpWorksFromTheBinary(command: String) throws {
        let result = try BinaryRunner(product: "fleet-admin").run(command.split(separator: " ").map(String.init) + ["--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("USAGE: fleet-admin \(command)"))
    }

    @Test func aGroupWithoutSubcommandIsAUsageError() throws {
        let result = try BinaryRunner(product: "fleet-admin").run(["vehicles"])
        #expect(result.status == 2)
        #expect(result.error.unwrapped.contains("'fleet-admin vehicles' needs a subcommand: create, get, list, update, search, delete, online, offline"))
    }

    @Test func theBashCompletionScriptIsValidBashAndKnowsTheCommands() throws {
        let result = try BinaryRunner(product: "fleet-admin").run(["--generate-completion-script", "bash"])
        #expect(result.status == 0)
        for word in ["vehicles", "trips", "token", "export", "import", "stats", "replay", "--pickup", "--json-body",
                     "enroute-to-pickup", "two-wheeler", "fleet-reader", "scheduled-stop", "--no-stops", "tracking-info",
                     "complete -F _fleet_admin fleet-admin"] {
            #expect(result.output.contains(word), "bash script lacks \(word)")
        }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-admin-\(UUID().uuidString).bash")
        try result.output.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/bin/bash")
        check.arguments = ["-n", script.path]
        try check.run()
        check.waitUntilExit()
        #expect(check.terminationStatus == 0, "bash -n rejects the script")
    }

    @Test func theZshCompletionScriptKnowsTheCommands() throws {
        let result = try BinaryRunner(product: "fleet-admin").run(["--generate-completion-script", "zsh"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("#compdef fleet-admin\n"))
        for word in ["vehicles", "trips", "--stale-after", "--secret-file"] {
            #expect(result.output.contains(word), "zsh script lacks \(word)")
        }
    }

    @Test func theCommittedCompletionScriptsAreCurrent() throws {
        let docs = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/completions")
        for shell in ["bash", "zsh"] {
            let committed = try String(contentsOf: docs.appendingPathComponent("fleet-admin.\(shell)"), encoding: .utf8)
            #expect(committed == CompletionScript.script(for: FleetAdminTool.command(), shell: shell),
                    "docs/completions/fleet-admin.\(shell) is stale: run fleet-admin --generate-completion-script \(shell) > docs/completions/fleet-admin.\(shell)")
        }
    }

    @Test func versionAndUsageErrors() throws {
        let runner = try BinaryRunner(product: "fleet-admin")
        #expect(try runner.run(["--version"]).output == FleetAdminTool.version + "\n")
        let both = try runner.run(["--provider", "p", "--store", "memory", "vehicles", "list", "--json", "--jsonl"])
        #expect(both.status == 2)
        #expect(both.error.unwrapped.contains("--json and --jsonl cannot be used together"))
        let noProvider = try runner.run(["--store", "memory", "vehicles", "get", "car-1"])
        #expect(noProvider.status == 2)
        #expect(noProvider.error.unwrapped.contains("missing --provider <id> (or set FLEET_PROVIDER)"))
        let fromEnvironment = try runner.run(["--store", "memory", "vehicles", "get", "car-1"],
                                             environment: BinaryRunner.quietEnvironment.merging(["FLEET_PROVIDER": "p"]) { $1 })
        #expect(fromEnvironment.status == 15, "the provider came from FLEET_PROVIDER: \(fromEnvironment)")
        let otherProvider = try runner.run(["--store", "memory", "--provider", "p", "vehicles", "get", "providers/q/vehicles/v"])
        #expect(otherProvider.status == 2)
        #expect(otherProvider.error.unwrapped.contains("belongs to provider 'q', but --provider is 'p'"))
        let typo = try runner.run(["vehicles", "lst"])
        #expect(typo.status == 2)
        #expect(typo.error.unwrapped.contains("did you mean 'list'?"))
        let transport = try runner.run(["--transport", "carrier-pigeon", "--provider", "p", "vehicles", "list"])
        #expect(transport.status == 2, "a malformed setting is a usage error: \(transport)")
        #expect(transport.error.unwrapped.contains("--transport: unknown transport 'carrier-pigeon'"))
    }
}
