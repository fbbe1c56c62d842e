import Foundation
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
    /// The password as written in the URL (userinfo or `password=`) and percent-decoded: what
    /// `masked(_:)` takes out of libpq's messages, which may quote the URL or its parts.
    let secrets: [String]

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
        self.secrets = Self.passwords(path: path, settings: settings)
    }

    /// Every form of the URL's password, longest first (so a decoded form inside an encoded one
    /// does not leave a tail).
    private static func passwords(path: String, settings: [String: String]) -> [String] {
        var written: [String] = []
        if let password = settings["password"] { written.append(password) }
        let authority = path.dropFirst(2).prefix { $0 != "/" && $0 != "?" }
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            written.append(String(authority[authority.index(after: colon)..<at]))
        }
        let forms = written + written.compactMap { $0.removingPercentEncoding }
        return Array(Set(forms.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    /// libpq's `message` with the password taken out wherever it appears (libpq quotes a malformed
    /// URI whole: `invalid IPv6 host address in URI: "postgresql://user:secret@[::1:1/db"`) and any
    /// `postgres://` URL in it redacted as `display` is.
    func masked(_ message: String) -> String {
        var shown = message
        for secret in secrets { shown = shown.replacingOccurrences(of: secret, with: "***") }
        for scheme in ["postgresql://", "postgres://"] {
            var searchFrom = shown.startIndex
            while let start = shown.range(of: scheme, range: searchFrom..<shown.endIndex) {
                let end = shown[start.lowerBound...].firstIndex { $0 == "\"" || $0 == " " || $0 == "'" } ?? shown.endIndex
                let redacted = Self.redacted(String(shown[start.lowerBound..<end]))
                shown.replaceSubrange(start.lowerBound..<end, with: redacted)
                searchFrom = shown.index(start.lowerBound, offsetBy: redacted.count)
            }
        }
        return shown
    }

    /// `//user:secret@host/db` as `//user:***@host/db`.
    static func redacted(_ path: String) -> String {
        StoreRegistry.redacted(path)
    }
}
