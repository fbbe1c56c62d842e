import FleetErrors
import FleetStore

/// A `postgres://USER@HOST:PORT/DATABASE` store URL: what libpq connects with, and how messages
/// show it (never with its password).
struct PostgresURL: Sendable, Hashable {
    /// libpq's connection URI, password included.
    let conninfo: String
    /// The URL with the password replaced by `***`, for messages and logs.
    let display: String
    /// The most connections the store opens.
    let poolSize: Int

    /// Connection settings libpq takes from the URL's query, passed through.
    static let libpqOptions = ["sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout",
                               "application_name", "target_session_attrs", "password", "options"]

    /// Connections per store when the URL does not say: enough for the server's writing threads to
    /// overlap their commits, few enough that several nodes fit PostgreSQL's default 100.
    static let defaultPoolSize = 16

    /// `scheme` is `postgres` or `postgresql`, `path` what followed its colon (`//USER@HOST/DB`).
    init(scheme: String, path: String, settings: [String: String]) throws {
        var query: [String] = []
        var shownQuery: [String] = []
        var poolSize = Self.defaultPoolSize
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) {
            if key == "pool" {
                guard let size = Int(value), (1...1000).contains(size) else {
                    throw FleetError.invalidArgument("store option pool=\(value) must be a number of connections from 1 to 1000", field: "store")
                }
                poolSize = size
                continue
            }
            query.append("\(key)=\(value)")
            shownQuery.append(key == "password" ? "password=***" : "\(key)=\(value)")
        }
        let shownPath = Self.redacted(path)
        let display = "\(scheme):\(shownPath)" + (shownQuery.isEmpty ? "" : "?" + shownQuery.joined(separator: "&"))
        guard path.hasPrefix("//"), path.count > 2 else {
            throw FleetError(.storeSettingRejected,
                             detail: "'\(display)' is not a connection URL: use \(scheme)://USER@HOST:PORT/DATABASE", field: "store")
        }
        self.conninfo = "postgresql:\(path)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        self.display = display
        self.poolSize = poolSize
    }

    /// `//user:secret@host/db` as `//user:***@host/db`.
    static func redacted(_ path: String) -> String {
        StoreRegistry.redacted(path)
    }
}
