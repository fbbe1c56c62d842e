import FleetCLI
import FleetConsumer
import FleetErrors
import FleetKit
import FleetModel

/// The command line of `consumer-follow`, checked: the trip name, where to connect, what to report,
/// when to stop, and how to print.
struct FollowSettings {
    let tripName: String
    /// `--transport` and `--store`.
    let connection: ConnectionGroup
    let token: TokenOption
    let configuration: FollowConfiguration
    let poll: Bool
    let json: Bool
    let color: Bool
    /// Seconds after which the vehicle's position is flagged stale (`--stale-after`).
    let staleAfterSeconds: Double
    /// How many times faster than real time the trip runs (`--time-scale`).
    let timeScale: Double

    /// Reads and checks the arguments; a `UsageError` (exit 2) for anything wrong with them.
    init(_ arguments: ParsedArguments, context: Context) throws {
        tripName = try Self.tripName(arguments)
        connection = try arguments.group(ConnectionGroup.self)
        try connection.check(arguments, environment: context.environment)
        let tokens = try arguments.group(TokenGroup.self)
        token = try arguments.checkingSettings { try TokenOption(tokens) }

        let stale = try arguments.double(FollowOptions.staleAfter) ?? StaleVehicleWatch.defaultStaleAfterSeconds
        guard stale > 0, stale.isFinite else {
            throw arguments.usageError("--stale-after must be a positive number of seconds, got '\(arguments.string(FollowOptions.staleAfter) ?? "")'")
        }
        staleAfterSeconds = stale
        let scale = try arguments.double(FollowOptions.timeScale) ?? 1
        guard scale > 0 else { throw arguments.usageError("--time-scale must be above 0, got '\(arguments.string(FollowOptions.timeScale) ?? "")'") }
        timeScale = scale
        let interval = try arguments.duration(FollowOptions.interval) ?? .seconds(FollowConfiguration.defaultRefreshSeconds)
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        guard seconds >= FollowConfiguration.minimumRefreshSeconds else {
            throw arguments.usageError("--interval must be at least 1s, got '\(arguments.string(FollowOptions.interval) ?? "")'")
        }
        configuration = FollowConfiguration(
            events: try Self.events(arguments),
            until: arguments.string(FollowOptions.until).map(TripStatus.init(name:)),
            failFast: arguments.flag(FollowOptions.failFast),
            refreshSeconds: seconds,
            deadlineSeconds: try Self.deadlineSeconds(arguments))
        poll = arguments.flag(FollowOptions.poll)
        let output = try arguments.group(OutputGroup.self)
        json = output.isJSON
        color = output.style(context.outputStyle).isEnabled
    }

    /// Where to connect, with the bearer token over http: a `--token-url` token is cached for the
    /// trip (its ID fills `{trip}`, its provider `{provider}`) and fetched here once, so that a token
    /// server that cannot give one ends the run at once (UNAUTHENTICATED, exit 26). The in-process
    /// transports check no token: none is fetched for them.
    func connectionOptions() throws -> ConnectionOptions {
        guard connection.transport.hasPrefix("http://") || connection.transport.hasPrefix("https://") else { return ConnectionOptions() }
        let name = try? TripName(parsing: tripName)
        let tokens = try token.provider(placeholder: "trip", cacheKey: name?.tripID ?? tripName, provider: name?.provider ?? "")
        _ = try tokens?.token()
        return ConnectionOptions(tokens: tokens)
    }

    /// How events are shown: JSON lines with --json, the live panel on a terminal, plain lines
    /// otherwise. The live panel is returned a second time, to be refreshed every second.
    func presenter(context: Context) -> (any FollowPresenter, LivePanelPresenter?) {
        if json { return (JSONLinesPresenter(output: context.standardOutput), nil) }
        guard context.standardOutput.isTerminal else {
            return (PlainLinesPresenter(tripName: tripName, output: context.standardOutput,
                                        summaryOutput: context.standardError), nil)
        }
        let clock = SystemFollowClock()
        let panel = LivePanelPresenter(
            tripName: tripName, output: context.standardOutput,
            panel: { var panel = TripPanel(style: Style(enabled: color)); panel.staleAfterSeconds = staleAfterSeconds; panel.timeScale = timeScale; return panel }(),
            width: { (Terminal.columns(of: 1, environment: context.environment) ?? 80) - 1 },
            now: { clock.now() })
        return (panel, panel)
    }

    /// `providers/P/trips/T` as given, or `<trip>` with `--provider`. A name that is not well formed is
    /// sent as it is, so that the server's INVALID_ARGUMENT is reported like any client error.
    private static func tripName(_ arguments: ParsedArguments) throws -> String {
        let given = try arguments.require(FollowOptions.trip)
        let provider = arguments.string(FollowOptions.provider).flatMap { $0.isEmpty ? nil : $0 }
        if given.hasPrefix("providers/") {
            if arguments.source(FollowOptions.provider) == .commandLine, let provider,
               !given.hasPrefix("providers/\(provider)/") {
                throw arguments.usageError("the trip name '\(given)' names another provider than --provider '\(provider)'")
            }
            return given
        }
        if let provider { return "providers/\(provider)/trips/\(given)" }
        guard given.contains("/") else {
            throw arguments.usageError("'\(given)' is a trip ID: give --provider (or FLEET_PROVIDER), or the full name providers/P/trips/\(given)")
        }
        return given
    }

    /// `--deadline` in seconds; nil without one. A deadline must be above zero.
    private static func deadlineSeconds(_ arguments: ParsedArguments) throws -> Double? {
        guard let deadline = try arguments.duration(FollowOptions.deadline) else { return nil }
        let seconds = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
        guard seconds > 0 else {
            throw arguments.usageError("--deadline must be above 0, got '\(arguments.string(FollowOptions.deadline) ?? "")'")
        }
        return seconds
    }

    /// The union of every `--events` list; all events when none is given.
    private static func events(_ arguments: ParsedArguments) throws -> Set<TripEventKind> {
        let lists = arguments.strings(FollowOptions.events)
        guard !lists.isEmpty else { return Set(TripEventKind.allCases) }
        var kinds: Set<TripEventKind> = []
        for list in lists {
            switch TripEventKind.parseList(list) {
            case .success(let found):
                kinds.formUnion(found)
            case .failure(let unknown):
                let names = TripEventKind.allCases.map(\.rawValue)
                let hint = Suggestion.nearest(to: unknown.name, among: names).map { "; did you mean '\($0)'?" } ?? ""
                throw arguments.usageError("--events: '\(unknown.name)' is not an event\(hint) (events: \(names.joined(separator: ", ")))")
            }
        }
        guard !kinds.isEmpty else { throw arguments.usageError("--events names no event") }
        return kinds
    }
}
