import FleetCLI
import FleetInterface
import Foundation

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
