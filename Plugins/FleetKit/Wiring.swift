import FileStore
import FleetEngine
import FleetErrors
import FleetInterface
import FleetModel
import FleetStore
import Foundation
import JournalTransport
import MemoryStore
import PostgresStore
import RESTClient
import SQLiteStore

/// Supplies the bearer token a transport sends; `forceRefresh` after the server answered 401.
public typealias TokenSource = @Sendable (_ forceRefresh: Bool) throws -> String

/// What a transport needs besides its URL.
public struct ConnectionOptions: Sendable {
    /// The store URL for transports that run an engine in this process (`memory`, `file:`).
    public var store: String?
    /// The bearer token for transports that talk to a server (`http:`).
    public var token: TokenSource?
    /// The engine's clock, for in-process transports.
    public var clock: any EngineClock
    /// The engine's settings (its router, say), for in-process transports.
    public var engine: EngineConfiguration

    public init(store: String? = nil, token: TokenSource? = nil, clock: any EngineClock = SystemClock(),
                engine: EngineConfiguration = .init()) {
        self.store = store
        self.token = token
        self.clock = clock
        self.engine = engine
    }
}

/// Turns `--transport` and `--store` URLs into a connection: the single place every executable wires itself.
public enum Wiring {
    /// The stores this build knows: `memory`, `file:PATH`, `sqlite:PATH`, `postgres://…` (also `postgresql://…`).
    public static let stores = StoreRegistry([MemoryStore.scheme, FileStore.scheme, SQLiteStore.scheme,
                                              PostgresStore.scheme, PostgresStore.alternativeScheme])

    /// The transports this build knows: `memory`, `file:PATH`, `http://HOST:PORT`, `https://HOST`.
    public static let transports = TransportRegistry<ConnectionOptions>([memoryTransport, journalTransport,
                                                                         restTransport(secure: false), restTransport(secure: true)])

    /// The transports this build knows, for messages.
    public static var transportUsage: String { transports.usage }

    /// The embedded default store: SQLite in the user's data folder (`$FLEET_DATA_DIR`, else
    /// `$XDG_DATA_HOME/fleet-engine`, else `~/.local/share/fleet-engine`), so separate invocations
    /// see the same fleet.
    public static func defaultStoreURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        "sqlite:" + dataDirectory(environment: environment) + "/fleet.db"
    }

    /// The folder the default store lives in (created on first use).
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = environment["FLEET_DATA_DIR"], !dir.isEmpty { return dir }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/fleet-engine" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/share/fleet-engine"
    }

    /// Opens a store by URL (each store creates what it needs itself: SQLite its folder).
    public static func openStore(_ url: String) throws -> any Store {
        try stores.open(url)
    }

    /// Connects to an engine: `memory` (also the empty URL) runs one in this process over
    /// `options.store` (default: the embedded SQLite store); `file:PATH` shares a journal file with
    /// other processes on this host; `http://HOST:PORT` and `https://HOST` talk Fleet Engine's REST API
    /// to a server (`fleet-admin serve`, or Google's with a real token). An unknown URL is
    /// INVALID_ARGUMENT naming `transport` and listing the schemes.
    public static func connect(transport: String, options: ConnectionOptions = .init()) throws -> Connection {
        try transports.open(transport.isEmpty ? "memory" : transport, options: options)
    }
}
