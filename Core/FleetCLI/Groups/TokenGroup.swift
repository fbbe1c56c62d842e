/// Where the bearer token sent over http comes from: `--token`, `--token-file`, and for a tool that
/// speaks for one vehicle or trip `--token-url` with `--token-key` and `--token-expiry-key`.
/// Shared by fleet-admin (`fixedOptions`), driver-report and consumer-follow (`options`).
public struct TokenGroup: OptionGroup, Hashable {
    /// `--token JWT` (`FLEET_TOKEN`).
    public static let token = OptionDefinition.value(
        "token", valueName: "jwt", help: "The bearer token (JWT) sent over http; the in-process transports check none.",
        environment: "FLEET_TOKEN")
    /// `--token-file PATH` (`FLEET_TOKEN_FILE`).
    public static let tokenFile = OptionDefinition.value(
        "token-file", valueName: "path",
        help: "Read the bearer token from this file, again whenever it changes (so a helper may refresh it).",
        environment: "FLEET_TOKEN_FILE", completion: .files)
    /// `--token-url URL` (`FLEET_TOKEN_URL`).
    public static let tokenURL = OptionDefinition.value(
        "token-url", valueName: "url",
        help: "GET tokens from this URL ({vehicle} or {trip}, and {provider} are filled in); cached and refreshed before expiry.",
        environment: "FLEET_TOKEN_URL")
    /// `--token-key KEY` (`FLEET_TOKEN_KEY`, default `token`).
    public static let tokenKey = OptionDefinition.value(
        "token-key", valueName: "key", help: "--token-url: the JSON key of the token.", default: "token",
        environment: "FLEET_TOKEN_KEY")
    /// `--token-expiry-key KEY` (`FLEET_TOKEN_EXPIRY_KEY`, default `expiration_timestamp_ms`).
    public static let tokenExpiryKey = OptionDefinition.value(
        "token-expiry-key", valueName: "key",
        help: "--token-url: the JSON key of the expiry (epoch ms or s, seconds from now, or RFC 3339).",
        default: "expiration_timestamp_ms", environment: "FLEET_TOKEN_EXPIRY_KEY")
    /// Every token option: for a tool that speaks for one vehicle or trip, whose token a URL can give.
    public static let options = [token, tokenFile, tokenURL, tokenKey, tokenExpiryKey]
    /// `--token` and `--token-file` only: for a tool that speaks for no single vehicle or trip.
    public static let fixedOptions = [token, tokenFile]

    /// `--token`, when given and not empty.
    public let token: String?
    /// `--token-file`, when given and not empty.
    public let tokenFile: String?
    /// `--token-url`, when declared, given and not empty.
    public let tokenURL: String?
    /// `--token-key`.
    public let tokenKey: String
    /// `--token-expiry-key`.
    public let expiryKey: String

    /// Reads the token options the command declares. An empty `--token` is a usage error (an unset
    /// variable in a script, most likely); more than one source is one too.
    public init(_ arguments: ParsedArguments) throws(UsageError) {
        func given(_ option: OptionDefinition) -> String? {
            guard arguments.declares(option: option.name) else { return nil }
            return arguments.string(option)
        }
        if let token = given(Self.token), token.isEmpty, arguments.source(Self.token) == .commandLine {
            throw arguments.usageError("--token is empty")
        }
        token = given(Self.token).flatMap { $0.isEmpty ? nil : $0 }
        tokenFile = given(Self.tokenFile).flatMap { $0.isEmpty ? nil : $0 }
        tokenURL = given(Self.tokenURL).flatMap { $0.isEmpty ? nil : $0 }
        tokenKey = given(Self.tokenKey) ?? "token"
        expiryKey = given(Self.tokenExpiryKey) ?? "expiration_timestamp_ms"
        let sources = [("--token", token), ("--token-file", tokenFile), ("--token-url", tokenURL)].filter { $0.1 != nil }.map(\.0)
        if sources.count > 1 {
            let choices = arguments.declares(option: Self.tokenURL.name) ? "--token, --token-file and --token-url" : "--token and --token-file"
            throw arguments.usageError("give only one of \(choices) (got \(sources.joined(separator: ", ")))")
        }
    }
}
