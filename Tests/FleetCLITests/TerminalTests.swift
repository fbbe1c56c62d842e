import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import FleetCLI

struct TerminalTests {
    @Test(arguments: [
        (true, [String: String](), true), (false, [:], false),
        (true, ["NO_COLOR": "1"], false), (true, ["NO_COLOR": ""], true),
        (false, ["FORCE_COLOR": "1"], true), (false, ["FORCE_COLOR": "0"], false), (false, ["CLICOLOR_FORCE": "1"], true),
        (false, ["FORCE_COLOR": "1", "NO_COLOR": "1"], false), (true, ["TERM": "dumb"], false),
        (false, ["FORCE_COLOR": "1", "TERM": "dumb"], true),
    ])
    func colourRules(isTerminal: Bool, environment: [String: String], expected: Bool) {
        #expect(Terminal.wantsColor(isTerminal: isTerminal, environment: environment) == expected)
    }

    @Test func styleWritesEscapesOnlyWhenEnabled() {
        let on = Style(enabled: true)
        #expect(on.bold("x") == "\u{1B}[1mx\u{1B}[0m")
        #expect(on.red("x") == "\u{1B}[31mx\u{1B}[0m")
        #expect(on.green("x") == "\u{1B}[32mx\u{1B}[0m")
        #expect(on.yellow("x") == "\u{1B}[33mx\u{1B}[0m")
        #expect(on.cyan("x") == "\u{1B}[36mx\u{1B}[0m")
        #expect(on.dim("x") == "\u{1B}[2mx\u{1B}[0m")
        #expect(on.bold("") == "")
        let off = Style.plain
        for paint in [off.bold, off.red, off.green, off.yellow, off.cyan, off.dim] { #expect(paint("x") == "x") }
    }

    @Test func styleForAnOutputFollowsItsTerminalness() {
        #expect(Terminal.style(for: CapturedOutput(isTerminal: true), environment: [:]).isEnabled)
        #expect(!Terminal.style(for: CapturedOutput(isTerminal: false), environment: [:]).isEnabled)
        #expect(!Terminal.style(for: CapturedOutput(isTerminal: true), environment: ["NO_COLOR": "x"]).isEnabled)
    }

    @Test func pipesAreNotTerminals() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        defer { close(descriptors[0]); close(descriptors[1]) }
        #expect(!Terminal.isTTY(descriptors[0]))
        #expect(!Terminal.isTTY(-1))
    }
}
