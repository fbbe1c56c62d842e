import Foundation
import FleetCLI
import FleetEngine
import FleetErrors
import FleetKit
import FleetInterface
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
    /// `--transport` and `--store`.
    let connection: ConnectionGroup
    /// `--token` and `--token-file`.
    let token: TokenGroup
    /// `--provider`, when given.
    let givenProvider: String?
    /// The style of standard output (plain with `--no-color`).
    let style: Style
    /// The style of standard error (plain with `--no-color`).
    let errorStyle: Style

    /// A session for a parsed command; fails on flags that contradict each other.
    init(arguments: ParsedArguments, context: Context) throws(UsageError) {
        self.arguments = arguments
        self.context = context
        let output = try arguments.group(OutputGroup.self)
        format = OutputFormat(output.format)
        style = output.style(context.outputStyle)
        errorStyle = output.style(context.errorStyle)
        connection = try arguments.group(ConnectionGroup.self)
        token = try arguments.group(TokenGroup.self)
        givenProvider = try arguments.group(GlobalOptions.self).provider.flatMap { $0.isEmpty ? nil : $0 }
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
        guard let provider = givenProvider else {
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
        try resourceName(text, provider: \.provider, parsing: { try VehicleName(parsing: $0, field: "vehicle") },
                         making: { try VehicleName(provider: $0, vehicleID: text, field: "vehicleId") })
    }

    /// A trip named by its ID (with `--provider`) or its full name `providers/P/trips/T`.
    func tripName(_ text: String) throws -> TripName {
        try resourceName(text, provider: \.provider, parsing: { try TripName(parsing: $0, field: "trip") },
                         making: { try TripName(provider: $0, tripID: text, field: "tripId") })
    }

    /// A delivery vehicle named by its ID (with `--provider`) or its full name `providers/P/deliveryVehicles/V`.
    func deliveryVehicleName(_ text: String) throws -> DeliveryVehicleName {
        try resourceName(text, provider: \.provider, parsing: { try DeliveryVehicleName(parsing: $0, field: "deliveryVehicle") },
                         making: { try DeliveryVehicleName(provider: $0, deliveryVehicleID: text, field: "deliveryVehicleId") })
    }

    /// A task named by its ID (with `--provider`) or its full name `providers/P/tasks/T`.
    func taskName(_ text: String) throws -> TaskName {
        try resourceName(text, provider: \.provider, parsing: { try TaskName(parsing: $0, field: "task") },
                         making: { try TaskName(provider: $0, taskID: text, field: "taskId") })
    }

    /// A task's tracking information named by its tracking ID (with `--provider`) or its full name
    /// `providers/P/taskTrackingInfo/T`.
    func trackingInfoName(_ text: String) throws -> TaskTrackingInfoName {
        try resourceName(text, provider: \.provider, parsing: { try TaskTrackingInfoName(parsing: $0, field: "name") },
                         making: { try TaskTrackingInfoName(provider: $0, trackingID: text, field: "trackingId") })
    }

    /// A name given as a full name (`providers/…`, parsed, its provider checked against `--provider`) or as an
    /// ID, which `making` joins to `--provider`.
    private func resourceName<Name>(_ text: String, provider: (Name) -> String, parsing: (String) throws -> Name,
                                    making: (String) throws -> Name) throws -> Name {
        if text.hasPrefix("providers/") {
            let name = try parsing(text)
            try checkProvider(of: text, is: provider(name))
            return name
        }
        return try making(try self.provider())
    }

    /// A full name and `--provider` must agree.
    private func checkProvider(of name: String, is provider: String) throws(UsageError) {
        if let given = givenProvider, given != provider {
            throw arguments.usageError("\(name) belongs to provider '\(provider)', but --provider is '\(given)'")
        }
    }

    // MARK: The engine

    /// Opens the transport, runs `body` with the API and closes it again.
    func withAPI<Result>(_ body: (any FleetAPI) throws -> Result) throws -> Result {
        let open = try connect(connection, options: connectionOptions())
        let result: Result
        do {
            result = try body(open.api)
        } catch {
            try? open.close()
            throw error
        }
        try open.close()
        return result
    }

    /// Connects to the engine `settings` name after checking them: a malformed URL or a store in a
    /// folder that does not exist is a usage error naming the option.
    func connect(_ settings: ConnectionGroup, options: ConnectionOptions) throws -> Connection {
        try settings.connect(arguments, options: options, environment: context.environment)
    }

    /// Token and engine settings for `Wiring.connect`. An engine in this process (the `memory`
    /// transport) plans routes with the router `FLEET_ROUTER` names, as `serve` does with `--router`.
    func connectionOptions() throws -> ConnectionOptions {
        var engine = EngineConfiguration()
        if connection.runsEngineInProcess {
            engine.router = try Wiring.planningRouter(nil, environment: context.environment)
        }
        return ConnectionOptions(token: tokenSource(), engine: engine)
    }

    /// The bearer token: `--token`, else the contents of `--token-file` (read again on refresh), else none.
    func tokenSource() -> TokenSource? {
        if let token = token.token {
            return { _ in token }
        }
        if let path = token.tokenFile {
            return { _ in
                let text = try InputFiles.text(path, standardInput: BytesInput([]))
                return text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return nil
    }
}
