import FleetErrors

/// The one registry of URL schemes: what turns a `--store`, `--transport` or `--router` URL into the
/// thing it names (`StoreRegistry`, `TransportRegistry` and `RouterRegistry` are this type). Each plugin
/// declares its scheme (name, how it is written, a summary, what it checks of its URL, how it opens);
/// the executables register the schemes they ship, and help texts and errors list them from here.
///
/// A URL is `SCHEME` or `SCHEME:REST`, the scheme being what comes before the first colon; a scheme that
/// declares options takes them after `?` (`sqlite:/x.db?durable=false`). An unknown scheme, a missing or
/// unexpected rest and an unknown option are INVALID_ARGUMENT with cause `UNKNOWN_SCHEME`, naming the
/// URL's kind as the field and listing the schemes.
public struct SchemeRegistry<Value, Options>: Sendable {
    /// One kind of thing the registry can open.
    public struct Scheme: Sendable {
        public var name: String
        /// How the URL is written, for messages and help: `memory`, `file:PATH`, `routino:DIR`.
        public var pattern: String
        /// Shown in errors and help: what the scheme is and what its rest means.
        public var summary: String
        /// Whether the URL needs something after `name:`; a scheme that does not takes nothing.
        public var needsRest: Bool
        /// The options the scheme reads after `?` (nil: `?` is part of the rest, as in an HTTP URL).
        public var options: [String]?
        /// What the scheme checks of its URL before anything is opened or created (a file's folder must
        /// exist, a server URL must name a host); throws INVALID_ARGUMENT naming `url.kind`.
        public var check: (@Sendable (_ url: SchemeURL) throws -> Void)?
        public var open: @Sendable (_ url: SchemeURL, _ options: Options) throws -> Value

        public init(name: String, pattern: String, summary: String, needsRest: Bool, options: [String]? = nil,
                    check: (@Sendable (_ url: SchemeURL) throws -> Void)? = nil,
                    open: @escaping @Sendable (_ url: SchemeURL, _ options: Options) throws -> Value) {
            self.name = name
            self.pattern = pattern
            self.summary = summary
            self.needsRest = needsRest
            self.options = options
            self.check = check
            self.open = open
        }
    }

    /// What the registry opens (`store`): the option its URLs come from and the field errors name.
    public let kind: String
    /// The URL used when none is given (`memory` for transports), nil when there is none.
    public let defaultURL: String?
    public private(set) var schemes: [Scheme] = []

    public init(kind: String, defaultURL: String? = nil, _ schemes: [Scheme] = []) {
        self.kind = kind
        self.defaultURL = defaultURL
        self.schemes = schemes
    }

    public mutating func register(_ scheme: Scheme) {
        schemes.removeAll { $0.name == scheme.name }
        schemes.append(scheme)
    }

    /// The scheme a URL names and the URL read by it (the default URL for an empty one).
    /// - Throws: INVALID_ARGUMENT (`UNKNOWN_SCHEME`, field `kind`) listing the schemes.
    public func resolve(_ url: String) throws -> (scheme: Scheme, url: SchemeURL) {
        let text = url.isEmpty ? (defaultURL ?? url) : url
        // The scheme ends at the first ':' (`sqlite:PATH`), or at '?' in a URL without one (`memory?durable=false`).
        let end = text.firstIndex { $0 == ":" || $0 == "?" } ?? text.endIndex
        let name = String(text[..<end])
        // Messages show the URL as `SchemeURL.redacted` does: never a password in it.
        let shown = SchemeURL.redacted(text)
        guard let scheme = schemes.first(where: { $0.name == name }) else {
            throw unknown("unknown \(kind) '\(shown)'; use one of: \(usage)")
        }
        var rest = end < text.endIndex && text[end] == ":" ? String(text[text.index(after: end)...]) : String(text[end...])
        var options: [String: String] = [:]
        if let known = scheme.options, let question = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: question)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, known.contains(parts[0]) else {
                    throw unknown("unknown \(kind) option '\(pair.hasPrefix("password=") ? "password=***" : pair)' in the \(scheme.name) \(kind) URL; the options are \(known.map { "\($0)=…" }.joined(separator: ", "))")
                }
                options[parts[0]] = parts[1]
            }
            rest = String(rest[..<question])
        }
        if scheme.needsRest && rest.isEmpty {
            throw unknown("\(kind) '\(shown)' needs more: \(scheme.pattern) (\(scheme.summary)); use one of: \(usage)")
        }
        if !scheme.needsRest && !rest.isEmpty {
            throw unknown("\(kind) '\(shown)': \(scheme.name) takes nothing after it (\(scheme.summary)); use one of: \(usage)")
        }
        return (scheme, SchemeURL(text: text, kind: kind, scheme: name, rest: rest, options: options))
    }

    /// Checks a URL without opening anything: a known scheme, what it needs after the colon, known
    /// options and the scheme's own `check`. Lets a command line report a malformed URL before work starts.
    @discardableResult
    public func check(_ url: String) throws -> (scheme: Scheme, url: SchemeURL) {
        let resolved = try resolve(url)
        try resolved.scheme.check?(resolved.url)
        return resolved
    }

    /// Opens what a URL names, after `check`.
    public func open(_ url: String, options: Options) throws -> Value {
        let (scheme, url) = try check(url)
        return try scheme.open(url, options)
    }

    /// The schemes as `memory, file:PATH, http://HOST:PORT` for messages and help.
    public var usage: String {
        schemes.map(\.pattern).joined(separator: ", ")
    }

    private func unknown(_ message: String) -> FleetError {
        FleetError(code: ErrorCause.unknownScheme.code, message: message, field: kind, cause: ErrorCause.unknownScheme.id)
    }
}

extension SchemeRegistry where Options == Void {
    /// Opens what a URL names (a registry whose schemes need nothing but their URL).
    public func open(_ url: String) throws -> Value {
        try open(url, options: ())
    }
}
