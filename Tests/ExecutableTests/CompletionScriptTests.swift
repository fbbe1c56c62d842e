import FleetTestSupport
import Foundation
import Testing

/// Every executable's shell completions are committed under docs/completions (installed by `make install`)
/// and match what the executable generates from its declarations.
struct CompletionScriptTests {
    @Test(arguments: ["driver-report", "consumer-follow", "error-explain"])
    func committedScriptsAreCurrent(executable: String) throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/completions")
        for shell in ["bash", "zsh"] {
            let generated = try BinaryRunner(product: executable).run(["--generate-completion-script", shell])
            #expect(generated.status == 0, "\(generated)")
            let committed = try String(contentsOf: docs.appendingPathComponent("\(executable).\(shell)"), encoding: .utf8)
            #expect(committed == generated.output,
                    "docs/completions/\(executable).\(shell) is stale: run \(executable) --generate-completion-script \(shell) > docs/completions/\(executable).\(shell)")
        }
    }
}
