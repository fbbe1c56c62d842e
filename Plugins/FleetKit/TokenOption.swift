import FleetAuth
import FleetErrors

/// Where an executable's bearer token comes from, read from the options driver-report and
/// consumer-follow share: `--token`, `--token-file` (read again whenever it changes), `--token-url`
/// with `--token-key` and `--token-expiry-key`.
public enum TokenOption: Sendable {
    /// No token (the in-process transports check none).
    case none
    /// `--token`: the same token always.
    case fixed(String)
    /// `--token-file PATH`.
    case file(path: String)
    /// `--token-url`.
    case url(TokenURL)

    /// Seconds before expiry at which a `--token-url` token is fetched again: ten minutes, as the SDK
    /// samples subtract (but never before half its life has passed; see `CachingTokenProvider`).
    public static let refreshMarginSeconds = 600.0

    /// The option the values given select.
    /// - Throws: INVALID_ARGUMENT naming the option (its `field`): more than one source, an empty
    ///   `--token`, a `--token-url` that is not http(s).
    public init(token: String?, tokenFile: String?, tokenURL: String?, tokenKey: String? = nil, expiryKey: String? = nil) throws {
        let given = [("token", token), ("token-file", tokenFile), ("token-url", tokenURL)].filter { $0.1 != nil }.map(\.0)
        guard given.count <= 1 else {
            throw FleetError.invalidArgument(
                "give only one of --token, --token-file and --token-url (got \(given.map { "--\($0)" }.joined(separator: ", ")))",
                field: given[1])
        }
        if let token {
            guard !token.isEmpty else { throw FleetError.invalidArgument("--token is empty", field: "token") }
            self = .fixed(token)
        } else if let tokenFile {
            self = .file(path: tokenFile)
        } else if let tokenURL {
            let format = TokenResponseFormat(tokenKey: tokenKey ?? "token", expiryKey: expiryKey ?? "expiration_timestamp_ms")
            self = .url(try TokenURL(template: tokenURL, format: format))
        } else {
            self = .none
        }
    }

    /// The option the command line gives: `value` returns what was given for an option name
    /// (`token`, `token-file`, `token-url`, `token-key`, `token-expiry-key`), or nil.
    public init(options value: (String) -> String?) throws {
        try self.init(token: value("token"), tokenFile: value("token-file"), tokenURL: value("token-url"),
                      tokenKey: value("token-key"), expiryKey: value("token-expiry-key"))
    }

    /// The provider, nil for `.none`.
    ///
    /// A `--token-url` provider caches its token per `cacheKey` (the vehicle ID of driver-report, the
    /// trip ID of consumer-follow), which fills the URL's `{placeholder}`, with `provider` in `{provider}`.
    /// - Throws: a `FleetError` when the HTTP client cannot start.
    public func provider(placeholder: String, cacheKey: String, provider: String,
                         clock: @escaping EpochClock = systemEpochClock) throws -> (any TokenProvider)? {
        switch self {
        case .none:
            return nil
        case .fixed(let token):
            return StaticTokenProvider(token: token)
        case .file(let path):
            return FileTokenProvider(path: path, label: "--token-file \(path)")
        case .url(let url):
            let fetcher = try url.fetcher(clock: clock)
            return CachingTokenProvider(cacheKey: cacheKey, refreshMargin: Self.refreshMarginSeconds, clock: clock) { key in
                try fetcher.grant(filling: [placeholder: key, "provider": provider])
            }
        }
    }
}
