import Testing
@testable import FleetCLI

struct CommandLineParserTests {
    let create = ["vehicles", "create", "v1", "--provider", "p"]

    @Test(arguments: [["--transport", "file:x"], ["--transport=file:x"], ["-t", "file:x"], ["-tfile:x"]])
    func everyFormOfAnOptionWithAValue(form: [String]) throws {
        let parsed = try parseRun(form + create)
        #expect(parsed.string("transport") == "file:x")
        #expect(parsed.source("transport") == .commandLine)
    }

    @Test func valueKeepsLaterEqualsSigns() throws {
        #expect(try parseRun(create + ["--attribute=a=b"]).strings("attribute") == ["a=b"])
    }

    @Test func flagsLongShortAndClustered() throws {
        let clustered = try parseRun(["-jv"] + create)
        #expect(clustered.flag("json") && clustered.flag("verbose"))
        let none = try parseRun(create)
        #expect(!none.flag("json") && !none.flag("verbose"))
        #expect(try parseRun(create + ["--json"]).flag("json"))
        #expect(try parseRun(create + ["-jt", "http://h"]).string("transport") == "http://h")
    }

    @Test func environmentAndDefaultsFillInInThatOrder() throws {
        let byDefault = try parseRun(create)
        #expect(byDefault.string("transport") == "memory")
        #expect(byDefault.source("transport") == .defaultValue)
        #expect(!byDefault.isGiven("transport"))

        let byEnvironment = try parseRun(create, environment: ["FLEET_TRANSPORT": "file:/tmp/j"])
        #expect(byEnvironment.string("transport") == "file:/tmp/j")
        #expect(byEnvironment.source("transport") == .environment("FLEET_TRANSPORT"))
        #expect(byEnvironment.isGiven("transport"))

        let byCommandLine = try parseRun(create + ["--transport", "x"], environment: ["FLEET_TRANSPORT": "file:/tmp/j"])
        #expect(byCommandLine.string("transport") == "x")

        let emptyVariable = try parseRun(create, environment: ["FLEET_TRANSPORT": ""])
        #expect(emptyVariable.string("transport") == "memory")

        let provider = try parseRun(["vehicles", "create", "v1"], environment: ["FLEET_PROVIDER": "env-p"])
        #expect(provider.string("provider") == "env-p")
    }

    @Test(arguments: [("1", true), ("true", true), ("YES", true), ("on", true), ("0", false), ("false", false), ("no", false), ("off", false)])
    func booleanEnvironmentForFlags(text: String, value: Bool) throws {
        let parsed = try parseRun(create, environment: ["FLEET_JSON": text])
        #expect(parsed.flag("json") == value)
        #expect(parsed.source("json") == .environment("FLEET_JSON"))
    }

    @Test func badBooleanEnvironmentIsAUsageError() {
        #expect(usageError(create, environment: ["FLEET_JSON": "maybe"])?.message.contains("FLEET_JSON='maybe' is not a boolean") == true)
    }

    @Test func repeatableOptionsKeepAllAndOthersKeepTheLast() throws {
        let parsed = try parseRun(create + ["--attribute", "a=1", "--attribute", "b=2", "--capacity", "2", "--capacity", "6"])
        #expect(parsed.strings("attribute") == ["a=1", "b=2"])
        #expect(parsed.string("capacity") == "6")
        #expect(parsed.strings("capacity") == ["6"])
    }

    @Test func allowedValuesAreEnforcedWithASuggestion() {
        let error = usageError(create + ["--state", "ONLNE"])
        #expect(error?.message == "--state: 'ONLNE' is not one of ONLINE, OFFLINE; did you mean 'ONLINE'?")
        #expect(error?.commandPath == ["fleet-admin", "vehicles", "create"])
    }

    @Test func requiredOptionNamesItsEnvironmentVariable() {
        #expect(usageError(["vehicles", "create", "v1"])?.message == "missing --provider <id> (or set FLEET_PROVIDER)")
    }

    @Test func positionalArguments() throws {
        #expect(usageError(["vehicles", "create", "--provider", "p"])?.message == "missing argument <vehicle-id>")
        #expect(usageError(create + ["extra"])?.message == "unexpected argument 'extra'")
        let list = try parseRun(["vehicles", "list", "--provider", "p", "f"])
        #expect(list.string("filter") == "f")
        #expect(list.string("page") == nil)
        #expect(!list.isGiven("page"))
        #expect(try parseRun(["vehicles", "list", "--provider", "p", "f", "2"]).string("page") == "2")
        #expect(usageError(["serve"])?.message == "missing argument <files>")
        #expect(try parseRun(["serve", "a", "b", "c"]).strings("files") == ["a", "b", "c"])
        #expect(try parseRun(["explain"]).strings("code") == [])
    }

    @Test func globalOptionsWorkBeforeAndAfterSubcommands() throws {
        #expect(try parseRun(["--json", "vehicles", "--provider", "p", "create", "v1"]).flag("json"))
        #expect(try parseRun(create + ["--json"]).flag("json"))
        #expect(try parseRun(create).commandPath == ["fleet-admin", "vehicles", "create"])
    }

    @Test func subcommandOptionsAreNotAcceptedBeforeTheSubcommand() {
        #expect(usageError(["--capacity", "3", "vehicles", "create", "v1", "--provider", "p"])?.message.hasPrefix("unknown option '--capacity'") == true)
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try parseRun(["vehicles", "create", "--provider", "p", "--", "--weird"])
        #expect(parsed.string("vehicle-id") == "--weird")
        #expect(try parseRun(["explain", "--", "-h", "--json"]).strings("code") == ["-h", "--json"])
    }

    @Test func dashAndNegativeNumbersArePositionalsOrValues() throws {
        #expect(try parseRun(["explain", "-", "-5"]).strings("code") == ["-", "-5"])
        #expect(try parseRun(create + ["--lat", "-33.8"]).string("lat") == "-33.8")
    }

    @Test func helpAnywhereAsksForTheDeepestCommand() throws {
        func helpPath(_ arguments: [String]) throws -> [String]? {
            guard case .help(let path) = try CommandLineParser(sampleTool).parse(arguments) else { return nil }
            return path.map(\.name)
        }
        #expect(try helpPath(["--help"]) == ["fleet-admin"])
        #expect(try helpPath(["vehicles", "create", "--bogus", "-h"]) == ["fleet-admin", "vehicles", "create"])
        #expect(try helpPath(["-h", "vehicles"]) == ["fleet-admin", "vehicles"])
        #expect(try helpPath(["vehicles", "-jh"]) == ["fleet-admin", "vehicles"])
        #expect(try helpPath(["vehicles", "nope", "--help"]) == ["fleet-admin", "vehicles"])
    }

    @Test func unknownOptionsSuggestTheNearest() {
        #expect(usageError(["--transprt", "x"])?.message == "unknown option '--transprt'; did you mean '--transport'?")
        #expect(usageError(["--jsno"])?.message == "unknown option '--jsno'; did you mean '--json'?")
        #expect(usageError(create + ["--cap", "3"])?.message == "unknown option '--cap'; did you mean '--capacity'?")
        #expect(usageError(["--zzzzzz"])?.message == "unknown option '--zzzzzz'")
        #expect(usageError(["-x"])?.message == "unknown option '-x'")
        #expect(usageError(["--secre"])?.message == "unknown option '--secre'")
    }

    @Test func subcommandMistakes() {
        #expect(usageError(["vehicles", "craete"])?.message == "unknown subcommand 'craete'; did you mean 'create'?")
        #expect(usageError(["vehicles", "craete"])?.commandPath == ["fleet-admin", "vehicles"])
        #expect(usageError(["vehicles", "--provider", "p"])?.message == "'fleet-admin vehicles' needs a subcommand: create, list")
        #expect(usageError([])?.message == "'fleet-admin' needs a subcommand: vehicles, serve, explain")
    }

    @Test func flagsTakeNoValueAndOptionsNeedOne() {
        #expect(usageError(create + ["--json=1"])?.message == "--json is a flag and takes no value")
        #expect(usageError(create + ["--capacity"])?.message == "--capacity needs a value <n>")
        #expect(usageError(create + ["--capacity", "--json"])?.message == "--capacity needs a value <n>")
        #expect(usageError(create + ["-t"])?.message == "-t needs a value <url>")
    }

    @Test func hiddenOptionsStillParse() throws {
        #expect(try parseRun(create + ["--secret", "s"]).string("secret") == "s")
    }

    @Test func versionOnlyOnTheRoot() throws {
        guard case .version(let version) = try CommandLineParser(sampleTool).parse(["--version"]) else {
            Issue.record("expected the version")
            return
        }
        #expect(version == "1.2.3")
        #expect(usageError(create + ["--version"])?.message.hasPrefix("unknown option '--version'") == true)
    }

    @Test func completionScriptsOnRequest() throws {
        for arguments in [["--generate-completion-script", "bash"], ["--generate-completion-script=zsh"]] {
            guard case .completionScript(let script) = try CommandLineParser(sampleTool).parse(arguments) else {
                Issue.record("expected a script for \(arguments)")
                continue
            }
            #expect(script.contains("fleet-admin"))
        }
        #expect(usageError(["--generate-completion-script", "fish"])?.message.contains("unknown shell 'fish'") == true)
    }

    @Test func usageErrorReportPointsAtHelp() {
        let error = UsageError("bad thing", commandPath: ["fleet-admin", "vehicles"])
        #expect(error.report == "fleet-admin: bad thing\nSee 'fleet-admin vehicles --help'.\n")
        #expect(error.description == "bad thing")
    }
}
