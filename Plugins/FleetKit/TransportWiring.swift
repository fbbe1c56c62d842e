import FleetEngine
import FleetErrors
import FleetInterface
import FleetStore
import JournalTransport
import RESTClient

extension Wiring {
    /// `memory`: an engine in this process over `options.store`, else the embedded default store.
    static let memoryTransport = TransportRegistry<ConnectionOptions>.Scheme(
        name: "memory", pattern: "memory", summary: "an engine in this process over --store", needsRest: false
    ) { _, options in
        let store = try openStore(options.store ?? defaultStoreURL())
        let engine = Engine(store: store, clock: options.clock, configuration: options.engine)
        return Connection(api: engine, close: { try store.close() })
    }

    /// `file:PATH`: a journal shared by processes on this host. The journal is the state: `options.store` does not apply.
    static let journalTransport = TransportRegistry<ConnectionOptions>.Scheme(
        name: "file", pattern: "file:PATH", summary: "a journal file shared by processes on this host", needsRest: true,
        check: { url in try StoreRegistry.requireFolder(of: String(url.dropFirst("file:".count)), url: url, field: "transport") }
    ) { url, options in
        let journal = try JournalTransport(path: String(url.dropFirst("file:".count)), clock: options.clock)
        return Connection(api: journal, close: { journal.close() })
    }

    /// `http://HOST:PORT` and `https://HOST`: Fleet Engine's REST API, with `options.token` as the bearer token.
    static func restTransport(secure: Bool) -> TransportRegistry<ConnectionOptions>.Scheme {
        TransportRegistry<ConnectionOptions>.Scheme(
            name: secure ? "https" : "http", pattern: secure ? "https://HOST" : "http://HOST:PORT",
            summary: "Fleet Engine's REST API on a server", needsRest: true,
            check: { url in
                let authority = url.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" && $0 != "?" }
                guard !authority.isEmpty, !authority.hasPrefix(":") else {
                    throw FleetError.invalidArgument("'\(url)' names no host: write \(secure ? "https://HOST" : "http://HOST:PORT")",
                                                     field: "transport")
                }
            }
        ) { url, options in
            Connection(api: try RESTClient(baseURL: url, token: options.token))
        }
    }
}
