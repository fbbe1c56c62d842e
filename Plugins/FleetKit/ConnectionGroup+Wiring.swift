import FleetCLI
import FleetInterface
import Foundation

/// `--transport` and `--store`: where the engine is, and the store of an engine run in this process.
/// Shared by fleet-admin, driver-report and consumer-follow, so each reaches the engine alike; the
/// schemes their help lists and the default transport come from the registries (`Wiring.transports`,
/// `Wiring.stores`).
public struct ConnectionGroup: OptionGroup, Equatable {
    /// The transport URL as given (the registry's default, `memory`, when not).
    @Option("transport", valueName: "url",
            help: "Where the engine runs: " + Wiring.transports.schemes.map { "\($0.pattern) (\($0.summary))" }.joined(separator: ", ") + ".",
            default: Wiring.transports.defaultURL, environment: "FLEET_TRANSPORT")
    public var transport: String
    @Option("store", valueName: "url",
            help: "The store of the in-process engine: \(Wiring.stores.usage). Default: the embedded SQLite store in $FLEET_DATA_DIR, else $XDG_DATA_HOME/fleet-engine, else ~/.local/share/fleet-engine, so separate invocations see the same fleet.",
            environment: "FLEET_STORE", completion: .files)
    private var givenStore: String?

    /// No option given.
    public init() {}

    /// Settings given directly (tests, and commands with a target of their own such as `replay --to`).
    public init(transport: String, store: String?) {
        self.transport = transport
        givenStore = store
    }

    /// The store URL as given; nil for the embedded default.
    public var store: String? { givenStore.flatMap { $0.isEmpty ? nil : $0 } }

    /// The same transport and store.
    public static func == (left: ConnectionGroup, right: ConnectionGroup) -> Bool {
        left.transport == right.transport && left.store == right.store
    }

    /// Whether the engine runs in this process (the `memory` transport), the only case `store` applies to.
    public var runsEngineInProcess: Bool {
        (transport.isEmpty ? Wiring.transports.defaultURL : transport) == Wiring.memoryTransport.name
    }
}

extension ConnectionGroup {
    /// Checks the transport and, for an engine in this process, the store, without connecting: a
    /// malformed URL or a store in a folder that does not exist is a usage error naming the option
    /// (exit 2), reported before any work starts.
    public func check(_ arguments: ParsedArguments,
                      environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        try arguments.checkingSettings {
            try Wiring.checkTransport(transport)
            if runsEngineInProcess {
                try Wiring.checkStore(storeURL(environment: environment), environment: environment)
            }
        }
    }

    /// The store an engine in this process opens: `--store`, else the embedded default.
    public func storeURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        store ?? Wiring.defaultStoreURL(environment: environment)
    }

    /// Checks the settings (`check`), then connects with `options` (its store taken from the group).
    public func connect(_ arguments: ParsedArguments, options: ConnectionOptions = .init(),
                        environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Connection {
        try check(arguments, environment: environment)
        var options = options
        options.store = storeURL(environment: environment)
        return try Wiring.connect(transport: transport, options: options)
    }
}

extension TokenOption {
    /// The token source the token options select (`TokenGroup`).
    /// - Throws: INVALID_ARGUMENT naming the option for a `--token-url` that is not http(s).
    public init(_ group: TokenGroup) throws {
        try self.init(token: group.token, tokenFile: group.tokenFile, tokenURL: group.tokenURL,
                      tokenKey: group.tokenKey, expiryKey: group.expiryKey)
    }
}
