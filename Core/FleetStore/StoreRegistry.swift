import FleetErrors
import Foundation

/// How a store is opened.
public struct StoreOptions: Sendable, Hashable {
    /// Acknowledge a commit only once it is on disk (fsync). Off for benchmarks and throwaway data.
    public var durable: Bool
    /// The URL's other options (`?pool=8`), for schemes that declare them in `Scheme.options`.
    public var settings: [String: String]

    public init(durable: Bool = true, settings: [String: String] = [:]) {
        self.durable = durable
        self.settings = settings
    }
}

/// The single place that turns a store URL (`memory`, `file:PATH`, `sqlite:PATH`) into a `Store`.
///
/// A URL is `SCHEME` or `SCHEME:PATH`, optionally followed by `?durable=false` and the options its
/// scheme declares (`postgres://fleet@db:5432/fleet?pool=16`).
public struct StoreRegistry: Sendable {
    /// One kind of store the registry can open.
    public struct Scheme: Sendable {
        public var name: String
        /// Shown in errors and help: what the scheme is and what its path means.
        public var summary: String
        /// Whether the scheme needs a path after the colon.
        public var needsPath: Bool
        /// The URL options the scheme reads besides `durable` (they arrive in `StoreOptions.settings`).
        public var options: [String]
        /// What the store checks of its path before anything is opened or created (a file store's
        /// folder must exist, say); throws INVALID_ARGUMENT with field `store`. Gets the URL, for messages.
        public var check: (@Sendable (_ url: String, _ path: String) throws -> Void)?
        public var open: @Sendable (_ path: String, _ options: StoreOptions) throws -> any Store

        public init(name: String, summary: String, needsPath: Bool, options: [String] = [],
                    check: (@Sendable (_ url: String, _ path: String) throws -> Void)? = nil,
                    open: @escaping @Sendable (String, StoreOptions) throws -> any Store) {
            self.name = name
            self.summary = summary
            self.needsPath = needsPath
            self.options = options
            self.check = check
            self.open = open
        }
    }

    public private(set) var schemes: [Scheme] = []

    public init(_ schemes: [Scheme] = []) {
        self.schemes = schemes
    }

    public mutating func register(_ scheme: Scheme) {
        schemes.removeAll { $0.name == scheme.name }
        schemes.append(scheme)
    }

    /// Opens the store a URL names, or throws INVALID_ARGUMENT listing the known schemes.
    public func open(_ url: String) throws -> any Store {
        let (scheme, path, options) = try resolve(url)
        try scheme.check?(url, path)
        return try scheme.open(path, options)
    }

    /// Checks a store URL without opening anything: a known scheme, a path where the scheme needs one,
    /// known options. Returns the scheme's name and the path. Lets a command line report a malformed
    /// `--store` before it starts work.
    /// - Throws: INVALID_ARGUMENT with field `store`, as `open` does.
    public func check(_ url: String) throws -> (scheme: String, path: String) {
        let (scheme, path, _) = try resolve(url)
        try scheme.check?(url, path)
        return (scheme.name, path)
    }

    /// A `check` for stores kept in files: the folder that holds `path` must exist, so a typo in a
    /// path does not quietly start a new, empty fleet somewhere else.
    /// - Throws: INVALID_ARGUMENT with `field`, naming the URL (without a password) and the folder.
    public static func requireFolder(of path: String, url: String, field: String = "store") throws {
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if folder.isEmpty || (FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue) {
            return
        }
        throw FleetError.invalidArgument("'\(redacted(url))': the folder \(folder) does not exist; create it first, or correct the path",
                                         field: field)
    }

    private func resolve(_ url: String) throws -> (Scheme, String, StoreOptions) {
        var rest = Substring(url)
        var query: Substring?
        if let q = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: q)...]
            rest = rest[..<q]
        }
        let name: Substring
        let path: String
        if let colon = rest.firstIndex(of: ":") {
            name = rest[..<colon]
            path = String(rest[rest.index(after: colon)...])
        } else {
            name = rest
            path = ""
        }
        guard let scheme = schemes.first(where: { $0.name == name }) else {
            throw FleetError.invalidArgument("unknown store '\(Self.redacted(url))'; use one of: \(usage)", field: "store")
        }
        if scheme.needsPath && path.isEmpty {
            throw FleetError.invalidArgument("store '\(Self.redacted(url))' needs a path: \(scheme.name):PATH (\(scheme.summary))", field: "store")
        }
        var options = StoreOptions()
        for pair in query?.split(separator: "&") ?? [] {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            switch (kv.first, kv.count == 2 ? kv[1] : nil) {
            case ("durable", "true"?), ("durable", "1"?): options.durable = true
            case ("durable", "false"?), ("durable", "0"?): options.durable = false
            case (let key?, let value?) where scheme.options.contains(key): options.settings[key] = value
            default:
                let known = (["durable=true|false"] + scheme.options.map { "\($0)=…" }).joined(separator: ", ")
                throw FleetError.invalidArgument("unknown store option '\(pair.hasPrefix("password=") ? "password=***" : pair)' in the \(scheme.name) store URL; the options are \(known)", field: "store")
            }
        }
        return (scheme, path, options)
    }

    /// `url` as logs and messages may show it: a password in it (`//USER:PASSWORD@HOST`,
    /// `password=…`) replaced by `***`.
    public static func redacted(_ url: String) -> String {
        var shown = url
        if let slashes = shown.range(of: "//") {
            let authorityEnd = shown[slashes.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? shown.endIndex
            if let at = shown[slashes.upperBound..<authorityEnd].lastIndex(of: "@"),
               let colon = shown[slashes.upperBound..<at].firstIndex(of: ":") {
                shown.replaceSubrange(shown.index(after: colon)..<at, with: "***")
            }
        }
        if let query = shown.firstIndex(of: "?") {
            let pairs = shown[shown.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false).map { pair in
                pair.hasPrefix("password=") ? "password=***" : String(pair)
            }
            shown = shown[..<query] + "?" + pairs.joined(separator: "&")
        }
        return shown
    }

    /// The schemes as `memory`, `file:PATH`, … for messages.
    public var usage: String {
        schemes.map { $0.needsPath ? "\($0.name):PATH" : $0.name }.joined(separator: ", ")
    }
}
