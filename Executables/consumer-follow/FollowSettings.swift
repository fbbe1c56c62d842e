import FleetCLI
import FleetConsumer
import FleetErrors
import FleetKit
import FleetModel

/// The command line of `consumer-follow`, checked: what to follow (a trip or a shipment), where to
/// connect, what to report, when to stop, and how to print.
struct FollowSettings {
    /// What is followed.
    enum Subject {
        /// A trip: its name, and the trip events reported.
        case trip(name: String, events: Set<TripEventKind>)
        /// A shipment: its tracking info's name, and the shipment events reported.
        case shipment(name: String, events: Set<ShipmentEventKind>)

        /// The followed resource's name.
        var name: String {
            switch self {
            case .trip(let name, _), .shipment(let name, _): name
            }
        }
    }

    let subject: Subject
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
        let options = try FollowOptions(arguments)
        connection = options.connection
        try connection.check(arguments, environment: context.environment)
        token = try arguments.checkingSettings { try TokenOption(options.token) }
        staleAfterSeconds = options.staleAfterSeconds
        timeScale = options.timeScale
        if let tracking = try Self.trackingName(options, arguments) {
            subject = .shipment(name: tracking, events: try Self.events(options.events, ShipmentEventKind.self, arguments))
        } else {
            subject = .trip(name: try Self.tripName(options, arguments), events: try Self.events(options.events, TripEventKind.self, arguments))
        }
        var configuration = FollowConfiguration(
            until: options.until,
            failFast: options.failFast,
            refreshSeconds: options.interval.seconds,
            deadlineSeconds: options.deadline?.seconds)
        if case .trip(_, let events) = subject { configuration.events = events }
        self.configuration = configuration
        poll = options.poll
        json = options.output.isJSON
        color = options.output.style(context.outputStyle).isEnabled
    }

    /// Where to connect, with the bearer token over http: a `--token-url` token is cached for the
    /// trip (its ID fills `{trip}`) or the shipment (its tracking ID fills `{tracking}`), its provider
    /// `{provider}`, and fetched here once, so that a token server that cannot give one ends the run
    /// at once (UNAUTHENTICATED, exit 26). The in-process transports check no token: none is fetched
    /// for them.
    func connectionOptions() throws -> ConnectionOptions {
        guard connection.transport.hasPrefix("http://") || connection.transport.hasPrefix("https://") else { return ConnectionOptions() }
        let placeholder: String, id: String, provider: String
        switch subject {
        case .trip(let name, _):
            let parsed = try? TripName(parsing: name)
            (placeholder, id, provider) = ("trip", parsed?.tripID ?? name, parsed?.provider ?? "")
        case .shipment(let name, _):
            let parsed = try? TaskTrackingInfoName(parsing: name)
            (placeholder, id, provider) = ("tracking", parsed?.trackingID ?? name, parsed?.provider ?? "")
        }
        let tokens = try token.provider(placeholder: placeholder, cacheKey: id, provider: provider)
        _ = try tokens?.token()
        return ConnectionOptions(tokens: tokens)
    }

    /// How events are shown: JSON lines with --json, the live panel (`panel`) on a terminal, plain
    /// lines otherwise. The live panel's refresh is returned too, to be called every second.
    func presenter<Panel: FollowPanel>(_ panel: Panel, context: Context) -> (any FollowPresenter<Panel.Model>, (@Sendable () -> Void)?) {
        if json { return (JSONLinesPresenter<Panel.Model>(output: context.standardOutput), nil) }
        guard context.standardOutput.isTerminal else {
            return (PlainLinesPresenter<Panel.Model>(name: subject.name, output: context.standardOutput,
                                                     summaryOutput: context.standardError), nil)
        }
        let clock = SystemFollowClock()
        let live = LivePanelPresenter(name: subject.name, output: context.standardOutput, panel: panel,
                                      width: { (Terminal.columns(of: 1, environment: context.environment) ?? 80) - 1 },
                                      now: { clock.now() })
        return (live, { live.refresh() })
    }

    /// The trip's live panel as the options say (colours, stale threshold, time scale).
    var tripPanel: TripPanel {
        var panel = TripPanel(style: Style(enabled: color))
        panel.staleAfterSeconds = staleAfterSeconds
        panel.timeScale = timeScale
        return panel
    }

    /// The shipment's live panel as the options say.
    var shipmentPanel: ShipmentPanel { tripPanel.shipmentPanel }

    /// `providers/P/trips/T` as given, or `<trip>` with `--provider`. A name that is not well formed is
    /// sent as it is, so that the server's INVALID_ARGUMENT is reported like any client error.
    private static func tripName(_ options: FollowOptions, _ arguments: ParsedArguments) throws -> String {
        guard let given = arguments.string(FollowOptions.trip) else {
            throw arguments.usageError("missing argument <trip> (or --tracking-id ID to follow a shipment)")
        }
        return try fullName(given, collection: "trips", what: "trip", options, arguments)
    }

    /// `--tracking-id`'s tracking info name, nil without the option; a `<trip>` beside it is a usage error.
    private static func trackingName(_ options: FollowOptions, _ arguments: ParsedArguments) throws -> String? {
        guard let given = options.trackingID else { return nil }
        if let trip = arguments.string(FollowOptions.trip) {
            throw arguments.usageError("give a trip ('\(trip)') or --tracking-id, not both")
        }
        guard !given.isEmpty else { throw arguments.usageError("--tracking-id is empty") }
        return try fullName(given, collection: "taskTrackingInfo", what: "tracking", options, arguments)
    }

    /// `given` when it is a full name (`providers/…`; its provider must be `--provider`'s when both are
    /// given), else `providers/{--provider}/{collection}/{given}`.
    private static func fullName(_ given: String, collection: String, what: String, _ options: FollowOptions,
                                 _ arguments: ParsedArguments) throws -> String {
        let provider = options.provider.flatMap { $0.isEmpty ? nil : $0 }
        if given.hasPrefix("providers/") {
            if options.$provider.source == .commandLine, let provider,
               !given.hasPrefix("providers/\(provider)/") {
                throw arguments.usageError("the \(what) name '\(given)' names another provider than --provider '\(provider)'")
            }
            return given
        }
        if let provider { return "providers/\(provider)/\(collection)/\(given)" }
        guard given.contains("/") else {
            throw arguments.usageError("'\(given)' is a \(what) ID: give --provider (or FLEET_PROVIDER), or the full name providers/P/\(collection)/\(given)")
        }
        return given
    }

    /// The union of every `--events` list, as events of `Kind`; all of them when none is given.
    private static func events<Kind: FollowEventKind>(_ lists: [String], _ kind: Kind.Type, _ arguments: ParsedArguments) throws -> Set<Kind> {
        guard !lists.isEmpty else { return Set(Kind.allCases) }
        var kinds: Set<Kind> = []
        for list in lists {
            switch Kind.parseList(list) {
            case .success(let found):
                kinds.formUnion(found)
            case .failure(let unknown):
                let names = Kind.allCases.map(\.rawValue)
                let hint = Suggestion.nearest(to: unknown.name, among: names).map { "; did you mean '\($0)'?" } ?? ""
                let of = Kind.self == ShipmentEventKind.self ? "a shipment's event" : "an event"
                throw arguments.usageError("--events: '\(unknown.name)' is not \(of)\(hint) (events: \(names.joined(separator: ", ")))")
            }
        }
        guard !kinds.isEmpty else { throw arguments.usageError("--events names no event") }
        return kinds
    }
}
