/// `--transport` and `--store`: where the engine is, and the store of an engine run in this process.
/// Shared by fleet-admin, driver-report and consumer-follow, so each reaches the engine alike.
public struct ConnectionGroup: OptionGroup, Hashable {
    /// `--transport URL` (`FLEET_TRANSPORT`, default `memory`).
    public static let transport = Option.value(
        "transport", valueName: "url",
        help: "Where the engine runs: memory (in this process, over --store), file:PATH (a journal file shared by the processes of this host) or http://HOST:PORT (a fleet-admin serve).",
        default: "memory", environment: "FLEET_TRANSPORT")
    /// `--store URL` (`FLEET_STORE`); the embedded SQLite store when not given.
    public static let store = Option.value(
        "store", valueName: "url",
        help: "The store of the in-process engine: memory, file:PATH, sqlite:PATH or postgres://…. Default: the embedded SQLite store in $FLEET_DATA_DIR, else $XDG_DATA_HOME/fleet-engine, else ~/.local/share/fleet-engine, so separate invocations see the same fleet.",
        environment: "FLEET_STORE", completion: .files)
    /// The group's options.
    public static let options = [transport, store]

    /// The transport URL as given (`memory` by default).
    public let transport: String
    /// The store URL as given; nil for the embedded default.
    public let store: String?

    /// Reads `--transport` and `--store`.
    public init(_ arguments: ParsedArguments) throws(UsageError) {
        self.init(transport: arguments.string(Self.transport) ?? "memory",
                  store: arguments.string(Self.store).flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Settings given directly (tests, and commands with a target of their own such as `replay --to`).
    public init(transport: String, store: String?) {
        self.transport = transport
        self.store = store
    }

    /// Whether the engine runs in this process (the `memory` transport), the only case `store` applies to.
    public var runsEngineInProcess: Bool { transport == "memory" || transport.isEmpty }
}
