import FleetErrors

/// The single place that turns a router URL (`straight`, `routino:DIR`) into a ``Router``.
///
/// A URL is `SCHEME` or `SCHEME:PATH`. Plugins register their schemes; executables take the URL from
/// `--router`, else `FLEET_ROUTER`, else ``defaultURL``.
public struct RouterRegistry: Sendable {
    /// One kind of router the registry can open.
    public struct Scheme: Sendable {
        public var name: String
        /// Shown in errors and help: what the scheme is and what its path means.
        public var summary: String
        /// Whether the scheme needs a path after the colon.
        public var needsPath: Bool
        /// What the path is called in messages (`DIR` for `routino:DIR`).
        public var pathName: String
        public var open: @Sendable (_ path: String) throws(FleetError) -> any Router

        public init(name: String, summary: String, needsPath: Bool, pathName: String = "PATH",
                    open: @escaping @Sendable (_ path: String) throws(FleetError) -> any Router) {
            self.name = name
            self.summary = summary
            self.needsPath = needsPath
            self.pathName = pathName
            self.open = open
        }

        /// `straight` or `routino:DIR`: how the scheme is written.
        public var pattern: String { needsPath ? "\(name):\(pathName)" : name }
    }

    /// The environment variable that names the router when no flag does.
    public static let environmentVariable = "FLEET_ROUTER"

    /// The router used when neither the flag nor the environment names one: great-circle estimates,
    /// which need no map.
    public static let defaultURL = "straight"

    public private(set) var schemes: [Scheme] = []

    public init(_ schemes: [Scheme] = []) {
        self.schemes = schemes
    }

    public mutating func register(_ scheme: Scheme) {
        schemes.removeAll { $0.name == scheme.name }
        schemes.append(scheme)
    }

    /// The URL to open: the flag's value, else `FLEET_ROUTER`, else ``defaultURL``; empty values count as absent.
    public static func chosenURL(flag: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let value = environment[environmentVariable], !value.isEmpty { return value }
        return defaultURL
    }

    /// Opens the router a URL names, or throws INVALID_ARGUMENT (`UNKNOWN_ROUTER`, field `router`)
    /// listing the known schemes.
    public func open(_ url: String) throws(FleetError) -> any Router {
        let name: Substring
        let path: String
        if let colon = url.firstIndex(of: ":") {
            name = url[..<colon]
            path = String(url[url.index(after: colon)...])
        } else {
            name = Substring(url)
            path = ""
        }
        guard let scheme = schemes.first(where: { $0.name == name }) else {
            throw FleetError(.unknownRouter, detail: "'\(url)'; use one of: \(usage)", field: "router")
        }
        if scheme.needsPath && path.isEmpty {
            throw FleetError(.unknownRouter, detail: "'\(url)' needs a path: \(scheme.pattern) (\(scheme.summary)); use one of: \(usage)", field: "router")
        }
        if !scheme.needsPath && !path.isEmpty {
            throw FleetError(.unknownRouter, detail: "'\(url)': \(scheme.name) takes no path (\(scheme.summary)); use one of: \(usage)", field: "router")
        }
        return try scheme.open(path)
    }

    /// The schemes as `straight`, `routino:DIR`, … for messages and help.
    public var usage: String {
        schemes.map(\.pattern).joined(separator: ", ")
    }
}
