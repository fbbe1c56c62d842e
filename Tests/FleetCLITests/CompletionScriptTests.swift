import Foundation
import Testing
@testable import FleetCLI

/// Runs a shell with a script and returns its standard output, or nil when the shell failed.
private func runShell(_ shell: String, arguments: [String], script: String) throws -> (output: String, status: Int32) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)")
    try script.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: shell)
    process.arguments = arguments + [file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (String(decoding: data, as: UTF8.self), process.terminationStatus)
}

private let zshPath = ["/usr/bin/zsh", "/bin/zsh"].first { FileManager.default.isExecutableFile(atPath: $0) }

struct CompletionScriptTests {
    /// What bash offers for the command line `words` (the last word is the one being completed).
    private func bashCompletions(_ words: [String]) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let driver = CompletionScript.bash(for: sampleTool) + """
            COMP_WORDS=(\(quoted))
            COMP_CWORD=\(words.count - 1)
            _fleet_admin
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let (output, status) = try runShell("/bin/bash", arguments: ["--norc", "--noprofile"], script: driver)
        #expect(status == 0)
        return output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    @Test func bashOffersSubcommandsAtEachLevel() throws {
        #expect(try bashCompletions(["fleet-admin", ""]) == ["vehicles", "serve", "explain"])
        #expect(try bashCompletions(["fleet-admin", "vehicles", ""]) == ["create", "list"])
        #expect(try bashCompletions(["fleet-admin", "vehicles", "cr"]) == ["create"])
    }

    @Test func bashOffersOwnAndInheritedOptionsButNotHiddenOnes() throws {
        let options = try bashCompletions(["fleet-admin", "vehicles", "create", "--"])
        for expected in ["--capacity", "--state", "--provider", "--transport", "--json", "--help"] {
            #expect(options.contains(expected), "\(expected) in \(options)")
        }
        #expect(!options.contains("--secret"))
        #expect(try bashCompletions(["fleet-admin", "--ver"]) == ["--verbose", "--version"])
    }

    @Test func bashCompletesOptionValues() throws {
        #expect(try bashCompletions(["fleet-admin", "vehicles", "create", "--state", ""]) == ["ONLINE", "OFFLINE"])
        #expect(try bashCompletions(["fleet-admin", "vehicles", "create", "--capacity", ""]) == [])
        #expect(try bashCompletions(["fleet-admin", "explain", ""]) == ["NOT_FOUND", "UNAVAILABLE"])
    }

    @Test func bashSkipsOptionValuesWhenFindingSubcommands() throws {
        // "vehicles" here is the value of --transport, not the subcommand.
        #expect(try bashCompletions(["fleet-admin", "--transport", "vehicles", ""]) == ["vehicles", "serve", "explain"])
    }

    @Test func bashCompletesFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "x".write(to: folder.appendingPathComponent("store.db"), atomically: true, encoding: .utf8)
        #expect(try bashCompletions(["fleet-admin", "serve", "--store", folder.path + "/st"]) == [folder.path + "/store.db"])
        #expect(try bashCompletions(["fleet-admin", "serve", folder.path + "/st"]) == [folder.path + "/store.db"])
    }

    @Test func bashScriptIsValidSyntax() throws {
        let (_, status) = try runShell("/bin/bash", arguments: ["-n"], script: CompletionScript.bash(for: sampleTool))
        #expect(status == 0)
    }

    @Test func zshScriptDeclaresEveryCommandAndOption() {
        let script = CompletionScript.zsh(for: sampleTool)
        #expect(script.hasPrefix("#compdef fleet-admin\n"))
        for function in ["_fleet_admin()", "_fleet_admin_vehicles()", "_fleet_admin_vehicles_create()", "_fleet_admin_serve()"] {
            #expect(script.contains(function))
        }
        #expect(script.contains("'(-t --transport)'{-t,--transport}'[Where the engine is.]:url: '"))
        #expect(script.contains("'*--attribute[An attribute.]:key=value: '"))
        #expect(script.contains("'--state[Initial state.]:value:(ONLINE OFFLINE)'"))
        #expect(script.contains("'--store[The store.]:path:_files'"))
        #expect(script.contains("'*:files:_files'"))
        #expect(script.contains("'create:Create a vehicle.'"))
        #expect(!script.contains("secret"))
    }

    @Test(.enabled(if: zshPath != nil, "zsh is not installed"))
    func zshScriptIsValidSyntax() throws {
        let (_, status) = try runShell(zshPath!, arguments: ["-n"], script: CompletionScript.zsh(for: sampleTool))
        #expect(status == 0)
    }

    @Test func unknownShellHasNoScript() {
        #expect(CompletionScript.script(for: sampleTool, shell: "fish") == nil)
        #expect(CompletionScript.script(for: sampleTool, shell: "bash") == CompletionScript.bash(for: sampleTool))
    }
}
