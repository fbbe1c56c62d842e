import FleetAuth
import FleetErrors
import Foundation
import HTTPClient

/// A token server asked with GET (`--token-url`), as the Driver and Consumer SDKs' token provider
/// samples ask theirs: the URL is a template whose placeholders (`{vehicle}`, `{trip}`, `{provider}`)
/// are filled in, percent-escaped, on each fetch, and the JSON answer is read with `format`.
public struct TokenURL: Sendable {
    /// The URL with its placeholders, `http://` or `https://`.
    public let template: String
    /// Where the token and its expiry are in the answer (`--token-key`, `--token-expiry-key`).
    public let format: TokenResponseFormat

    /// A token URL; anything but an `http://` or `https://` URL is INVALID_ARGUMENT naming `--token-url`.
    public init(template: String, format: TokenResponseFormat = TokenResponseFormat()) throws {
        guard template.hasPrefix("http://") || template.hasPrefix("https://") else {
            throw FleetError.invalidArgument("--token-url must be an http:// or https:// URL, got '\(template)'", field: "token-url")
        }
        self.template = template
        self.format = format
    }

    /// The URL with each `{name}` of `values` replaced by its value, percent-escaped.
    public func url(filling values: [String: String]) -> String {
        values.reduce(template) { url, value in
            url.replacingOccurrences(of: "{\(value.key)}", with: Self.escaped(value.value))
        }
    }

    /// A fetcher for this URL, with an HTTP client of its own (15 s per fetch, 5 s to connect).
    /// - Throws: a `FleetError` when the HTTP client cannot start.
    public func fetcher(clock: @escaping EpochClock = systemEpochClock) throws -> TokenURLFetcher {
        let client = try HTTPClient(configuration: HTTPClientConfiguration(defaultTimeout: .seconds(15), connectTimeout: .seconds(5)))
        return TokenURLFetcher(url: self, client: client, clock: clock)
    }

    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? text
    }
}

/// Fetches grants from a `TokenURL`: the source a `CachingTokenProvider` caches.
public struct TokenURLFetcher: Sendable {
    /// The token server.
    public let url: TokenURL
    private let client: HTTPClient
    private let clock: EpochClock

    init(url: TokenURL, client: HTTPClient, clock: @escaping EpochClock) {
        self.url = url
        self.client = client
        self.clock = clock
    }

    /// GETs the URL filled with `values` and reads the token and its expiry from the JSON answer.
    /// - Throws: UNAUTHENTICATED (`tokenUnavailable`) naming `--token-url` and the URL: the server cannot
    ///   be reached, answers other than 2xx, or without the token.
    public func grant(filling values: [String: String]) throws -> CachingTokenProvider.Grant {
        let address = url.url(filling: values)
        let answer: HTTPClientResponse
        do {
            answer = try client.send(HTTPClientRequest(url: address, headers: [(name: "Accept", value: "application/json")]))
        } catch {
            let reason = (error as? FleetError)?.message ?? "\(error)"
            throw FleetError(.tokenUnavailable, detail: "--token-url \(address): \(reason)")
        }
        guard answer.isSuccess else {
            throw FleetError(.tokenUnavailable, detail: "--token-url \(address) answered HTTP \(answer.status): \(answer.bodyText.prefix(200))")
        }
        return try url.format.grant(from: answer.bodyText, now: clock(), source: "--token-url \(address)")
    }
}
