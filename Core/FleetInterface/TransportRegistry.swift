import FleetErrors

/// The single place that turns a transport URL (`memory`, `file:PATH`, `http://HOST:PORT`) into a
/// `Connection`, as `StoreRegistry` does for stores and `RouterRegistry` for routers.
///
/// A URL is `SCHEME` or `SCHEME:REST`; the scheme is what comes before the first colon. Each
/// transport registers a factory that gets the whole URL and the `Options` of the call (what the
/// executables know besides the URL: a store URL, a token, an engine's settings).
public struct TransportRegistry<Options: Sendable>: Sendable {
    /// One kind of transport the registry can open.
    public struct Scheme: Sendable {
        public var name: String
        /// How the URL is written, for messages: `memory`, `file:PATH`, `http://HOST:PORT`.
        public var pattern: String
        /// Shown in errors and help: what the transport is.
        public var summary: String
        /// Whether the URL needs something after `name:` (`file:PATH`); a scheme that does not takes nothing.
        public var needsRest: Bool
        /// What the transport checks of its URL before connecting (a journal's folder must exist, a
        /// server URL must name a host); throws INVALID_ARGUMENT with field `transport`.
        public var check: (@Sendable (_ url: String) throws -> Void)?
        public var open: @Sendable (_ url: String, _ options: Options) throws -> Connection

        public init(name: String, pattern: String, summary: String, needsRest: Bool,
                    check: (@Sendable (_ url: String) throws -> Void)? = nil,
                    open: @escaping @Sendable (_ url: String, _ options: Options) throws -> Connection) {
            self.name = name
            self.pattern = pattern
            self.summary = summary
            self.needsRest = needsRest
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

    /// The scheme a URL names, or INVALID_ARGUMENT (field `transport`) listing the known schemes.
    public func scheme(of url: String) throws -> Scheme {
        let name = url.firstIndex(of: ":").map { url[..<$0] } ?? Substring(url)
        let rest = url.firstIndex(of: ":").map { url[url.index(after: $0)...] } ?? ""
        guard let scheme = schemes.first(where: { $0.name == name }) else {
            throw FleetError.invalidArgument("unknown transport '\(url)'; use one of: \(usage)", field: "transport")
        }
        if scheme.needsRest && rest.isEmpty {
            throw FleetError.invalidArgument("transport '\(url)' needs more: \(scheme.pattern) (\(scheme.summary)); use one of: \(usage)",
                                             field: "transport")
        }
        if !scheme.needsRest && !rest.isEmpty {
            throw FleetError.invalidArgument("transport '\(url)': \(scheme.name) takes nothing after it (\(scheme.summary)); use one of: \(usage)",
                                             field: "transport")
        }
        return scheme
    }

    /// Opens the transport a URL names, or throws INVALID_ARGUMENT listing the known schemes.
    public func open(_ url: String, options: Options) throws -> Connection {
        try check(url).open(url, options)
    }

    /// Checks a URL without connecting: a known scheme, what it needs after the colon, and its own
    /// `check`. Returns the scheme. Lets a command line report a malformed `--transport` before work starts.
    @discardableResult
    public func check(_ url: String) throws -> Scheme {
        let scheme = try scheme(of: url)
        try scheme.check?(url)
        return scheme
    }

    /// The schemes as `memory, file:PATH, http://HOST:PORT` for messages.
    public var usage: String {
        schemes.map(\.pattern).joined(separator: ", ")
    }
}
