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
    public static let transports = TransportRegistry<ConnectionOptions>([
        memoryTransport, JournalTransport.scheme { $0.clock },
        RESTClient.scheme(secure: false) { $0.token }, RESTClient.scheme(secure: true) { $0.token },
    ])

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

    /// Opens a store by URL. The default store's folder is created when missing; any other store
    /// checks its own path first (a file store's folder must exist), so a typo in `--store` does not
    /// start a new, empty fleet.
    public static func openStore(_ url: String,
                                 environment: [String: String] = ProcessInfo.processInfo.environment) throws -> any Store {
        if url == defaultStoreURL(environment: environment) {
            try? FileManager.default.createDirectory(atPath: dataDirectory(environment: environment),
                                                     withIntermediateDirectories: true)
        }
        return try stores.open(url)
    }

    /// Checks a store URL without opening it: a known scheme with its path and options, and what the
    /// store itself checks (its folder, for stores kept in files); the default store is always
    /// fine, since `openStore` creates its folder.
    /// - Throws: INVALID_ARGUMENT with field `store`, saying what is wrong.
    public static func checkStore(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard url != defaultStoreURL(environment: environment) else { return }
        _ = try stores.check(url)
    }

    /// Checks `--transport` without connecting: a known scheme with what it needs, and what the
    /// transport itself checks (a journal's folder, a server's host).
    /// - Throws: INVALID_ARGUMENT with field `transport`, saying what is wrong and what is accepted.
    public static func checkTransport(_ transport: String) throws {
        try transports.check(transport)
    }

    /// Connects to an engine: `memory` (also the empty URL) runs one in this process over
    /// `options.store` (default: the embedded SQLite store); `file:PATH` shares a journal file with
    /// other processes on this host; `http://HOST:PORT` and `https://HOST` talk Fleet Engine's REST API
    /// to a server (`fleet-admin serve`, or Google's with a real token). An unknown URL is
    /// INVALID_ARGUMENT naming `transport` and listing the schemes.
    public static func connect(transport: String, options: ConnectionOptions = .init()) throws -> Connection {
        try transports.open(transport, options: options)
    }
}
