import Testing
@testable import FleetCLI

struct HelpFormatterTests {
    private func help(_ names: [String]) -> String {
        var path = [sampleTool]
        for name in names { path.append(path[path.count - 1].subcommand(named: name)!) }
        return HelpFormatter.help(for: path)
    }

    @Test func rootHelpHasOverviewDiscussionUsageOptionsAndSubcommands() {
        let text = help([])
        #expect(text.hasPrefix("OVERVIEW: Manage a fleet.\n\nTalks to an engine.\n\nSecond paragraph.\n\nUSAGE: fleet-admin [<options>] <subcommand>\n"))
        #expect(text.contains("  -t, --transport <url>     Where the engine is. (default: memory; env:\n                            FLEET_TRANSPORT)\n"))
        #expect(text.contains("  -j, --json                Print JSON. (env: FLEET_JSON)"))
        #expect(text.contains("  -h, --help                Show help information."))
        #expect(text.contains("  --version                 Show the version."))
        #expect(text.contains("SUBCOMMANDS:\n  vehicles                  Manage vehicles.\n  serve "))
        #expect(text.contains("See 'fleet-admin <subcommand> --help'"))
        #expect(!text.contains("secret"))
        #expect(!text.contains("GLOBAL OPTIONS"))
    }

    @Test func subcommandHelpShowsArgumentsOwnAndGlobalOptionsAndExamples() {
        let text = help(["vehicles", "create"])
        #expect(text.contains("USAGE: fleet-admin vehicles create --provider <id> [<options>] <vehicle-id>\n"))
        #expect(text.contains("ARGUMENTS:\n  <vehicle-id>              The new vehicle's ID.\n"))
        #expect(text.contains("  --state <value>           Initial state. (values: ONLINE, OFFLINE; default:\n                            OFFLINE)\n"))
        #expect(text.contains("  --attribute <key=value>   An attribute. (repeatable)"))
        #expect(text.contains("GLOBAL OPTIONS:"))
        #expect(text.contains("  --provider <id>           The provider. (env: FLEET_PROVIDER; required)"))
        #expect(text.contains("EXAMPLES:\n  $ fleet-admin vehicles create v1 --provider p\n      Create v1.\n"))
        #expect(!text.contains("--version"))
        #expect(!text.contains("SUBCOMMANDS"))
    }

    @Test func usageLines() {
        #expect(HelpFormatter.usage(for: [sampleTool, sampleTool.subcommand(named: "serve")!]) == "fleet-admin serve [<options>] <files> ...")
        #expect(HelpFormatter.usage(for: [sampleTool, sampleTool.subcommand(named: "explain")!]) == "fleet-admin explain [<options>] [<code> ...]")
        let list = sampleTool.subcommand(named: "vehicles")!.subcommand(named: "list")!
        #expect(HelpFormatter.usage(for: [sampleTool, sampleTool.subcommand(named: "vehicles")!, list])
                == "fleet-admin vehicles list --provider <id> [<options>] [<filter>] [<page>]")
        let bare = Command("bare", abstract: "B.") { _, _ in 0 }
        #expect(HelpFormatter.usage(for: [bare]) == "bare")
    }

    @Test func longLinesWrapUnderTheHelpColumn() {
        let wordy = Command("w", abstract: "W.", options: [
            .value("a-very-long-option-name-indeed", valueName: "value", help: String(repeating: "word ", count: 40)),
        ]) { _, _ in 0 }
        let lines = HelpFormatter.help(for: [wordy]).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= TextLayout.width })
        let start = lines.firstIndex { $0.contains("--a-very-long-option-name-indeed") }!
        #expect(lines[start + 1].hasPrefix(String(repeating: " ", count: HelpFormatter.column) + "word"))
    }
}

struct TextLayoutTests {
    @Test func wrapKeepsWidthAndParagraphs() {
        let text = String(repeating: "alpha beta gamma ", count: 20) + "\n\nsecond"
        let lines = TextLayout.wrap(text, width: 30)
        #expect(lines.allSatisfy { $0.count <= 30 })
        #expect(lines.contains(""))
        #expect(lines.last == "second")
        #expect(TextLayout.wrap("", width: 10) == [])
        #expect(TextLayout.wrap("supercalifragilistic", width: 5) == ["supercalifragilistic"])
        #expect(TextLayout.wrap("a b c d", width: 10, firstLineWidth: 3) == ["a b", "c d"])
    }

    @Test func rowsAlignOrBreak() {
        #expect(TextLayout.row("  -x", "Help.", column: 10) == ["  -x      Help."])
        #expect(TextLayout.row("  --very-long-thing", "Help.", column: 10) == ["  --very-long-thing", "          Help."])
        #expect(TextLayout.row("  -x", "", column: 10) == ["  -x"])
    }
}

struct DeclarationTests {
    @Test func sampleToolIsSound() {
        #expect(sampleTool.declarationProblems() == [])
    }

    @Test func mistakesAreFound() {
        let broken = Command("b", abstract: "B.",
                             options: [.flag("json", short: "j", help: "J."), .flag("json", help: "Again."),
                                       .flag("jolly", short: "j", help: "J again."), .value("--bad", help: "B."),
                                       .value("mode", help: "M.", default: "x", allowedValues: ["a", "b"]),
                                       .flag("help", help: "Clash.")],
                             arguments: [Argument("rest", help: "R.", arity: .variadic(minimum: 0)), Argument("last", help: "L."),
                                         Argument("last", help: "Again.")],
                             subcommands: [Command("empty", abstract: "E."), Command("dup", abstract: "D.") { _, _ in 0 },
                                           Command("dup", abstract: "D.") { _, _ in 0 }])
        let problems = broken.declarationProblems()
        for expected in ["option --json is declared twice", "short option -j is declared twice", "'--bad' must be a bare word",
                         "default of --mode is not one of its allowed values", "option --help is declared twice",
                         "variadic argument <rest> must be the last", "name 'last' is used twice",
                         "b empty: no handler and no subcommands", "takes no positional arguments",
                         "subcommand 'dup' is declared twice"] {
            #expect(problems.contains { $0.contains(expected) }, "missing: \(expected) in \(problems)")
        }
    }

    @Test func subcommandsCannotRedeclareInheritedOptions() {
        let tool = Command("t", abstract: "T.", options: [.flag("json", help: "J.")],
                           subcommands: [Command("s", abstract: "S.", options: [.flag("json", help: "J.")]) { _, _ in 0 }])
        #expect(tool.declarationProblems() == ["t s: option --json is declared twice"])
    }
}
