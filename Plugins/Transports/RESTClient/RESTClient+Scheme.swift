import FleetErrors
import FleetInterface
import FleetSchemes

extension RESTClient {
    /// `http://HOST:PORT` or `https://HOST`: Fleet Engine's REST API on a server, with the bearer token
    /// `token` reads from the options. The URL must name a host.
    public static func scheme<Options>(secure: Bool,
                                       token: @escaping @Sendable (Options) -> (@Sendable (Bool) throws -> String)?) -> TransportRegistry<Options>.Scheme {
        let pattern = secure ? "https://HOST" : "http://HOST:PORT"
        return TransportRegistry<Options>.Scheme(
            name: secure ? "https" : "http", pattern: pattern, summary: "Fleet Engine's REST API on a server", needsRest: true,
            check: { url in
                let authority = url.rest.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" && $0 != "?" }
                guard !authority.isEmpty, !authority.hasPrefix(":") else {
                    throw FleetError.invalidArgument("'\(SchemeURL.redacted(url.text))' names no host: write \(pattern)", field: url.kind)
                }
            }
        ) { url, options in
            Connection(api: try RESTClient(baseURL: url.text, token: token(options)))
        }
    }
}
