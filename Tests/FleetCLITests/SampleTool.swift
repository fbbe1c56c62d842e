import FleetCLI

/// A tool shaped like fleet-admin, to exercise every feature of the parser.
let sampleTool = Command(
    "fleet-admin", abstract: "Manage a fleet.", discussion: "Talks to an engine.\n\nSecond paragraph.",
    version: "1.2.3",
    options: [
        .value("transport", short: "t", valueName: "url", help: "Where the engine is.", default: "memory",
               environment: "FLEET_TRANSPORT"),
        .flag("json", short: "j", help: "Print JSON.", environment: "FLEET_JSON"),
        .flag("verbose", short: "v", help: "Say more."),
        .value("secret", help: "Not shown.", hidden: true),
    ],
    subcommands: [
        Command("vehicles", abstract: "Manage vehicles.",
                options: [.value("provider", valueName: "id", help: "The provider.", environment: "FLEET_PROVIDER",
                                 required: true)],
                subcommands: [
                    Command("create", abstract: "Create a vehicle. Then more.",
                            options: [
                                .value("capacity", valueName: "n", help: "Seats.", default: "4"),
                                .value("attribute", valueName: "key=value", help: "An attribute.", repeatable: true),
                                .value("state", help: "Initial state.", default: "OFFLINE", allowedValues: ["ONLINE", "OFFLINE"]),
                                .value("interval", valueName: "duration", help: "Report interval."),
                                .value("lat", valueName: "degrees", help: "Latitude."),
                            ],
                            arguments: [Argument("vehicle-id", help: "The new vehicle's ID.")],
                            examples: [Example("fleet-admin vehicles create v1 --provider p", "Create v1.")]) { _, _ in 0 },
                    Command("list", abstract: "List vehicles.",
                            arguments: [Argument("filter", help: "A filter.", arity: .optional),
                                        Argument("page", help: "A page.", arity: .optional)]) { _, _ in 0 },
                ]),
        Command("serve", abstract: "Serve the API.",
                options: [.value("store", valueName: "path", help: "The store.", completion: .files)],
                arguments: [Argument("files", help: "Config files.", arity: .variadic(minimum: 1), completion: .files)]) { _, _ in 0 },
        Command("explain", abstract: "Explain codes.",
                arguments: [Argument("code", help: "Codes.", arity: .variadic(minimum: 0),
                                     completion: .values(["NOT_FOUND", "UNAVAILABLE"]))]) { _, _ in 0 },
    ])

/// Parses a command line that must run, returning its values.
func parseRun(_ arguments: [String], environment: [String: String] = [:],
              tool: Command = sampleTool) throws -> ParsedArguments {
    let outcome = try CommandLineParser(tool).parse(arguments, environment: environment)
    guard case .run(_, let parsed) = outcome else {
        throw UsageError("expected a command to run, got \(outcome)", commandPath: ["test"])
    }
    return parsed
}

/// The usage error a command line gives, or nil when it parses.
func usageError(_ arguments: [String], environment: [String: String] = [:], tool: Command = sampleTool) -> UsageError? {
    do {
        _ = try CommandLineParser(tool).parse(arguments, environment: environment)
        return nil
    } catch {
        return error
    }
}
