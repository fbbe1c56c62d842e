import FleetErrors
import Testing
@testable import FleetCLI

/// The shared option groups: declared once, read into typed values, checked in one place.
struct OptionGroupTests {
    enum Colour: String, OptionValue { case red, green }

    struct Extra: OptionGroup {
        @Option("colour", valueName: "colour", help: "A colour.", default: "red") var colour: Colour
        @Option("store", valueName: "url", help: "A store.") var store: String?
    }

    static let tool = Command("tool", abstract: "A tool.",
                              options: TokenGroup.options + OutputGroup.options + Extra.options) { _, _ in 0 }
    static let fixedTokens = Command("admin", abstract: "A tool.", options: TokenGroup.fixedOptions) { _, _ in 0 }

    func parse(_ arguments: [String], command: Command = tool, environment: [String: String] = [:]) throws -> ParsedArguments {
        guard case .run(_, let parsed) = try CommandLineParser(command).parse(arguments, environment: environment) else {
            throw UsageError("not a run", commandPath: [])
        }
        return parsed
    }

    @Test func theGroupsDeclareNoNameTwice() {
        #expect(Self.tool.declarationProblems().isEmpty, "\(Self.tool.declarationProblems())")
    }

    @Test func outputFormatsAndColour() throws {
        #expect(try parse([]).group(OutputGroup.self).format == .text)
        #expect(try parse(["-j"]).group(OutputGroup.self).format == .json)
        #expect(try parse(["--jsonl", "--no-color"]).group(OutputGroup.self) .noColor)
        #expect(try parse(["--jsonl"]).group(OutputGroup.self).format == .jsonLines)
        #expect(try parse(["--no-color"]).group(OutputGroup.self).style(Style(enabled: true)) == .plain)
        #expect(throws: UsageError("--json and --jsonl cannot be used together", commandPath: ["tool"])) {
            try parse(["--json", "--jsonl"]).group(OutputGroup.self)
        }
    }

    @Test func oneTokenSourceAtMost() throws {
        let url = try parse(["--token-url", "http://t/{trip}", "--token-key", "jwt"]).group(TokenGroup.self)
        #expect(url.tokenURL == "http://t/{trip}" && url.tokenKey == "jwt" && url.expiryKey == "expiration_timestamp_ms")
        #expect(throws: UsageError("give only one of --token, --token-file and --token-url (got --token, --token-file)", commandPath: ["tool"])) {
            try parse(["--token", "a", "--token-file", "b"]).group(TokenGroup.self)
        }
        #expect(throws: UsageError("--token is empty", commandPath: ["tool"])) {
            try parse(["--token", ""]).group(TokenGroup.self)
        }
        // A tool that declares only the fixed options reads only them.
        #expect(throws: UsageError("give only one of --token and --token-file (got --token, --token-file)", commandPath: ["admin"])) {
            try parse(["--token", "a", "--token-file", "b"], command: Self.fixedTokens).group(TokenGroup.self)
        }
        #expect(try parse([], command: Self.fixedTokens, environment: ["FLEET_TOKEN": "t"]).group(TokenGroup.self).token == "t")
    }

    @Test func aChoiceIsCheckedByTheParserAndReadAsItsType() throws {
        #expect(try parse([]).group(Extra.self).colour == .red)
        #expect(try parse(["--colour", "green"]).group(Extra.self).colour == .green)
        #expect(Extra.options[0].allowedValues == ["red", "green"] && Extra.options[0].completion == .values(["red", "green"]))
        #expect(throws: UsageError("--colour: 'gren' is not one of red, green; did you mean 'green'?", commandPath: ["tool"])) {
            try parse(["--colour", "gren"])
        }
    }

    @Test func aFleetErrorAboutAnOptionBecomesAUsageErrorNamingIt() throws {
        let parsed = try parse([])
        #expect(throws: UsageError("--store: unknown store 'x'", commandPath: ["tool"])) {
            try parsed.checkingSettings { throw FleetError.invalidArgument("unknown store 'x'", field: "store") }
        }
        #expect(throws: UsageError("--token-file /nope: cannot read the file", commandPath: ["tool"])) {
            try parsed.checkingSettings { throw FleetError.invalidArgument("--token-file /nope: cannot read the file", field: "--token-file") }
        }
        // An error about anything else is not the command line's fault: it passes through.
        #expect(throws: FleetError.self) {
            try parsed.checkingSettings { throw FleetError.invalidArgument("trip.pickupPoint is required", field: "trip.pickupPoint") }
        }
    }
}
