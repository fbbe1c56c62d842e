import FleetEngine
import FleetInterface
import FleetSchemes

extension JournalTransport {
    /// `file:PATH`: a journal shared by processes on this host. The journal is the state, so a store
    /// does not apply; the journal's folder must exist. `clock` reads the engine clock from the options.
    public static func scheme<Options>(clock: @escaping @Sendable (Options) -> any EngineClock) -> TransportRegistry<Options>.Scheme {
        TransportRegistry<Options>.Scheme(
            name: "file", pattern: "file:PATH", summary: "a journal file shared by processes on this host", needsRest: true,
            check: { url in try url.requireFolder(of: url.rest) }
        ) { url, options in
            let journal = try JournalTransport(path: url.rest, clock: clock(options))
            return Connection(api: journal, close: { journal.close() })
        }
    }
}
