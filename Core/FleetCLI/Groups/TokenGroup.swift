/// Where the bearer token sent over http comes from: `--token`, `--token-file`, and for a tool that
/// speaks for one vehicle or trip `--token-url` with `--token-key` and `--token-expiry-key`.
/// Shared by fleet-admin (`fixedOptions`), driver-report and consumer-follow (`options`).
public struct TokenGroup: OptionGroup {
    @Option("token", valueName: "jwt", help: "The bearer token (JWT) sent over http; the in-process transports check none.",
            environment: "FLEET_TOKEN")
    private var givenToken: String?
    @Option("token-file", valueName: "path",
            help: "Read the bearer token from this file, again whenever it changes (so a helper may refresh it).",
            environment: "FLEET_TOKEN_FILE", completion: .files)
    private var givenTokenFile: String?
    @Option("token-url", valueName: "url",
            help: "GET tokens from this URL ({vehicle} or {trip}, and {provider} are filled in); cached and refreshed before expiry.",
            environment: "FLEET_TOKEN_URL")
    private var givenTokenURL: String?
    /// `--token-key`.
    @Option("token-key", valueName: "key", help: "--token-url: the JSON key of the token.", default: "token",
            environment: "FLEET_TOKEN_KEY")
    public var tokenKey: String
    /// `--token-expiry-key`.
    @Option("token-expiry-key", valueName: "key",
            help: "--token-url: the JSON key of the expiry (epoch ms or s, seconds from now, or RFC 3339).",
            default: "expiration_timestamp_ms", environment: "FLEET_TOKEN_EXPIRY_KEY")
    public var expiryKey: String

    /// `--token` and `--token-file` only: for a tool that speaks for no single vehicle or trip.
    public static let fixedOptions = options(\.$givenToken, \.$givenTokenFile)

    /// No option given.
    public init() {}

    /// `--token`, when given and not empty.
    public var token: String? { givenToken.flatMap { $0.isEmpty ? nil : $0 } }
    /// `--token-file`, when given and not empty.
    public var tokenFile: String? { givenTokenFile.flatMap { $0.isEmpty ? nil : $0 } }
    /// `--token-url`, when declared, given and not empty.
    public var tokenURL: String? { givenTokenURL.flatMap { $0.isEmpty ? nil : $0 } }

    /// An empty `--token` is a usage error (an unset variable in a script, most likely); more than
    /// one source is one too.
    public func validate() throws(ValidationError) {
        if givenToken?.isEmpty == true, $givenToken.source == .commandLine { throw ValidationError("--token is empty") }
        let sources = [("--token", token), ("--token-file", tokenFile), ("--token-url", tokenURL)].filter { $0.1 != nil }.map(\.0)
        if sources.count > 1 {
            let choices = $givenTokenURL.isDeclared ? "--token, --token-file and --token-url" : "--token and --token-file"
            throw ValidationError("give only one of \(choices) (got \(sources.joined(separator: ", ")))")
        }
    }
}
