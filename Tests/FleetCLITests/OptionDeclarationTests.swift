import Testing
@testable import FleetCLI

/// Options declared once with `@Option` and `@Flag`: the group's option list, help, defaults, the
/// environment, conversion and checks all come from the declarations.
struct OptionDeclarationTests {
    enum Speed: String, OptionValue { case slow, fast }

    struct Limits: OptionGroup {
        @Option("max-body", valueName: "bytes", help: "Largest body.", default: "1024", check: .positive)
        var maxBody: Int
        @Option("timeout", valueName: "duration", help: "Idle timeout.", default: "60s", environment: "TOOL_TIMEOUT")
        var timeout: Duration
    }

    struct Settings: OptionGroup {
        @Option("count", short: "c", valueName: "n", help: "How many.", check: .within(1...10))
        var count: Int32?
        var limits = Limits()
        @Option("speed", valueName: "speed", help: "How fast.") var speed: Speed
        @Option("tag", valueName: "t", help: "A tag; repeat for several.") var tags: [String]
        @Option("point", valueName: "x,y", help: "A point.", transform: Settings.point) var point: (Double, Double)?
        @Option("rate", valueName: "rps", help: "A rate.",
                transform: { text throws(ArgumentProblem) in
                    guard let rate = Double(text), rate > 0 else { throw .sentence("must be a positive number", showingText: true) }
                    return rate
                })
        var rate: Double?
        @Flag("verbose", short: "v", help: "Say more.", environment: "TOOL_VERBOSE") var verbose: Bool
        @Flag("cache", help: "Use the cache.", inversion: "Do not use the cache.") var cache: Bool?

        func validate() throws(ValidationError) {
            if verbose && tags.contains("quiet") { throw ValidationError("--verbose and --tag quiet cannot be used together") }
        }

        @Sendable static func point(_ text: String) throws(ArgumentProblem) -> (Double, Double) {
            let parts = text.split(separator: ",").compactMap { Double($0) }
            guard parts.count == 2 else { throw ArgumentProblem("is not X,Y") }
            return (parts[0], parts[1])
        }
    }

    static let tool = Command("tool", abstract: "A tool.", options: Settings.options) { _, _ in 0 }
    static let lean = Command("lean", abstract: "Part of the group.", options: Settings.options(excluding: \.$tags, \.$cache, \.$speed)) { _, _ in 0 }

    func read(_ arguments: [String], command: Command = tool, environment: [String: String] = [:]) throws -> Settings {
        guard case .run(_, let parsed) = try CommandLineParser(command).parse(arguments, environment: environment) else {
            throw UsageError("not a run", commandPath: [])
        }
        return try parsed.group(Settings.self)
    }

    func usageError(_ message: String, command: String = "tool") -> UsageError {
        UsageError(message, commandPath: [command])
    }

    @Test func theOptionListComesFromTheDeclarationsInPropertyOrder() {
        #expect(Settings.options.map(\.name) == ["count", "max-body", "timeout", "speed", "tag", "point", "rate", "verbose", "cache", "no-cache"])
        let byName = Dictionary(uniqueKeysWithValues: Settings.options.map { ($0.name, $0) })
        #expect(byName["count"]?.short == "c" && byName["count"]?.valueName == "n" && byName["count"]?.isRequired == false)
        #expect(byName["timeout"]?.defaultValue == "60s" && byName["timeout"]?.environment == "TOOL_TIMEOUT")
        #expect(byName["speed"]?.isRequired == true && byName["speed"]?.allowedValues == ["slow", "fast"])
        #expect(byName["tag"]?.isRepeatable == true)
        #expect(byName["point"]?.isRequired == false && byName["rate"]?.isRequired == false, "a T? read by a transform is optional")
        #expect(byName["verbose"]?.kind == .flag && byName["no-cache"]?.help == "Do not use the cache.")
        #expect(Settings.declarationProblems().isEmpty, "\(Settings.declarationProblems())")
        #expect(Self.lean.options.map(\.name) == ["count", "max-body", "timeout", "point", "rate", "verbose"])
    }

    @Test func helpShowsWhatTheDeclarationsSay() {
        let help = HelpFormatter.help(for: [Self.tool])
        #expect(help.contains("USAGE: tool --speed <speed> [<options>]"))
        #expect(help.contains("--timeout <duration>"))
        #expect(help.contains("Idle timeout. (default: 60s; env: TOOL_TIMEOUT)"))
        #expect(help.contains("A tag; repeat for several. (repeatable)"))
        #expect(help.contains("How fast. (values: slow, fast; required)"))
    }

    @Test func valuesDefaultsAndTheEnvironment() throws {
        let none = try read(["--speed", "fast"])
        #expect(none.count == nil && none.limits.maxBody == 1024 && none.limits.timeout == .seconds(60))
        #expect(none.speed == .fast && none.tags == [] && none.point == nil && !none.verbose && none.cache == nil)
        #expect(!none.$count.isGiven && none.limits.$timeout.source == .defaultValue && !none.limits.$timeout.isGiven)

        let given = try read(["--speed", "slow", "-c", "3", "--max-body=10", "--tag", "a", "--tag", "b", "--point", "1,2", "-v", "--no-cache"],
                             environment: ["TOOL_TIMEOUT": "5m"])
        #expect(given.count == 3 && given.limits.maxBody == 10 && given.limits.timeout == .seconds(300))
        #expect(given.tags == ["a", "b"] && given.point?.0 == 1 && given.point?.1 == 2 && given.verbose && given.cache == false)
        #expect(given.limits.$timeout.source == .environment("TOOL_TIMEOUT") && given.$count.source == .commandLine)
        #expect(try read(["--speed", "slow"], environment: ["TOOL_VERBOSE": "yes"]).verbose)
        #expect(try read(["--speed", "slow", "--cache"]).cache == true)
    }

    @Test func badValuesAreUsageErrorsNamingTheOption() throws {
        #expect(throws: usageError("--count: 'ten' is not an integer")) { try read(["--speed", "slow", "--count", "ten"]) }
        #expect(throws: usageError("--count: 11 is out of range (1…10)")) { try read(["--speed", "slow", "--count", "11"]) }
        #expect(throws: usageError("--count: 9999999999 is out of range (-2147483648…2147483647)")) {
            try read(["--speed", "slow", "--count", "9999999999"])
        }
        #expect(throws: usageError("--max-body must be positive")) { try read(["--speed", "slow", "--max-body", "0"]) }
        #expect(throws: usageError("--timeout: 'soon' (from TOOL_TIMEOUT) is not a duration (write it like 500ms, 30s, 5m, 1h or 1m30s)")) {
            try read(["--speed", "slow"], environment: ["TOOL_TIMEOUT": "soon"])
        }
        #expect(throws: usageError("--point: '1' is not X,Y")) { try read(["--speed", "slow", "--point", "1"]) }
        #expect(throws: usageError("--rate must be a positive number, got '0'")) { try read(["--speed", "slow", "--rate", "0"]) }
        #expect(throws: usageError("--speed: 'fats' is not one of slow, fast; did you mean 'fast'?")) { try read(["--speed", "fats"]) }
        #expect(throws: usageError("missing --speed <speed>")) { try read([]) }
        #expect(throws: usageError("unknown option '--tags'; did you mean '--tag'?")) { try read(["--speed", "slow", "--tags", "a"]) }
        #expect(throws: usageError("--cache and --no-cache cannot be used together")) { try read(["--speed", "slow", "--cache", "--no-cache"]) }
        #expect(throws: usageError("--verbose and --tag quiet cannot be used together")) { try read(["--speed", "slow", "-v", "--tag", "quiet"]) }
    }

    @Test func optionsTheCommandDoesNotDeclareReadAsNotGiven() throws {
        let settings = try read(["--count", "2"], command: Self.lean)
        #expect(settings.count == 2 && settings.tags == [] && settings.cache == nil)
        #expect(settings.$count.isDeclared && !settings.$tags.isDeclared)
    }

    struct Twice: OptionGroup {
        @Option("name", help: "A name.") var name: String?
        @Flag("name", help: "The same name again.") var flag: Bool
    }

    struct BadDefault: OptionGroup {
        @Option("size", help: "A size.", default: "big") var size: Int
    }

    @Test func declarationMistakesAreFound() {
        #expect(Twice.declarationProblems() == ["Twice: option --name is declared twice"])
        #expect(BadDefault.declarationProblems() == ["BadDefault: the default of --size: 'big' is not an integer"])
    }

    @Test func anUnparsedGroupHoldsWhatNoCommandLineGives() {
        var limits = Limits()
        #expect(limits.maxBody == 1024 && limits.timeout == .seconds(60))
        limits.maxBody = 5
        #expect(limits.maxBody == 5)
    }
}
