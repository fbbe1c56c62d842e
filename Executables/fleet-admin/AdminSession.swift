import Foundation
import FleetCLI
import FleetEngine
import FleetErrors
import FleetKit
import FleetModel

/// What a fleet-admin command runs with: its parsed arguments and streams, the output format and
/// styles the global flags chose, and the way to the engine (`--transport`, `--store`, `--token`).
struct AdminSession: Sendable {
    /// The parsed command line.
    let arguments: ParsedArguments
    /// Streams, environment and command names.
    let context: Context
    /// Table, JSON or JSON lines.
    let format: OutputFormat
    /// The style of standard output (plain with `--no-color`).
    let style: Style
    /// The style of standard error (plain with `--no-color`).
    let errorStyle: Style

    /// A session for a parsed command; fails on flags that contradict each other.
    init(arguments: ParsedArguments, context: Context) throws(UsageError) {
        self.arguments = arguments
        self.context = context
        format = try OutputFormat.chosen(by: arguments)
        let noColor = arguments.flag("no-color")
        style = noColor ? .plain : context.outputStyle
        errorStyle = noColor ? .plain : context.errorStyle
    }

    // MARK: Output

    /// Prints results in the chosen format.
    var printer: ResourcePrinter {
        ResourcePrinter(output: context.standardOutput, format: format, style: style,
                        width: (context.standardOutput.isTerminal ? Terminal.columns(of: 1, environment: context.environment) : nil))
    }

    /// A progress line on standard error (drawn only on a terminal).
    func progress(_ label: String) -> ProgressReporter {
        ProgressReporter(label: label, output: context.standardError,
                         width: (context.standardError.isTerminal ? Terminal.columns(of: 2, environment: context.environment) : nil) ?? 80)
    }

    // MARK: Names

    /// `--provider`, required: a usage error when neither the flag nor FLEET_PROVIDER gives it.
    func provider() throws(UsageError) -> String {
        guard let provider = arguments.string("provider"), !provider.isEmpty else {
            throw arguments.usageError("missing --provider <id> (or set FLEET_PROVIDER): the provider whose fleet to use")
        }
        return provider
    }

    /// `providers/{provider}`.
    func parent() throws(UsageError) -> String {
        "providers/" + (try provider())
    }

    /// A vehicle named by its ID (with `--provider`) or its full name `providers/P/vehicles/V`.
    func vehicleName(_ text: String) throws -> VehicleName {
        if text.hasPrefix("providers/") {
            let name = try VehicleName(parsing: text, field: "vehicle")
            try checkProvider(of: text, is: name.provider)
            return name
        }
        return try VehicleName(provider: try provider(), vehicleID: text, field: "vehicleId")
    }

    /// A trip named by its ID (with `--provider`) or its full name `providers/P/trips/T`.
    func tripName(_ text: String) throws -> TripName {
        if text.hasPrefix("providers/") {
            let name = try TripName(parsing: text, field: "trip")
            try checkProvider(of: text, is: name.provider)
            return name
        }
        return try TripName(provider: try provider(), tripID: text, field: "tripId")
    }

    /// A full name and `--provider` must agree.
    private func checkProvider(of name: String, is provider: String) throws(UsageError) {
        if let given = arguments.string("provider"), !given.isEmpty, given != provider {
            throw arguments.usageError("\(name) belongs to provider '\(provider)', but --provider is '\(given)'")
        }
    }

    // MARK: The engine

    /// Opens the transport, runs `body` with the API and closes it again.
    func withAPI<Result>(_ body: (any FleetAPI) throws -> Result) throws -> Result {
        let connection = try connect(transport: arguments.string("transport") ?? "memory", options: connectionOptions())
        let result: Result
        do {
            result = try body(connection.api)
        } catch {
            try? connection.close()
            throw error
        }
        try connection.close()
        return result
    }

    /// Connects to `transport` after checking it (and `--store`, for an engine in this process): a
    /// malformed URL or a store in a folder that does not exist is a usage error naming the option.
    func connect(transport: String, options: ConnectionOptions) throws -> Connection {
        try arguments.checkingSettings {
            try Wiring.checkTransport(transport)
            if ["memory", ""].contains(transport), let store = options.store {
                try Wiring.checkStore(store, environment: context.environment)
            }
        }
        return try Wiring.connect(transport: transport, options: options)
    }

    /// Store, token and engine settings for `Wiring.connect`. An engine in this process (the `memory`
    /// transport) plans routes with the router `FLEET_ROUTER` names, as `serve` does with `--router`.
    func connectionOptions() throws -> ConnectionOptions {
        var engine = EngineConfiguration()
        if ["memory", ""].contains(arguments.string("transport") ?? "memory") {
            engine.router = try Wiring.planningRouter(nil, environment: context.environment)
        }
        return ConnectionOptions(store: arguments.string("store"), token: tokenSource(), engine: engine)
    }

    /// The bearer token: `--token`, else the contents of `--token-file` (read again on refresh), else none.
    func tokenSource() -> TokenSource? {
        if let token = arguments.string("token"), !token.isEmpty {
            return { _ in token }
        }
        if let path = arguments.string("token-file"), !path.isEmpty {
            return { _ in
                let text = try InputFiles.text(path, standardInput: BytesInput([]))
                return text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return nil
    }
}
