import Testing
@testable import FleetCLI

struct ParsedArgumentsTests {
    let create = ["vehicles", "create", "v1", "--provider", "p"]

    @Test func typedGetters() throws {
        let parsed = try parseRun(create + ["--capacity", " 6 ", "--lat", "-33.85", "--interval", "1m30s"])
        #expect(try parsed.int("capacity") == 6)
        #expect(try parsed.double("lat") == -33.85)
        #expect(try parsed.duration("interval") == .seconds(90))
        #expect(try parsed.require("vehicle-id") == "v1")
        #expect(throws: UsageError.self) { try parsed.int("lat") }
    }

    @Test func absentValuesAreNil() throws {
        let parsed = try parseRun(create)
        #expect(try parsed.duration("interval") == nil)
        #expect(try parsed.double("lat") == nil)
        #expect(parsed.string("attribute") == nil)
        #expect(parsed.strings("attribute") == [])
        #expect(throws: UsageError("missing --interval", commandPath: ["fleet-admin", "vehicles", "create"])) {
            try parsed.require("interval")
        }
    }

    @Test func conversionFailuresAreUsageErrorsNamingTheOption() throws {
        let parsed = try parseRun(create + ["--capacity", "ten", "--lat", "north", "--interval", "soon"])
        #expect(throws: UsageError("--capacity: 'ten' is not an integer", commandPath: ["fleet-admin", "vehicles", "create"])) {
            try parsed.int("capacity")
        }
        #expect(throws: UsageError("--lat: 'north' is not a number", commandPath: ["fleet-admin", "vehicles", "create"])) {
            try parsed.double("lat")
        }
        do {
            _ = try parsed.duration("interval")
            Issue.record("expected a usage error")
        } catch {
            #expect(error.message.hasPrefix("--interval: 'soon' is not a duration"))
        }
        #expect(throws: UsageError.self) { try parsed.int("vehicle-id") }
        do {
            _ = try parsed.int("vehicle-id")
        } catch {
            #expect(error.message == "<vehicle-id>: 'v1' is not an integer")
        }
    }

    @Test func environmentValuesSayWhereTheyCameFrom() throws {
        let tool = Command("t", abstract: "T.", options: [.value("count", help: "N.", environment: "T_COUNT")]) { _, _ in 0 }
        let parsed = try parseRun([], environment: ["T_COUNT": "many"], tool: tool)
        #expect(throws: UsageError("--count: 'many' (from T_COUNT) is not an integer", commandPath: ["t"])) {
            try parsed.int("count")
        }
        #expect(throws: UsageError.self) { try parseRun([], environment: ["T_COUNT": "x"], tool: tool).double("count") }
    }

    @Test func infiniteAndNaNAreNotNumbers() throws {
        for text in ["inf", "nan", "-infinity"] {
            #expect(throws: UsageError.self) { try parseRun(create + ["--lat", text]).double("lat") }
        }
    }

    @Test func directValuesForHandlerTests() throws {
        let parsed = ParsedArguments(commandPath: ["t"], values: ["x": ["1", "2"]], flags: ["f": true])
        #expect(parsed.string("x") == "2")
        #expect(try parsed.int("x") == 2)
        #expect(parsed.flag("f"))
        #expect(parsed.usageError("m") == UsageError("m", commandPath: ["t"]))
    }

    @Test func undeclaredNamesStopTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let parsed = ParsedArguments(commandPath: ["t"], values: ["x": ["1"]])
            _ = parsed.string("y")
        }
    }
}

struct DurationTextTests {
    @Test(arguments: [
        ("500ms", Duration.milliseconds(500)), ("30s", .seconds(30)), ("5m", .seconds(300)), ("1h", .seconds(3600)),
        ("1m30s", .seconds(90)), ("2.5s", .milliseconds(2500)), ("10", .seconds(10)), ("0", .zero), ("0.5", .milliseconds(500)),
        ("250us", .microseconds(250)), ("1h2m3s", .seconds(3723)), (" 12.5s ", .milliseconds(12_500)), ("1d", .seconds(86_400)),
        ("100ns", .nanoseconds(100)), ("2min", .seconds(120)), ("1S", .seconds(1)),
    ])
    func parses(text: String, duration: Duration) {
        #expect(DurationText.parse(text) == duration)
    }

    @Test(arguments: ["", "s", "5x", "-5s", "-1", "1.2.3s", "5 s", "ms5", "1h-2m", "inf", "nan", "1e400"])
    func refuses(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test(arguments: [(Duration.seconds(90), "1m30s"), (.milliseconds(500), "500ms"), (.zero, "0s"), (.seconds(3600), "1h"),
                      (.milliseconds(2500), "2.5s"), (.seconds(7265), "2h1m5s")])
    func formats(duration: Duration, text: String) {
        #expect(DurationText.format(duration) == text)
        #expect(DurationText.parse(text) == duration)
    }
}

struct SuggestionTests {
    @Test(arguments: [("json", "json", 0), ("jsno", "json", 1), ("intervl", "interval", 1), ("", "abc", 3),
                      ("kitten", "sitting", 3), ("abc", "", 3)])
    func editDistance(first: String, second: String, distance: Int) {
        #expect(Suggestion.editDistance(first, second) == distance)
    }

    @Test func nearest() {
        let names = ["transport", "json", "interval", "store"]
        #expect(Suggestion.nearest(to: "intrval", among: names) == "interval")
        #expect(Suggestion.nearest(to: "tr", among: names) == "transport")
        #expect(Suggestion.nearest(to: "JSON", among: names) == "json")
        #expect(Suggestion.nearest(to: "xyz", among: names) == nil)
        #expect(Suggestion.nearest(to: "", among: names) == nil)
        #expect(Suggestion.nearest(to: "FOO", among: ["OK", "CANCELLED"]) == nil)
    }
}
